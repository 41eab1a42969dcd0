/**
 * `npm run bench:accrual`: the funds' batch jobs at scale. Loads N current-fund
 * holdings set-based (100,000 on an in-memory PGlite; 1,000,000 on PostgreSQL when TEST_DATABASE_URL
 * or DATABASE_URL is postgres://…, in a scratch database `meridian_bench_<pid>` dropped afterwards),
 * then times, through the funds service as the scheduler's leader runs it:
 *   1. one day's accrual (2026-01-31) over every holding;
 *   2. a rerun of the same day — it must post 0 ledger entries and accrue 0 holdings;
 *   3. the month's payout (2026-02, paid on Monday 2026-02-02) of that interest as new shares.
 * Prints holdings/s of each, the resident memory of this process before the jobs (Node, the
 * modules; on PGlite the database too) and its peak (the server's work runs here). Targets: accrual
 * and payout ≤ 10 s for 1M on PostgreSQL, ≤ 300 MB.
 *
 * The process runs as production runs the server (`--runner bundle`, the default: this file bundled
 * by esbuild like `apps/server/build.mjs` into a scratch directory under `apps/server/dist/`, run
 * with plain `node`), or as TypeScript through tsx (`--runner tsx`: ~110 MB more resident memory
 * for tsx's on-the-fly transpiling, none of it the jobs').
 *
 * On PostgreSQL the accrual runs its batches on `--accrual-connections` pooled connections at once
 * (default FUND_ACCRUAL_CONNECTIONS_POSTGRES, as the `funds.daily` job does) and the payout on
 * `--connections` (default FUND_PAYOUT_CONNECTIONS_POSTGRES, as the `funds.payout` job does); PGlite
 * has one connection.
 *
 *   npm run bench:accrual [-- --holdings 100000 --pg-holdings 1000000 --batch 50000 --connections 2
 *     --accrual-connections 2 --only pglite|postgres --runner bundle|tsx --first-payout --keep]
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { CURRENT_PRODUCT_SEED } from '../apps/server/src/modules/funds/funds.products.ts';
import {
  FUND_ACCRUAL_CONNECTIONS_POSTGRES,
  FUND_PAYOUT_CONNECTIONS_POSTGRES,
} from '../apps/server/src/modules/funds/funds.jobs.ts';
import { DEFAULT_RECEIVING_ACCOUNT } from '../apps/server/src/modules/funds/funds.module.ts';
import { createFundsService } from '../apps/server/src/modules/funds/funds.service.ts';
import { getHongKongCalendar } from '../apps/server/src/platform/calendar/business-calendar.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';
import { queryRows } from '../apps/server/src/platform/db/rows.ts';
import { bundleLikeServer } from './lib/bundle-like-server.ts';

const { values: args } = parseArgs({
  options: {
    holdings: { type: 'string', default: '100000' },
    'pg-holdings': { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '50000' },
    /** Payout batches at once on PostgreSQL (default: what the `funds.payout` job uses). */
    connections: { type: 'string' },
    /** Accrual batches at once on PostgreSQL (default: what the `funds.daily` job uses). */
    'accrual-connections': { type: 'string' },
    /** Run only one database: `pglite` or `postgres`. */
    only: { type: 'string' },
    /** Load the holdings without their ledger account's id (a first payout looks them up). */
    'first-payout': { type: 'boolean', default: false },
    /** Keep the PostgreSQL scratch database (for EXPLAIN), and stop after loading. */
    keep: { type: 'boolean', default: false },
    /** `bundle` (default: esbuild bundle run by plain node, as production) or `tsx`. */
    runner: { type: 'string', default: 'bundle' },
  },
});

/** Set in the bundled child process (`--runner bundle`). */
const BUNDLED_ENV = 'MERIDIAN_BENCH_ACCRUAL_BUNDLED';

/**
 * Bundle this file as production bundles the server (`bundleLikeServer`: a scratch directory under
 * `apps/server/dist/`, so packages and the migrations resolve as from production's `dist/main.js`),
 * run it with plain `node` and the same arguments, and remove the directory.
 * @returns the child's exit code.
 */
async function runBundled(): Promise<number> {
  const { outfile, outDir } = await bundleLikeServer(path.join(import.meta.dirname, 'accrual.ts'), 'accrual');
  try {
    const child = spawn(process.execPath, [outfile, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, [BUNDLED_ENV]: '1' },
    });
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

let peakRssBytes = 0;
const sampler = setInterval(() => {
  peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
}, 20);
sampler.unref();

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(0)} MB`;
}

async function entryCount(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ledger_entries`);
  return row?.n ?? 0;
}

/**
 * N users' current holdings of 10,000.00–10,099.00 USD held since 2026-01-01, with their ledger
 * USER_FUND accounts at the same balance (loaded directly: the benchmark measures the jobs). Each
 * holding keeps its account's id (`ledger_account_id`), as every holding paid once before does;
 * with `--first-payout` it does not, as before a holding's first payout (the payout looks it up).
 */
