/**
 * `npm run soak:bank -- --ops 2000 [--restarts 1] [--users 20] [--concurrency 8] [--data-dir DIR]`:
 * money under crashes of the real server.
 *
 * 1. Set-up (`soak/setup.ts`): `--users` users registered, given a security code as their one
 *    trade factor, verified and funded through the app's routes, in this process, on the database
 *    the server will use; then that database is closed.
 * 2. Rounds: the real HTTP server (`src/main.ts`, `soak/server-process.ts`) starts on a free port
 *    on the same data; once `/readyz` answers, the client (`soak/load.ts`) first sends again every
 *    request whose answer was lost, with the same Idempotency-Key and body, then keeps
 *    `--concurrency` requests in flight — INTERNAL withdrawals to another soak user, OUTER
 *    withdrawals (frozen, status 0), cancels of its waiting withdrawals — until the server is
 *    SIGKILLed, 0.3–1.5 s after it became ready. The ledger is then checked on the state the crash
 *    left (a copy, for PGlite, so that the next server does its own recovery). Rounds go on until
 *    `--ops` operations were applied and at least `--restarts` kills happened.
 * 3. A last server answers the requests still unanswered, then stops cleanly (SIGTERM, exit 0).
 *
 * Then this process opens the database and prints one JSON line: operations done, restarts,
 * requests lost in flight and how their retries turned out (applied before the kill, applied by the
 * retry, refused), drift per asset (0), negative user balances (0), withdrawals whose entries do
 * not match their status (0), frozen balances unequal to open withdrawals (0), the ledger
 * invariants, and where the database and the client disagree: idempotency keys with more than one
 * withdrawal, withdrawals answered but not stored or stored but never answered, statuses, and each
 * user's balances against the client's account of every answer (all 0). Exit code 0 when all hold.
 *
 * Database: DATABASE_URL (postgres://…) or an embedded PGlite in `--data-dir` (default a temporary
 * directory, removed after a clean run; `--pglite-template` starts it from a migrated dump, as the
 * crash test does with its run's template). The data directory also keeps the server's generated
 * secrets (session, custody webhook, demo xpubs), so sessions survive every restart.
 */
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAmountMinor } from '@meridian/contracts/money';
import { agreementFigures, isLedgerClean, ledgerFigures, withDatabase } from './soak/inspect.ts';
import { type Generation, SoakClient } from './soak/load.ts';
import { killLiveServers, ServerProcess, type ServerTarget } from './soak/server-process.ts';
import { SOAK_COIN, setUpSoakUsers } from './soak/setup.ts';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '2000' },
    restarts: { type: 'string', default: '1' },
    users: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '8' },
    'data-dir': { type: 'string' },
    'pglite-template': { type: 'string' },
  },
});
const opsTarget = Number(values.ops);
const restartsMin = Number(values.restarts);
const userCount = Number(values.users);
const concurrency = Number(values.concurrency);
if (![opsTarget, restartsMin, userCount, concurrency].every(Number.isSafeInteger) || userCount < 2 || concurrency < 1) {
  console.error(
    'usage: npm run soak:bank -- --ops N [--restarts N] [--users N≥2] [--concurrency N≥1] [--data-dir DIR] [--pglite-template FILE]',
  );
  process.exit(2);
}
/** Kill-and-restart rounds at most, whatever `--ops` asks. */
const ROUNDS_MAX = 200;
const KILL_AFTER_READY_MS_MIN = 300;
const KILL_AFTER_READY_MS_SPREAD = 1200;
/** Each user's deposit: enough that refusals for balance stay the exception (an operation moves 10–50 USDT). */
const fundingUsdt = String(1000 + 10 * Math.ceil(opsTarget / userCount));

const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const isOwnDataDir = values['data-dir'] === undefined;
const target: ServerTarget = {
  dataDir: values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'meridian-soak-')),
  databaseUrl,
};
const log = (message: string) => console.error(`soak: ${message}`);

// Whatever ends this process (an error, Ctrl-C, a test's timeout), no server outlives it.
process.on('exit', killLiveServers);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killLiveServers();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

