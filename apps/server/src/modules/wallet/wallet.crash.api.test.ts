import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { testDatabaseKind } from '../../../test/helpers.ts';

/**
 * Crash safety (faults and concurrency), against the real server process: `scripts/soak-bank.ts`
 * starts `src/main.ts` on one database, keeps 8 money-moving HTTP requests in flight (INTERNAL
 * withdrawals between users, OUTER withdrawals frozen at request, cancels), SIGKILLs the server
 * 0.3–1.5 s after it is ready and starts it again on the same data, at least three times. Every
 * request whose answer was lost is sent again with the same Idempotency-Key once a server answers.
 * Proven afterwards: the ledger held after each kill; each lost request was resolved once (applied
 * before the kill and replayed, applied by the retry, or refused); no key has two withdrawals; the
 * database holds exactly the withdrawals, statuses and balances the client's answers imply;
 * balances sum to zero per asset, none is negative, entries match statuses, frozen balances equal
 * open withdrawals, and the ledger invariants hold.
 */
const run = promisify(execFile);
const SERVER_DIR = join(import.meta.dirname, '../../..');
const TSX = join(SERVER_DIR, '../../node_modules/.bin/tsx');

it('loses and duplicates nothing when the server is killed mid-request and restarted, three times', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, MERIDIAN_SERVER_BUNDLE: inject('serverBundle') };
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-crash-'));
  const args = ['scripts/soak-bank.ts', '--users', '8', '--ops', '16', '--restarts', '3', '--data-dir', dataDir];
  let dropDatabase = async () => {};
  if (testDatabaseKind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `meridian_crash_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    delete env.DATABASE_URL;
    args.push('--pglite-template', inject('pgliteTemplate'));
  }
  try {
    const { stdout } = await run(process.execPath, [TSX, ...args], { cwd: SERVER_DIR, env, timeout: 280_000 });
    const reportLine = stdout.trim().split('\n').at(-1)!;
    // The figures go to the test log: how many requests were lost and how their retries turned out.
    console.info(`soak:bank ${testDatabaseKind} ${reportLine}`);
    const report = JSON.parse(reportLine);
    expect(report.restarts).toBeGreaterThanOrEqual(3);
    expect(report.checksAfterKill).toBe(report.restarts);
    expect(report.ops).toBeGreaterThanOrEqual(16);
    // The kills hit requests in flight, and each of them was resolved exactly once.
    expect(report.lostInFlight).toBeGreaterThan(0);
    const resolved = [report.retriedWithdrawals, report.retriedCancels].flatMap((figures) => [
      figures.appliedBeforeKill,
      figures.appliedOnRetry,
      figures.refusedOnRetry,
    ]);
    expect(resolved.reduce((sum: number, n: number) => sum + n, 0)).toBe(report.lostInFlight);
    expect(report).toMatchObject({
      unresolved: 0,
      unexpectedAnswers: 0,
      checksAfterKillFailed: 0,
      driftMinor: '0',
      negativeUserBalances: 0,
      withdrawalMismatches: 0,
      frozenMismatches: 0,
      invariantsHeld: true,
      duplicateKeys: 0,
      lostWithdrawals: 0,
      unexpectedWithdrawals: 0,
      statusMismatches: 0,
      balanceMismatches: 0,
      cleanStopExitCode: 0,
    });
  } finally {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 300_000);
