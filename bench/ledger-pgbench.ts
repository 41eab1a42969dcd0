/**
 * The database-function half of `npm run bench:ledger` on PostgreSQL: `pgbench` (20 clients, 2
 * threads by default) calling `ledger_post` for one-minor-unit transfers between 10,000 spread
 * accounts and between 10 hot accounts, on a scratch database migrated like production. With a
 * checkout of pgr0ss/pgledger (`--pgledger <dir>` or `PGLEDGER_DIR`; not part of this repository)
 * the same run calls its `pgledger_create_transfer` on the same server with the same accounts,
 * clients and duration, so the two functions are compared under the same load, in turn.
 *
 * Rounds: first one warm-up round of each function, not counted (a function's first minutes on a
 * fresh database are its slowest: new WAL segments, cold caches, sessions planned on the statistics
 * of the nearly empty tables), then `rounds` counted rounds in which the two functions take turns
 * going first (ledger_post first in odd rounds, pgledger in even ones), so that a drift of the
 * machine's load falls on both alike. Printed: every round of each function, each round's ratio,
 * the ratio over all counted rounds (sum over sum) and the ratio of the two functions' medians.
 *
 * Figures per run: transfers/s (pgbench's tps without connection time), p50 and p99 of one call in
 * ms (from pgbench's per-transaction log), failed calls. Needs `pgbench` and `psql` on the PATH.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';

/** One pgbench run: calls per second, latency percentiles in ms, failed calls. */
export interface PgbenchFigures {
  transfersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

/** Options of {@link runLedgerPgbench}. */
export interface PgbenchOptions {
  /** postgres:// URL of a role that may create databases. */
  postgresUrl: string;
  /** Seconds each pgbench run lasts. */
  durationSeconds: number;
  /** Counted runs of each function after the warm-up round, taking turns to go first. */
  rounds: number;
  /** Seconds of the warm-up run of each function (not counted); 0 skips the warm-up. */
  warmupSeconds: number;
  clients: number;
  threads: number;
  /** A pgr0ss/pgledger checkout (its pgledger.sql and vendor/scoville-pgsql-ulid), or undefined. */
  pgledgerDir: string | undefined;
  /** Funds `accounts` users named `<tag><n>` (n from 1) with USDT (bench/ledger.ts `prepare`). */
  prepare: (database: Database, accounts: number, tag: string) => Promise<void>;
}

const SPREAD_ACCOUNTS = 10_000;
const HOT_ACCOUNTS = 10;
const FUNDING_MINOR = '1000000000000';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/**
 * Run pgbench with `script` against `url`; pgbench variable `n` is the number of accounts.
 * Latencies come from the per-transaction log (`-l`, microseconds in its third column).
 */
function pgbench(
  url: string,
  script: string,
  accounts: number,
  options: PgbenchOptions,
  durationSeconds: number,
): PgbenchFigures {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-pgbench-'));
  try {
    const scriptFile = join(dir, 'script.sql');
    writeFileSync(scriptFile, script);
    const result = spawnSync(
      'pgbench',
      [
        '-n',
        '-M',
        'prepared',
        '-c',
        String(options.clients),
        '-j',
        String(options.threads),
        '-T',
        String(durationSeconds),
        '-D',
        `n=${accounts}`,
        '-l',
        '--log-prefix',
        join(dir, 'log'),
        '-f',
        scriptFile,
        url,
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr}`);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout);
    const failed = /number of failed transactions: (\d+)/.exec(result.stdout);
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((name) => name.startsWith('log'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        const fields = line.split(' ');
        if (fields.length > 2) latencies.push(Number(fields[2]) / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      transfersPerSecond: Number(tps?.[1] ?? 0),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      failed: Number(failed?.[1] ?? 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two distinct accounts a ≠ b in 1..n, uniformly (pgbench meta-commands). */
const PAIR = `\\set a random(1, :n)
\\set d random(1, :n - 1)
\\set b (:a + :d - 1) % :n + 1
`;

function ledgerScript(tag: string): string {
  return `${PAIR}SELECT o_status FROM ledger_post('INTERNAL_TRANSFER', 'bench', gen_random_uuid()::text, 'bench', NULL::bigint, '{}'::jsonb,
  ARRAY['user', 'user'], ARRAY['${tag}' || :a, '${tag}' || :b], ARRAY['USER_AVAILABLE', 'USER_AVAILABLE'], ARRAY['USDT', 'USDT'],
  ARRAY[-1, 1]::numeric[], ARRAY[1, 2], ARRAY[-1, 1]::numeric[], 2);
`;
}

const PGLEDGER_SCRIPT = `${PAIR}SELECT id FROM pgledger_create_transfer('acct' || :a, 'acct' || :b, 1);
`;

function psql(url: string, args: string[]): void {
  const result = spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '-q', ...args, url], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
}

async function meridianRun(adminUrl: string, name: string, accounts: number, options: PgbenchOptions) {
  const url = withDatabase(adminUrl, name);
  const database = await openDatabase({ kind: 'postgres', url, poolMax: 2 });
  const tag = `pgb-${accounts}-`;
  try {
    await database.migrate(findMigrationsDir());
    await options.prepare(database, accounts, tag);
  } finally {
    await database.close();
  }
  psql(url, ['-c', 'CHECKPOINT', '-c', 'VACUUM ANALYZE ledger_accounts']);
  return (seconds: number) => pgbench(url, ledgerScript(tag), accounts, options, seconds);
}

async function pgledgerRun(adminUrl: string, name: string, accounts: number, options: PgbenchOptions, dir: string) {
  const url = withDatabase(adminUrl, name);
  psql(url, [
    '--single-transaction',
    '-f',
    join(dir, 'vendor/scoville-pgsql-ulid/ulid-to-uuid.sql'),
    '-f',
    join(dir, 'vendor/scoville-pgsql-ulid/uuid-to-ulid.sql'),
    '-f',
    join(dir, 'pgledger.sql'),
  ]);
  psql(url, [
    '-c',
    `INSERT INTO pgledger_accounts (id, name, currency, balance, allow_negative_balance, allow_positive_balance, created_at, updated_at)
     SELECT 'acct' || g, 'bench ' || g, 'USDT', ${FUNDING_MINOR}, false, true, now(), now() FROM generate_series(1, ${accounts}) g`,
    '-c',
    'CHECKPOINT',
    '-c',
    'VACUUM ANALYZE pgledger_accounts',
  ]);
  return (seconds: number) => pgbench(url, PGLEDGER_SCRIPT, accounts, options, seconds);
}

function row(label: string, f: PgbenchFigures): string {
  return `  ${label.padEnd(17)} ${f.transfersPerSecond.toFixed(0).padStart(7)} transfers/s  p50 ${f.p50Ms.toFixed(2).padStart(7)} ms  p99 ${f.p99Ms.toFixed(2).padStart(7)} ms  failed ${f.failed}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Runs one pgbench round of `seconds` and gives its figures. */
type Run = (seconds: number) => PgbenchFigures;

/**
 * The warm-up round of each function (printed, not counted), then `options.rounds` counted rounds
 * in which ledger_post goes first in odd rounds and pgledger in even ones; prints each run, each
 * round's ratio, the ratio of the sums and the ratio of the medians (transfers/s).
 */
function compareRounds(runLedger: Run, runOther: Run | null, options: PgbenchOptions): void {
  if (options.warmupSeconds > 0) {
    console.log(row('ledger_post warm', runLedger(options.warmupSeconds)));
    if (runOther) console.log(row('pgledger warm', runOther(options.warmupSeconds)));
  }
  const ledger: number[] = [];
  const other: number[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const runs: [string, Run, number[]][] = [[`ledger_post #${round}`, runLedger, ledger]];
    if (runOther) runs.push([`pgledger #${round}`, runOther, other]);
    if (round % 2 === 0) runs.reverse();
    for (const [label, run, figures] of runs) {
      const f = run(options.durationSeconds);
      figures.push(f.transfersPerSecond);
      console.log(row(label, f));
    }
    if (runOther) console.log(`    ratio ledger_post/pgledger ${(ledger.at(-1)! / other.at(-1)!).toFixed(2)}`);
  }
  if (!runOther) return;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  console.log(`  ratio over all rounds ${(sum(ledger) / sum(other)).toFixed(2)}`);
  console.log(
    `  ratio of medians ${(median(ledger) / median(other)).toFixed(2)} (ledger_post ${median(ledger).toFixed(0)}, pgledger ${median(other).toFixed(0)} transfers/s)`,
  );
}

/**
 * Print pgbench figures of `ledger_post` (and of pgledger's transfer when `options.pgledgerDir` is
 * set) on 10,000 spread and 10 hot accounts, each on its own scratch database
 * `meridian_pgb_<pid>_<n>` created and dropped on the server of `options.postgresUrl`.
 */
export async function runLedgerPgbench(options: PgbenchOptions): Promise<void> {
  const admin = new pg.Client({ connectionString: options.postgresUrl });
  await admin.connect();
  try {
    for (const accounts of [SPREAD_ACCOUNTS, HOT_ACCOUNTS]) {
      const names = [`meridian_pgb_${process.pid}_${accounts}`, `pgledger_pgb_${process.pid}_${accounts}`];
      for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
      try {
        console.log(
          `pgbench · PostgreSQL · ${accounts.toLocaleString('en-US')} ${accounts === HOT_ACCOUNTS ? 'hot' : 'spread'} accounts · ${options.clients} clients · ${options.threads} threads · ${options.durationSeconds} s`,
        );
        // Both databases are prepared first; then a warm-up round of each and the counted rounds.
        const runLedger = await meridianRun(options.postgresUrl, names[0]!, accounts, options);
        const runOther = options.pgledgerDir
          ? await pgledgerRun(options.postgresUrl, names[1]!, accounts, options, options.pgledgerDir)
          : null;
        compareRounds(runLedger, runOther, options);
      } finally {
        for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      }
    }
  } finally {
    await admin.end();
  }
}
