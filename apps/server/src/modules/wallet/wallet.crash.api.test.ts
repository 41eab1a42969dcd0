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
 * Crash safety (issue 4 faults): a worker process moving money — transfers, withdrawals frozen at
 * request, cancels — is SIGKILLed at random moments and restarted on the same data three times
 * (`scripts/soak-bank.ts`). Afterwards nothing is lost or duplicated: balances sum to zero per
 * asset, no user is negative, every withdrawal has exactly the entries its status implies, every
 * frozen balance equals its open withdrawals, and the ledger invariants hold.
 */
const run = promisify(execFile);
const SERVER_DIR = join(import.meta.dirname, '../../..');

it('keeps the books exact when the process is killed between freezing and recording, and restarted', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const args = [join(SERVER_DIR, '../../node_modules/.bin/tsx'), 'scripts/soak-bank.ts', '--ops', '60', '--restarts', '3'];
  let cleanup: () => Promise<void>;
  if (testDatabaseKind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `meridian_crash_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    cleanup = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'meridian-crash-'));
    delete env.DATABASE_URL;
    args.push('--data-dir', dataDir);
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    const tsx = args.shift()!;
    const { stdout } = await run(process.execPath, [tsx, ...args], { cwd: SERVER_DIR, env, timeout: 170_000 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(report.restarts).toBeGreaterThanOrEqual(3);
    expect(report.ops).toBeGreaterThanOrEqual(60);
    expect(report).toMatchObject({ driftMinor: '0', negativeUserBalances: 0, withdrawalMismatches: 0, frozenMismatches: 0, invariantsHeld: true });
  } finally {
    await cleanup();
  }
}, 180_000);