async function load(database: Database, holdings: number): Promise<void> {
  const started = performance.now();
  await database.db.execute(sql`
    INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, balance_minor, is_negative_allowed)
    SELECT 'user', 'bench-' || i, 'USER_FUND', 'USD', 1000000 + (i % 100) * 100, false
    FROM generate_series(1, ${holdings}) AS i`);
  await database.db.execute(sql`
    INSERT INTO fund_holdings (user_id, product_id, kind, shares_minor, day_start_date, created_at, ledger_account_id)
    SELECT 'bench-' || i, ${CURRENT_PRODUCT_SEED.id}, 'CURRENT', 1000000 + (i % 100) * 100, '2026-01-01', '2026-01-01T00:00:00+08:00',
           ${
             args['first-payout']
               ? sql`NULL::bigint`
               : sql`(SELECT a.id FROM ledger_accounts a
             WHERE a.owner_kind = 'user' AND a.owner_id = 'bench-' || i AND a.type = 'USER_FUND' AND a.asset = 'USD')`
           }
    FROM generate_series(1, ${holdings}) AS i ORDER BY i`);
  await database.db.execute(sql`ANALYZE fund_holdings`);
  await database.db.execute(sql`ANALYZE ledger_accounts`);
  console.log(
    `  loaded ${holdings.toLocaleString('en-US')} holdings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * `ACCRUAL_PROFILE=1` (PostgreSQL only): after each job, the WAL it wrote per record type
 * (`pg_walinspect`, cluster-wide), the tables' inserted / updated / HOT-updated rows
 * (`pg_stat_user_tables`), the WAL and buffer counters (`pg_stat_wal`, `pg_stat_bgwriter`), and the
 * time spent per SQL statement, summed over the job's batches (wall time on each connection, so
 * with two connections the sum exceeds the job's time).
 */
const PROFILE = process.env.ACCRUAL_PROFILE === '1';
const PROFILE_TABLES = ['fund_holdings', 'fund_accruals', 'ledger_accounts', 'ledger_postings', 'ledger_entries'];

/** Statement time per statement text (its first 90 characters, whitespace collapsed), in ms. */
const statementTimes = new Map<string, { count: number; ms: number }>();
if (PROFILE) {
  const query = pg.Client.prototype.query as (...queryArgs: unknown[]) => unknown;
  pg.Client.prototype.query = function profiledQuery(this: pg.Client, ...queryArgs: unknown[]) {
    const [first] = queryArgs;
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    const started = performance.now();
    const result = query.apply(this, queryArgs);
    if (result instanceof Promise) {
      void result.then(
        () => {
          const entry = statementTimes.get(key) ?? { count: 0, ms: 0 };
          entry.count += 1;
          entry.ms += performance.now() - started;
          statementTimes.set(key, entry);
        },
        () => undefined,
      );
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

/** A session holding a temporary physical replication slot (dropped when it ends), or null on PGlite. */
async function openWalSlot(database: Database): Promise<pg.Client | null> {
  const [row] = await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
  const url = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((value) => value?.startsWith('postgres'));
  if (!url || !row) return null;
  const target = new URL(url);
  target.pathname = `/${row.name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  await client.query(`SELECT pg_create_physical_replication_slot('bench_accrual_' || pg_backend_pid(), true, true)`);
  return client;
}

type ProfileState = Record<string, Record<string, string>>;

async function profileState(database: Database): Promise<ProfileState> {
  await database.db.execute(sql`SELECT pg_stat_clear_snapshot()`);
  // Other connections report their counters when idle (at most once a second).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const tables = await queryRows<Record<string, string>>(
    database.db,
    sql`SELECT relname AS name, n_tup_ins::text AS ins, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot,
               pg_total_relation_size(relid)::text AS bytes
        FROM pg_stat_user_tables WHERE relname IN (${sql.join(
          PROFILE_TABLES.map((table) => sql`${table}`),
          sql`, `,
        )})`,
  );
  const [counters] = await queryRows<Record<string, string>>(
    database.db,
    sql`SELECT w.wal_records::text AS wal_records, w.wal_fpi::text AS wal_fpi, w.wal_write::text AS wal_write,
               w.wal_sync::text AS wal_sync, w.wal_buffers_full::text AS wal_buffers_full,
               b.buffers_backend::text AS buffers_backend, b.buffers_backend_fsync::text AS buffers_backend_fsync,
               b.buffers_checkpoint::text AS buffers_checkpoint, b.buffers_clean::text AS buffers_clean
        FROM pg_stat_wal w, pg_stat_bgwriter b`,
  );
  // CPU seconds of this database's backends and of the WAL writer, checkpointer and background
  // writer (/proc, same host): what the job cost, less sensitive to other processes' load than its time.
  const processes = await queryRows<{ pid: number; kind: string }>(
    database.db,
    sql`SELECT pid, CASE WHEN datname = current_database() THEN 'backends' ELSE 'background' END AS kind
        FROM pg_stat_activity WHERE datname = current_database() OR backend_type IN ('walwriter', 'checkpointer', 'background writer')`,
  );
  const cpu: Record<string, string> = {};
  for (const { pid, kind } of processes) cpu[`${kind}:${pid}`] = String(await cpuTicksOf(pid));
  return { ...Object.fromEntries(tables.map((row) => [row.name!, row])), counters: counters ?? {}, cpu };
}

/** utime + stime of a process in clock ticks (1/100 s), 0 when unreadable. */
async function cpuTicksOf(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

async function printProfile(database: Database, before: ProfileState, startLsn: string): Promise<void> {
  const [end] = await queryRows<{ lsn: string }>(database.db, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  const after = await profileState(database);
  const records = await queryRows<{ type: string; count: string; record: string; fpi: string; combined: string }>(
    database.db,
    sql`SELECT "resource_manager/record_type" AS type, count::text, record_size::text AS record, fpi_size::text AS fpi,
               combined_size::text AS combined
        FROM pg_get_wal_stats(${startLsn}::pg_lsn, ${end!.lsn}::pg_lsn, true) WHERE count > 0
        ORDER BY combined_size DESC LIMIT 12`,
  );
  console.log('    WAL by record type: count, record MB, full-page images MB');
  for (const row of records)
    console.log(
      `      ${row.type.padEnd(28)} ${Number(row.count).toLocaleString('en-US').padStart(11)} ${mb(Number(row.record)).padStart(8)} ${mb(Number(row.fpi)).padStart(8)}`,
    );
  const delta = (table: string, column: string) =>
    Number(after[table]?.[column] ?? 0) - Number(before[table]?.[column] ?? 0);
  console.log('    tables: inserted, updated, of which HOT, size after');
  for (const table of PROFILE_TABLES)
    console.log(
      `      ${table.padEnd(18)} ${delta(table, 'ins').toLocaleString('en-US').padStart(10)} ${delta(table, 'upd').toLocaleString('en-US').padStart(10)} ${delta(table, 'hot').toLocaleString('en-US').padStart(10)} ${mb(Number(after[table]?.bytes ?? 0)).padStart(8)}`,
    );
  console.log(
    `    counters: ${Object.keys(after.counters ?? {})
      .map((name) => `${name} ${delta('counters', name)}`)
      .join(', ')}`,
  );
  const cpuSeconds = (kind: string) =>
    Object.entries(after.cpu ?? {})
      .filter(([key]) => key.startsWith(`${kind}:`))
      .reduce((sum, [key, ticks]) => sum + Number(ticks) - Number(before.cpu?.[key] ?? 0), 0) / 100;
  console.log(
    `    CPU: this database's backends ${cpuSeconds('backends').toFixed(2)} s, WAL writer + checkpointer + background writer ${cpuSeconds('background').toFixed(2)} s`,
  );
  console.log('    statements: count, total ms (summed over connections)');
  for (const [text, entry] of [...statementTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
    console.log(`      ${String(entry.count).padStart(5)} ${entry.ms.toFixed(0).padStart(8)}  ${text}`);
}

/** PostgreSQL's WAL position and checkpoint count (cluster-wide: other databases' work counts too). */
async function walState(database: Database): Promise<{ lsn: string; checkpoints: number } | null> {
  if (database.kind !== 'postgres') return null;
  const [row] = await queryRows<{ lsn: string; checkpoints: number }>(
    database.db,
    sql`SELECT pg_current_wal_lsn()::text AS lsn, (checkpoints_timed + checkpoints_req)::int AS checkpoints FROM pg_stat_bgwriter`,
  );
  return row ?? null;
}

async function timed<T>(database: Database, label: string, holdings: number, run: () => Promise<T>): Promise<T> {
  const profileBefore = PROFILE ? await profileState(database) : null;
  // A temporary replication slot keeps the job's WAL until pg_walinspect has read it.
  const slot = profileBefore ? await openWalSlot(database) : null;
  const walBefore = await walState(database);
  const started = performance.now();
  statementTimes.clear();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  let wal = '';
  if (walBefore) {
    const [row] = await queryRows<{ bytes: string; checkpoints: number }>(
      database.db,
      sql`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${walBefore.lsn}::pg_lsn)::text AS bytes,
                 (checkpoints_timed + checkpoints_req)::int - ${walBefore.checkpoints} AS checkpoints FROM pg_stat_bgwriter`,
    );
    wal = `   WAL ${mb(Number(row?.bytes ?? 0))}, ${row?.checkpoints ?? 0} checkpoint(s) (cluster-wide)`;
  }
  console.log(
    `  ${label.padEnd(26)} ${seconds.toFixed(2).padStart(7)} s   ${Math.round(holdings / seconds)
      .toLocaleString('en-US')
      .padStart(9)} holdings/s   peak RSS ${mb(peakRssBytes)}${wal}`,
  );
  if (profileBefore && walBefore) await printProfile(database, profileBefore, walBefore.lsn);
  await slot?.end();
  return result;
}

async function bench(database: Database, label: string, holdings: number): Promise<void> {
  peakRssBytes = process.memoryUsage().rss;
  const isPostgres = database.kind === 'postgres';
  const connections = isPostgres ? Number(args.connections ?? FUND_PAYOUT_CONNECTIONS_POSTGRES) : 1;
  const accrualConnections = isPostgres ? Number(args['accrual-connections'] ?? FUND_ACCRUAL_CONNECTIONS_POSTGRES) : 1;
  console.log(
    `${label}: ${holdings.toLocaleString('en-US')} current-fund holdings, batches of ${args.batch}, accrual on ${accrualConnections} and payout on ${connections} connection(s)`,
  );
  console.log(
    `  run as ${process.env[BUNDLED_ENV] ? 'an esbuild bundle (node)' : 'TypeScript (tsx)'}; resident memory before the work ${mb(peakRssBytes)}`,
  );
  await database.migrate(findMigrationsDir());
  if (PROFILE && isPostgres) await database.db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_walinspect`);
  const clock = { now: () => new Date('2026-02-02T00:00:05+08:00') };
  const funds = createFundsService({
    db: database.db,
    clock,
    calendar: getHongKongCalendar(),
    bankAccounts: { findBankAccount: async () => null },
    par: { isAtPar: async () => true },
    identity: { assertNotFrozen: async () => {} },
    notifier: {
      orderPlaced: async () => {},
      fixedMatured: async () => {},
      wireCredited: async () => {},
      wireDecided: async () => {},
    },
    receivingAccount: DEFAULT_RECEIVING_ACCOUNT,
    log: { info: () => {}, warn: (detail, message) => console.warn(message, detail) },
  });
  await funds.createProduct(CURRENT_PRODUCT_SEED);
  await load(database, holdings);
  if (args.keep) return;
  const batchSize = Number(args.batch);

  const entriesBefore = await entryCount(database);
  const accrual = await timed(database, 'accrual of 2026-01-31', holdings, () =>
    funds.accrueDay(database.db, '2026-01-31', { batchSize, connections: accrualConnections }),
  );
  const entriesAfterAccrual = await entryCount(database);
  const rerun = await timed(database, 'rerun of 2026-01-31', holdings, () =>
    funds.accrueDay(database.db, '2026-01-31', { batchSize, connections: accrualConnections }),
  );
  const entriesAfterRerun = await entryCount(database);
  const payout = await timed(database, 'payout of 2026-02', holdings, () =>
    funds.runPayout(database.db, { batchSize, connections }),
  );
  const entriesAfterPayout = await entryCount(database);
  console.log(
    `  accrual: ${accrual.holdingCount.toLocaleString('en-US')} holdings, ${accrual.totalMinor} cents, ${entriesAfterAccrual - entriesBefore} entries` +
      ` | rerun: ${rerun.holdingCount} holdings, ${entriesAfterRerun - entriesAfterAccrual} entries` +
      ` | payout: ${payout?.holdingCount.toLocaleString('en-US')} holdings, ${payout?.totalMinor} cents, ${entriesAfterPayout - entriesAfterRerun} entries`,
  );
  if (rerun.holdingCount !== 0 || entriesAfterRerun !== entriesAfterAccrual) throw new Error('the rerun accrued again');
  if (payout?.totalMinor !== accrual.totalMinor) throw new Error('the payout differs from the accrual');
}

async function main(): Promise<void> {
  if (args.only !== 'postgres') {
    const memory = await openDatabase({ kind: 'memory' });
    try {
      await bench(memory, 'PGlite (in memory)', Number(args.holdings));
    } finally {
      await memory.close();
    }
  }
  if (args.only === 'pglite') return;
  const postgresUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) =>
    url?.startsWith('postgres'),
  );
  if (!postgresUrl) {
    console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL=postgres://… to include it)');
    return;
  }
  const name = `meridian_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 4 });
  try {
    await bench(database, 'PostgreSQL', Number(args['pg-holdings']));
  } finally {
    await database.close();
    if (args.keep) console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}

if (args.runner === 'bundle' && !process.env[BUNDLED_ENV]) process.exitCode = await runBundled();
else if (args.runner !== 'bundle' && args.runner !== 'tsx')
  throw new Error(`--runner: bundle or tsx, not ${args.runner}`);
else await main();