async function main(): Promise<number> {
  const startedMs = performance.now();
  log(
    `${databaseUrl ? 'PostgreSQL' : `PGlite in ${target.dataDir}`}; setting up ${userCount} users with ${fundingUsdt} ${SOAK_COIN} each`,
  );
  const users = await setUpSoakUsers(target, userCount, fundingUsdt, values['pglite-template']);
  log(`set up in ${Math.round(performance.now() - startedMs)} ms`);
  const client = new SoakClient(users, parseAmountMinor(fundingUsdt, SOAK_COIN), concurrency);
  let restarts = 0;
  let checksAfterKill = 0;
  let checksAfterKillFailed = 0;

  for (let round = 1; round <= ROUNDS_MAX; round += 1) {
    const spawnedMs = performance.now();
    const server = await ServerProcess.start(target);
    const readyMs = performance.now() - spawnedMs;
    const generation: Generation = { server, isDown: false, killedAtMs: null };
    const killAfterMs = KILL_AFTER_READY_MS_MIN + randomInt(KILL_AFTER_READY_MS_SPREAD);
    const killed = new Promise<void>((resolve) => {
      setTimeout(() => {
        generation.isDown = true;
        generation.killedAtMs = Date.now();
        void server.kill().then(resolve);
      }, killAfterMs);
    });
    const lostBefore = client.figures.lostInFlight;
    await client.run(generation, true);
    await killed;
    restarts += 1;
    const checkStartedMs = performance.now();
    const afterKill = await withDatabase(target, true, (database) => ledgerFigures(database.db));
    const checkMs = performance.now() - checkStartedMs;
    checksAfterKill += 1;
    if (!isLedgerClean(afterKill)) checksAfterKillFailed += 1;
    log(
      `round ${round}: ready in ${Math.round(readyMs)} ms, killed ${killAfterMs} ms later; ops ${client.figures.ops}, lost in flight ${client.figures.lostInFlight - lostBefore}; ` +
        `ledger after the kill ${isLedgerClean(afterKill) ? 'clean' : `BROKEN ${JSON.stringify(afterKill)}`} (checked in ${Math.round(checkMs)} ms)`,
    );
    if (client.figures.ops >= opsTarget && restarts >= restartsMin) break;
  }

  // The last server answers what is still unanswered, then stops cleanly.
  const server = await ServerProcess.start(target);
  await client.run({ server, isDown: false, killedAtMs: null }, false);
  const cleanStopExitCode = await server.stop();
  log(`last server stopped with exit code ${cleanStopExitCode}; ${client.unresolvedCount} requests unresolved`);

  const { ledger, agreement } = await withDatabase(target, false, async (database) => ({
    ledger: await ledgerFigures(database.db),
    agreement: await agreementFigures(database.db, client),
  }));
  const { figures } = client;
  const report = {
    database: databaseUrl ? 'postgres' : 'pglite',
    users: userCount,
    ops: figures.ops,
    restarts,
    requests: figures.requests,
    attempts: figures.attempts,
    refusals: figures.refusals,
    lostInFlight: figures.lostInFlight,
    retriedWithdrawals: figures.withdraw,
    retriedCancels: figures.cancel,
    unresolved: client.unresolvedCount,
    unexpectedAnswers: figures.unexpectedAnswers,
    checksAfterKill,
    checksAfterKillFailed,
    ...ledger,
    ...agreement,
    cleanStopExitCode,
    durationMs: Math.round(performance.now() - startedMs),
  };
  console.log(JSON.stringify(report));
  const isClean =
    isLedgerClean(ledger) &&
    Object.values(agreement).every((n) => n === 0) &&
    report.unresolved === 0 &&
    report.unexpectedAnswers === 0 &&
    checksAfterKillFailed === 0 &&
    cleanStopExitCode === 0;
  if (isClean && isOwnDataDir) rmSync(target.dataDir, { recursive: true, force: true });
  else if (!isClean) log(`not clean; the data is kept in ${target.dataDir}`);
  return isClean ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  killLiveServers();
  process.exitCode = 2;
}
