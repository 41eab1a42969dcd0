import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { signCustodyBody } from '../../src/modules/wallet/wallet.routes.ts';
import { openDatabase } from '../../src/platform/db/client.ts';
import { findMigrationsDir } from '../../src/platform/db/migrate.ts';
import { readOrCreateSecret } from '../../src/platform/security/secrets.ts';
import { seedDemo } from '../../src/seed.ts';
import type { ServerTarget } from './server-process.ts';

/**
 * The soak's users, made before the first server process starts, through the real app's routes
 * (`buildApp` + `app.inject`, as bench/swap.ts does) on the database the server will open:
 * human check, registration with the dev mailbox's code, login, the 6-digit security code, the
 * trade email factor switched off, basic KYC, and a deposit through the signed custody webhook.
 *
 * Why in process and not over the child's socket: every socket request comes from 127.0.0.1, and
 * the identity routes' per-IP limits (30 registration steps and 20 code sends a minute) would
 * throttle 20 sign-ups; `inject` gives each user its own address. The database is closed (and
 * PGlite's lock released) before the server starts, and the server reads the same secrets from
 * DATA_DIR/secrets (session, custody webhook, demo xpubs), so the sessions made here stay valid in
 * every server process.
 *
 * Two shortcuts, both outside what the soak tests: KYC is set through `identity.setKycLevel` (the
 * KYC module does not exist yet), and the 24-hour withdrawal hold that switching a trade factor off
 * imposes is lifted with one UPDATE.
 */
export const SOAK_COIN = 'USDT';
export const SOAK_NETWORK = 'TRC20';
/** The 6-digit security code of every soak user: their one trade factor, sent with each withdrawal. */
export const SOAK_SECURITY_CODE = '246813';
const PASSWORD = 'Soak-Passphrase-2026';
/** Users set up at once (each costs ≈ 5 argon2 hashes). */
const SETUP_CONCURRENCY = 4;

export interface SoakUser {
  index: number;
  userId: string;
  email: string;
  /** The `cookie` header of the user's session (valid across server restarts). */
  cookie: string;
  /** The user's TRC20 deposit address: an INTERNAL withdrawal to it credits this user at once. */
  depositAddress: string;
}

interface Envelope {
  statusCode: number;
  content: Record<string, unknown>;
  message: string;
}

const mutationHeaders = (cookie?: string) => ({
  'content-type': 'application/json',
  [HEADER_CSRF]: CSRF_HEADER_VALUE,
  ...(cookie ? { cookie } : {}),
});

async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: { payload?: object; cookie?: string; remoteAddress: string },
): Promise<{ content: Record<string, unknown>; cookies: string }> {
  const response = await app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress,
    ...(method === 'POST'
      ? { headers: mutationHeaders(options.cookie), payload: options.payload ?? {} }
      : { headers: options.cookie ? { cookie: options.cookie } : {} }),
  });
  const body = response.json<Envelope>();
  if (body.statusCode !== 200) throw new Error(`set-up: ${method} ${url} answered ${body.statusCode}: ${body.message}`);
  return {
    content: body.content,
    cookies: response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '),
  };
}

