import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One migrated and seeded data directory per e2e run, copied for every server the run starts.
 *
 * A server of the production build on a new database spends most of its start in PGlite's initdb,
 * the migrations and the demo seed (about two thirds of a 30 s start on this loaded 2-core machine;
 * see docs/testing.md). The run pays that once: `prepareServerTemplate` starts the built server on
 * an empty data directory, waits until it is ready, and stops it cleanly; each server then starts on
 * a copy (`copyServerTemplate`) and only opens the database.
 */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = join(ROOT, 'apps/server/dist/main.js');

/**
 * Seconds between two codes for one address and event on the run's servers, instead of the default
 * 59 (CODE_RESEND_AFTER_SECONDS, honoured by the server only under NODE_ENV=test): flows that must
 * ask twice for one event's code (a second login, a second card application) wait as a person
 * would for "resend" (`CODE_RESEND_WAIT_MS`) without spending a minute. The 59 s refusal itself is
 * driven on a server with the real wait (`REAL_CODE_RESEND_ENV`, e2e/wallet-withdraw.spec.ts) and in
 * the identity API tests.
 */
export const E2E_CODE_RESEND_AFTER_SECONDS = 2;
/** What a test waits after a code before asking for another of the same event, with room. */
export const CODE_RESEND_WAIT_MS = (E2E_CODE_RESEND_AFTER_SECONDS + 1) * 1000;
/** `extraEnv` of a server with the real 59 s between two codes. */
export const REAL_CODE_RESEND_ENV: NodeJS.ProcessEnv = { CODE_RESEND_AFTER_SECONDS: '' };

/**
 * The replayed market every e2e server shows, the same on any day the suite runs: the price replay
 * (docs/prices.md) is at `replayedAt` when the run starts (`E2E_RUN_STARTED_AT`, set once by
 * playwright.config.ts) and moves at the real pace from there. On 6 February 2021, from 18:00 UTC to
 * midnight, BTC's 24-hour change stays between +2.7 % and +4 % and ETH's between −2.4 % and −6 %
 * (computed from the bundled daily files with the replay's own path), so for six hours after its
 * start every page shows a market that is up (BTC), one that is down (ETH) and the stablecoins flat.
 */
export const E2E_MARKET = {
  replayStartDay: '2021-02-06',
  /** Replayed hours after `replayStartDay` 00:00 UTC at the run's start. */
  replayedHoursAtRunStart: 18,
  up: 'BTC',
  down: 'ETH',
} as const;

/** `PRICE_REPLAY_START` and `PRICE_REPLAY_ANCHOR_AT` that put the replay at `E2E_MARKET` for this run. */
export function marketEnv(runStartedAt = process.env.E2E_RUN_STARTED_AT): NodeJS.ProcessEnv {
  if (!runStartedAt) throw new Error('E2E_RUN_STARTED_AT is not set: run the specs through playwright.config.ts');
  const anchorMs = Date.parse(runStartedAt) - E2E_MARKET.replayedHoursAtRunStart * 3_600_000;
  return {
    PRICE_REPLAY_START: E2E_MARKET.replayStartDay,
    PRICE_REPLAY_ANCHOR_AT: new Date(anchorMs).toISOString(),
    PRICE_REPLAY_DAY_MINUTES: '1440',
  };
}

/** The environment every e2e server shares (embedded database in its data directory, the run's market); `extraEnv` wins. */
export function serverEnv(
  port: number,
  dataDir: string,
  custodySecret: string,
  extraEnv: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    CUSTODY_WEBHOOK_SECRET: custodySecret,
    CODE_RESEND_AFTER_SECONDS: String(E2E_CODE_RESEND_AFTER_SECONDS),
    ...marketEnv(),
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  // Each server is a deployment of its own (its own copy of the database): it keeps its rate-limit
  // counters in its own memory. Sharing the test run's Redis (REDIS_URL, for the API tests) added
  // up every server's requests from 127.0.0.1, and a fast run hit the per-address limits (108).
  delete env.REDIS_URL;
  return env;
}

/** Resolves when `GET /readyz` answers 200. @throws Error after `timeoutMs` or when the process exits first. */
export async function waitUntilReady(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    const status = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server at ${baseUrl} was not ready within ${timeoutMs} ms`);
}

/** Stop a server with SIGTERM and wait for its exit (it finishes its running job and releases the lock). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Make the run's template in `dataDir` (empty or absent): the built server migrates and seeds it,
 * then stops. @throws Error when the server does not become ready within `timeoutMs`.
 */
export async function prepareServerTemplate(
  dataDir: string,
  custodySecret: string,
  timeoutMs = 120_000,
): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: serverEnv(port, dataDir, custodySecret),
    stdio: 'ignore',
  });
  try {
    await waitUntilReady(`http://127.0.0.1:${port}`, child, timeoutMs);
  } finally {
    await stopServer(child);
  }
}

/** A fresh copy of the template for one server. @returns the copy's path. */
export function copyServerTemplate(templateDir: string, label: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), `meridian-e2e-${label}-`));
  cpSync(templateDir, dataDir, { recursive: true });
  return dataDir;
}
