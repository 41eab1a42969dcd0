import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Response as InjectResponse } from 'light-my-request';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/platform/db/client.ts';
import type { AuthProvider } from '../src/platform/http/auth.ts';
import { type Clock, startedClock, systemClock } from '../src/platform/clock/clock.ts';
import { signCustodyBody } from '../src/modules/wallet/wallet.routes.ts';

/** Which database the API tests run on: PGlite in memory by default, PostgreSQL when asked. */
export const testDatabaseKind = process.env.MERIDIAN_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated database for one test file: PGlite loaded from the run's template, or a new
 * PostgreSQL database copied from the template database. `close` drops what it made.
 */
export async function createTestDatabase(): Promise<Database & { dispose(): Promise<void>; url?: string }> {
  if (testDatabaseKind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `meridian_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 });
    return {
      ...database,
      url: url.toString(),
      dispose: async () => {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dump = new Blob([readFileSync(inject('pgliteTemplate'))]);
  const database = await openDatabase({ kind: 'memory', loadDataDir: dump });
  return { ...database, dispose: () => database.close() };
}

/**
 * Databases opened by `createTestApp` in this test file and not yet closed, and hooks run on each
 * just before it closes. The ledger's setup file (`test/ledger-invariants.ts`) adds a hook that
 * checks the ledger invariants, so every API test file proves them on its own database.
 */
export const testDatabaseRegistry = {
  open: new Set<Database>(),
  /**
   * How to close each open database of `createTestApp` with its app, used after a file that left
   * it open (a worker runs many files: an app left running would keep its timers).
   */
  closers: new Map<Database, () => Promise<void>>(),
  beforeClose: [] as ((database: Database) => Promise<void>)[],
};

/**
 * The clock of this test run: TEST_CLOCK_AT's (scripts/date-matrix.mjs), started when this file
 * loads, else the machine's. Tests that talk to a server process they spawned (which takes the same
 * TEST_CLOCK_AT from the environment and starts its own clock a few seconds later) date what they
 * send with it; tests of an in-process app read `app.clock` instead.
 */
export const testRunClock: Clock = process.env.TEST_CLOCK_AT
  ? startedClock(new Date(process.env.TEST_CLOCK_AT))
  : systemClock;

/** The session secret of every test app, so a second app on the same database accepts its cookies. */
export const TEST_SESSION_SECRET = 'test-secret-'.padEnd(48, 'x');

export interface TestApp {
  app: FastifyInstance;
  /** The file's database; `url` is set on PostgreSQL (to open a second server on it). */
  database: Database & { url?: string };
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: NodeJS.ProcessEnv;
  /** Replace the identity module's session provider (platform tests of the permission hooks). */
  authProvider?: AuthProvider;
  /** Register extra routes before the app is ready (probe routes for platform tests). */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /** The app's clock; tests of dated rules move it by hand. Default: TEST_CLOCK_AT's, else the system clock. */
  clock?: Clock;
}

/** Build the real app on a fresh database (fastify/demo `test/helper.ts`). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  // TEST_CLOCK_AT of the test run (scripts/date-matrix.mjs) reaches every test app; a test's own
  // clock (`options.clock`) still wins.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'memory://',
    TEST_CLOCK_AT: process.env.TEST_CLOCK_AT,
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    sessionSecret: TEST_SESSION_SECRET,
    logger: false,
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await options.configure?.(app);
  await app.ready();
  if (options.clock) followTestClock(app, database, options.clock);
  testDatabaseRegistry.open.add(database);
  testDatabaseRegistry.closers.set(database, async () => {
    await app.close();
    await database.dispose();
  });
  return {
    app,
    database,
    config,
    close: async () => {
      testDatabaseRegistry.closers.delete(database);
      await app.close();
      if (testDatabaseRegistry.open.delete(database)) {
        try {
          for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
        } finally {
          await database.dispose();
        }
        return;
      }
      await database.dispose();
    },
  };
}

/**
 * A test that moves its own clock by hours or days stands for people who kept using the site
 * meanwhile: before a request that finds the clock moved by more than a minute since the last one,
 * the live sessions (users' and operators') are touched at the clock's time, and codes dated after
 * it (the clock went back) are dated a resend wait before it. Without this every session would idle
 * out (30 minutes) or expire (12 hours) at the first jump. Session expiry itself is tested on apps
 * with the run's clock (identity tests), which this leaves alone.
 */
export function followTestClock(app: FastifyInstance, database: Database, clock: Clock): void {
  let lastRequestAtMs: number | undefined;
  const follow = async () => {
    const now = clock.now();
    const hasJumped = lastRequestAtMs !== undefined && Math.abs(now.getTime() - lastRequestAtMs) > 60_000;
    lastRequestAtMs = now.getTime();
    if (!hasJumped) return;
    const at = sql`${now.toISOString()}::timestamptz`;
    await database.db.execute(
      sql`UPDATE sessions SET last_seen_at = ${at}, expires_at = GREATEST(expires_at, ${at} + interval '12 hours') WHERE revoked_at IS NULL`,
    );
    await database.db.execute(
      sql`UPDATE admin_sessions SET last_seen_at = ${at}, expires_at = GREATEST(expires_at, ${at} + interval '12 hours') WHERE revoked_at IS NULL`,
    );
    await database.db.execute(
      sql`UPDATE verification_codes SET created_at = ${at} - interval '2 minutes' WHERE created_at > ${at}`,
    );
    app.identity.forgetSessions();
  };
  // Before the request reaches the app's hooks (the session is resolved in the first of them).
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<InjectResponse>;
  Object.assign(app, {
    inject: async (options: InjectOptions | string) => {
      await follow();
      return inject(options);
    },
  });
}

/** Headers of a state-changing call as the web app sends them. */
export function mutationHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', [HEADER_CSRF]: CSRF_HEADER_VALUE, ...extra };
}

// ---------------------------------------------------------------- identity helpers

/**
 * Solve an ALTCHA challenge from `GET /api/user/human-check/challenge` the way the widget does, and
 * return the `token` for login, register and recover. Fast under NODE_ENV=test (ALTCHA_MAX_COUNTER 20).
 */
export async function solveHumanCheck(app: FastifyInstance, remoteAddress = randomTestIp()): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const challenge = (await app.inject({ method: 'GET', url: '/api/user/human-check/challenge', remoteAddress })).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('ALTCHA challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * The newest code sent to `recipient` (an email address or E.164 number) through the dev outbox,
 * optionally for one captcha event. Throws when none was sent.
 */
export async function readLatestCode(app: FastifyInstance, recipient: string, event?: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(recipient)}` });
  const messages: { subject: string; body: string; tag: string | null }[] = response.json().content;
  const message = messages.find(
    (item) => (event === undefined || item.tag === event) && /\b\d{6}\b/.test(`${item.subject} ${item.body}`),
  );
  const code = message && /\b(\d{6})\b/.exec(`${message.subject} ${message.body}`)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}${event ? ` (${event})` : ''}`);
  return code;
}

/** A signed-in test user: its id, the session cookie, and headers for state-changing calls. */
export interface TestSession {
  userId: string;
  email: string;
  password: string;
  /** `meridian_sid=…` (and the device cookie) for the `cookie` header. */
  cookie: string;
  /** `mutationHeaders()` plus the cookie: pass to POST/PUT/DELETE injects. */
  headers: Record<string, string>;
}

let registeredCount = 0;

/** A random private IPv4 address, so per-IP rate limits of one test do not spill into another. */
export function randomTestIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

/**
 * Register a new account through the real API (human check, email code, password) and log in.
 * Use `session.headers` on mutations and `{ cookie: session.cookie }` on GETs. A sensitive action
 * then needs an email code by default (trade config): get one with `sensitiveCode`.
 */
export async function registerAndLogin(
  app: FastifyInstance,
  options: { email?: string; password?: string; remoteAddress?: string } = {},
): Promise<TestSession> {
  const remoteAddress = options.remoteAddress ?? randomTestIp();
  registeredCount += 1;
  const email = (options.email ?? `user${registeredCount}-${randomBytes(4).toString('hex')}@example.com`).toLowerCase();
  const password = options.password ?? 'Correct-Horse-Battery-9';
  const post = async (
    url: string,
    payload: Record<string, unknown>,
    headers: Record<string, string> = mutationHeaders(),
  ) => {
    const response = await app.inject({ method: 'POST', url, headers, payload, remoteAddress });
    const body = response.json();
    if (body.statusCode !== 200) throw new Error(`${url} answered ${body.statusCode}: ${body.message}`);
    return { response, content: body.content };
  };
  const step1 = await post('/api/user/register', { email, token: await solveHumanCheck(app, remoteAddress) });
  const ticket: string = step1.content.ticket;
  await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
  const emailCaptcha = await readLatestCode(app, email, 'EMAIL_REGISTER');
  const created = await post('/api/user/register', { email, ticket, emailCaptcha, password, confirm: password });
  const login = await post('/api/user/login', { email, password, token: await solveHumanCheck(app, remoteAddress) });
  const cookie = login.response.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
  return { userId: created.content.accountId, email, password, cookie, headers: mutationHeaders({ cookie }) };
}

/** Ask for an email code for `event` as `session` and read it from the outbox (the default trade factor). */
export async function sensitiveCode(app: FastifyInstance, session: TestSession, event: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/captcha',
    headers: session.headers,
    payload: { event },
  });
  if (response.json().statusCode !== 200)
    throw new Error(`user/captcha answered ${response.json().statusCode}: ${response.json().message}`);
  return readLatestCode(app, session.email, event);
}

/**
 * Credit `amount` (a decimal string) of `coin` to `userId` the way custody does: a `deposit`
 * webhook with 20 confirmations to the user's deposit address on `network`, signed with the app's
 * custody secret `secret` (`CUSTODY_WEBHOOK_SECRET` of the test app).
 * @throws when the webhook does not answer 200.
 */
export async function depositThroughCustody(
  app: FastifyInstance,
  secret: string,
  userId: string,
  amount: string,
  coin: 'USDT' | 'BTC' = 'USDT',
  network = 'TRC20',
): Promise<void> {
  const { address } = await app.wallet.depositAddress(userId, coin, network);
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network,
      coin,
      address,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount,
      confirmations: 20,
    },
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(secret, raw) },
    payload: raw,
  });
  const statusCode = response.json().statusCode;
  if (statusCode !== 200) throw new Error(`the custody deposit answered ${statusCode}`);
}