async function humanCheckToken(app: FastifyInstance, remoteAddress: string): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const challenge = (await app.inject({ method: 'GET', url: '/api/user/human-check/challenge', remoteAddress })).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('set-up: ALTCHA challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The newest code mailed to `email` for `event`, from the dev mailbox. */
async function mailboxCode(app: FastifyInstance, email: string, event: string): Promise<string> {
  const messages = (await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(email)}` })).json<{
    content: { subject: string; body: string; tag: string | null }[];
  }>().content;
  const message = messages.find((item) => item.tag === event && /\b\d{6}\b/.test(`${item.subject} ${item.body}`));
  const code = message && /\b(\d{6})\b/.exec(`${message.subject} ${message.body}`)?.[1];
  if (!code) throw new Error(`set-up: no ${event} code in the dev mailbox for ${email}`);
  return code;
}

async function setUpUser(
  app: FastifyInstance,
  index: number,
  custodySecret: string,
  fundingAmount: string,
): Promise<SoakUser> {
  const remoteAddress = `10.91.${index >> 8}.${index & 255}`;
  const email = `soak-${index}-${randomBytes(3).toString('hex')}@example.com`;
  const first = await call(app, 'POST', '/api/user/register', {
    payload: { email, token: await humanCheckToken(app, remoteAddress) },
    remoteAddress,
  });
  const ticket = String(first.content.ticket);
  await call(app, 'POST', '/api/user/captcha', { payload: { event: 'EMAIL_REGISTER', email, ticket }, remoteAddress });
  const emailCaptcha = await mailboxCode(app, email, 'EMAIL_REGISTER');
  const created = await call(app, 'POST', '/api/user/register', {
    payload: { email, ticket, emailCaptcha, password: PASSWORD, confirm: PASSWORD },
    remoteAddress,
  });
  const userId = String(created.content.accountId);
  const login = await call(app, 'POST', '/api/user/login', {
    payload: { email, password: PASSWORD, token: await humanCheckToken(app, remoteAddress) },
    remoteAddress,
  });
  const cookie = login.cookies;

  // Trade factors (decision 0003: the email code is on by default, and one factor must stay on):
  // set the security code (its first setting holds nothing), then switch the email code off.
  await call(app, 'POST', '/api/user/captcha', { payload: { event: 'SECURITY_PASSWORD' }, cookie, remoteAddress });
  const securityCaptcha = await mailboxCode(app, email, 'SECURITY_PASSWORD');
  await call(app, 'POST', '/api/user/security/password', {
    payload: { newSecurityPassword: SOAK_SECURITY_CODE, confirm: SOAK_SECURITY_CODE, emailCaptcha: securityCaptcha },
    cookie,
    remoteAddress,
  });
  await call(app, 'POST', '/api/user/captcha', { payload: { event: 'CONFIG_SWITCH' }, cookie, remoteAddress });
  const switchCaptcha = await mailboxCode(app, email, 'CONFIG_SWITCH');
  const config = await call(app, 'POST', '/api/user/config/switch', {
    payload: {
      scope: 'trade',
      factor: 'email',
      isEnabled: false,
      emailCaptcha: switchCaptcha,
      securityPassword: SOAK_SECURITY_CODE,
    },
    cookie,
    remoteAddress,
  });
  const trade = config.content.trade as { email: number; security: number };
  if (trade.email !== 0 || trade.security !== 1)
    throw new Error(`set-up: trade factors are ${JSON.stringify(trade)}, expected the security code alone`);
  await app.identity.setKycLevel(userId, 1);

  const depositAddress = String(
    (await call(app, 'GET', `/api/wallet/address?coin=${SOAK_COIN}&net=${SOAK_NETWORK}`, { cookie, remoteAddress }))
      .content.address,
  );
  const deposit = JSON.stringify({
    deliveryId: `soak-fund-${index}-${randomBytes(6).toString('hex')}`,
    sentAt: new Date().toISOString(),
    event: {
      type: 'deposit',
      network: SOAK_NETWORK,
      coin: SOAK_COIN,
      address: depositAddress,
      txHash: `soak-fund-${randomBytes(16).toString('hex')}`,
      outputIndex: 0,
      amount: fundingAmount,
      confirmations: 1000,
    },
  });
  const credited = (
    await app.inject({
      method: 'POST',
      url: '/api/custody/webhook',
      payload: deposit,
      headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(custodySecret, deposit) },
    })
  ).json<Envelope>();
  if (credited.statusCode !== 200 || credited.content.status !== 'CREDITED')
    throw new Error(`set-up: funding deposit answered ${credited.statusCode}: ${credited.message}`);
  return { index, userId, email, cookie, depositAddress };
}

/**
 * Start an embedded data directory from a migrated dump (`PGlite.dumpDataDir`, the API tests'
 * template) instead of letting the first open run initdb, which takes seconds. Nothing happens when
 * the directory already holds a database.
 */
async function createPgliteFromTemplate(dataDir: string, templatePath: string): Promise<void> {
  const pgliteDir = join(dataDir, 'pglite');
  if (existsSync(pgliteDir)) return;
  const pglite = await PGlite.create({ dataDir: pgliteDir, loadDataDir: new Blob([readFileSync(templatePath)]) });
  await pglite.close();
}

/** Migrate and seed the database, make `userCount` funded users, close everything. */
export async function setUpSoakUsers(
  target: ServerTarget,
  userCount: number,
  fundingAmount: string,
  pgliteTemplatePath?: string,
): Promise<SoakUser[]> {
  if (!target.databaseUrl && pgliteTemplatePath) await createPgliteFromTemplate(target.dataDir, pgliteTemplatePath);
  const database = await openDatabase(
    target.databaseUrl
      ? { kind: 'postgres', url: target.databaseUrl, poolMax: SETUP_CONCURRENCY }
      : { kind: 'pglite', dataDir: target.dataDir },
  );
  try {
    await database.migrate(findMigrationsDir());
    await seedDemo(database.db);
    // The configuration the server will run with (main.ts), so secrets come from the same files.
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: target.dataDir,
      JOBS_ENABLED: 'false',
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    });
    const sessionSecret = readOrCreateSecret(target.dataDir, 'session-secret');
    const custodySecret = readOrCreateSecret(target.dataDir, 'custody-webhook-secret');
    const app = await buildApp({ config, database, sessionSecret, logger: false });
    try {
      await app.ready();
      const users: SoakUser[] = [];
      for (let index = 0; index < userCount; index += SETUP_CONCURRENCY) {
        const batch = Array.from({ length: Math.min(SETUP_CONCURRENCY, userCount - index) }, (_unused, k) =>
          setUpUser(app, index + k, custodySecret, fundingAmount),
        );
        users.push(...(await Promise.all(batch)));
      }
      // The one write outside the API: switching the email factor off held withdrawals 24 hours.
      await database.db.execute(
        sql`UPDATE users SET withdrawal_hold_until = NULL WHERE id IN (${sql.join(
          users.map((user) => sql`${user.userId}::uuid`),
          sql`, `,
        )})`,
      );
      for (const user of users) {
        if (await app.identity.withdrawalHoldUntil(user.userId))
          throw new Error('set-up: a withdrawal hold is still on');
      }
      return users;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
