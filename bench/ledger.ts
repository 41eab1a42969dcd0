/**
 * `npm run bench:ledger`: throughput and latency of the ledger's posting function, beside a minimal
 * raw-SQL transfer (two conditional UPDATEs in one transaction) on the same database in the same
 * run, with 10,000 spread accounts and with 10 hot accounts. Runs on an in-memory PGlite, and on
 * PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL (postgres://…) is set: a scratch database
 * `meridian_bench_<pid>` is created there and dropped afterwards.
 *
 *   npm run bench:ledger [-- --ops 2000 --concurrency 16] [--url postgres://…] [--skip-memory]
 *   npm run bench:ledger -- --url postgres://… --compare-sync standby1 [--skip-memory]
 *
 * `--url` names the PostgreSQL server (instead of the environment). `--compare-sync NAME` measures
 * ledger transfers on it with synchronous replication on (`synchronous_standby_names = NAME`, which
 * must be a connected standby's application_name) and off, alternating four rounds in one run, and
 * leaves the setting as it found it (scripts/cluster.sh, docs/scale.md "Synchronous replication").
 *
 * On PostgreSQL it then runs the database function alone under pgbench (`./ledger-pgbench.ts`),
 * beside pgr0ss/pgledger when a checkout of it is given:
 *
 *   npm run bench:ledger [-- --pgbench-seconds 20] [--pgbench-rounds 3] [--pgbench-warmup-seconds S]
 *                        [--pgbench-only] [--pgledger <checkout dir>]   (or PGLEDGER_DIR=<checkout dir>)
 *
 * (a warm-up round of each function first, not counted, as long as a counted one unless
 * `--pgbench-warmup-seconds` says otherwise; then the counted rounds, docs/ledger.md "Benchmark").
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { postEntry } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { transfer, userAccount } from '../apps/server/src/modules/ledger/ledger.types.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';
import { queryRows } from '../apps/server/src/platform/db/rows.ts';
import { runLedgerPgbench } from './ledger-pgbench.ts';

const FUNDING_MINOR = 1_000_000_000_000n;

export interface Figures {
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  refused: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Run `op(i)` `count` times with `concurrency` workers; latency per op in ms. */
export async function measure(
  count: number,
  concurrency: number,
  op: (i: number) => Promise<boolean>,
): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        if (!(await op(i))) refused += 1;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSecond: count / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    refused,
  };
}

/** Fund `accounts` users set-wise (one balanced entry) and the raw table with the same balances. */
export async function prepare(database: Database, accounts: number, tag: string): Promise<void> {
  const { db } = database;
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS bench_raw_accounts (id bigint PRIMARY KEY, balance_minor numeric(38,0) NOT NULL CHECK (balance_minor >= 0))`,
  );
  await db.execute(sql`TRUNCATE bench_raw_accounts`);
  await db.execute(
    sql`INSERT INTO bench_raw_accounts SELECT g, ${FUNDING_MINOR.toString()}::numeric FROM generate_series(1, ${accounts}) g`,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, balance_minor, is_negative_allowed)
      SELECT 'user', ${tag} || g, 'USER_AVAILABLE', 'USDT', ${FUNDING_MINOR.toString()}::numeric, false FROM generate_series(1, ${accounts}) g`);
    await tx.execute(sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, balance_minor, is_negative_allowed)
      VALUES ('platform', 'platform', 'PLATFORM_HOT_WALLET', 'USDT', 0, true) ON CONFLICT DO NOTHING`);
    await tx.execute(
      sql`INSERT INTO ledger_entries (kind, reference, idempotency_key, request_hash) VALUES ('DEPOSIT', 'bench', ${`bench-fund-${tag}`}, 'bench')`,
    );
    await tx.execute(sql`INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
      SELECT (SELECT id FROM ledger_entries WHERE idempotency_key = ${`bench-fund-${tag}`}), id, 'USDT', ${FUNDING_MINOR.toString()}::numeric FROM ledger_accounts WHERE owner_id LIKE ${`${tag}%`}`);
    const total = (FUNDING_MINOR * BigInt(accounts)).toString();
    await tx.execute(sql`INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
      SELECT (SELECT id FROM ledger_entries WHERE idempotency_key = ${`bench-fund-${tag}`}), id, 'USDT', -${total}::numeric FROM ledger_accounts WHERE owner_kind = 'platform' AND type = 'PLATFORM_HOT_WALLET' AND asset = 'USDT'`);
    await tx.execute(
      sql`UPDATE ledger_accounts SET balance_minor = balance_minor - ${total}::numeric WHERE owner_kind = 'platform' AND type = 'PLATFORM_HOT_WALLET' AND asset = 'USDT'`,
    );
  });
  // After a bulk load, refresh the planner's statistics (as the maintenance job and autovacuum do),
  // so that plans cached while the tables were small are made again for their new size.
  await db.execute(sql`ANALYZE ledger_accounts, ledger_entries, ledger_postings, bench_raw_accounts`);
}

function pair(i: number, accounts: number): [number, number] {
  // A deterministic spread of pairs (Knuth multiplicative hash), never the same account twice.
  const a = ((i * 2654435761) >>> 0) % accounts;
  const b = (a + 1 + (((i * 40503) >>> 0) % (accounts - 1))) % accounts;
  return [a + 1, b + 1];
}

/**
 * The ledger's in-process transfer rate: `ops` one-minor-unit transfers between the `accounts` users
 * funded by `prepare(database, accounts, tag)`, through `postEntry`. `npm run bench:swap` compares
 * its HTTP swaps with this figure on the same database.
 */
export async function measureLedgerTransfers(
  database: Database,
  tag: string,
  accounts: number,
  ops: number,
  concurrency: number,
): Promise<Figures> {
  return measure(ops, concurrency, async (i) => {
    const [from, to] = pair(i, accounts);
    await postEntry(database.db, {
      kind: 'INTERNAL_TRANSFER',
      reference: 'bench',
      idempotencyKey: `${tag}${i}`,
      postings: transfer(
        userAccount(`${tag}${from}`, 'USER_AVAILABLE', 'USDT'),
        userAccount(`${tag}${to}`, 'USER_AVAILABLE', 'USDT'),
        1n,
      ),
    });
    return true;
  });
}

async function runScenario(
  database: Database,
  label: string,
  accounts: number,
  ops: number,
  concurrency: number,
): Promise<void> {
  const tag = `bench-${label}-${accounts}-`;
  await prepare(database, accounts, tag);
  const { db } = database;
  const raw = await measure(ops, concurrency, async (i) => {
    const [from, to] = pair(i, accounts);
    const [first, second] = from < to ? [from, to] : [to, from];
    const deltas = new Map([
      [from, '-1'],
      [to, '1'],
    ]);
    return db.transaction(async (tx) => {
      for (const id of [first, second]) {
        const result: unknown = await tx.execute(
          sql`UPDATE bench_raw_accounts SET balance_minor = balance_minor + ${deltas.get(id)}::numeric WHERE id = ${id} AND balance_minor + ${deltas.get(id)}::numeric >= 0`,
        );
        void result;
      }
      return true;
    });
  });
  const ledger = await measureLedgerTransfers(database, tag, accounts, ops, concurrency);
  const row = (name: string, f: Figures, postingsPerOp: number) =>
    `  ${name.padEnd(7)} ${f.opsPerSecond.toFixed(0).padStart(7)} transfers/s ${(f.opsPerSecond * postingsPerOp).toFixed(0).padStart(7)} postings/s  p50 ${f.p50Ms.toFixed(2).padStart(7)} ms  p99 ${f.p99Ms.toFixed(2).padStart(7)} ms`;
  console.log(
    `${database.kind} · ${accounts.toLocaleString('en-US')} ${accounts <= 10 ? 'hot' : 'spread'} accounts · ${ops} transfers · concurrency ${concurrency}`,
  );
  console.log(row('raw SQL', raw, 2));
  console.log(row('ledger', ledger, 2));
  console.log(`  ratio ledger/raw ${(ledger.opsPerSecond / raw.opsPerSecond).toFixed(2)} (target ≥ 0.70)`);
}

async function benchDatabase(database: Database, ops: number, concurrency: number): Promise<void> {
  await database.migrate(findMigrationsDir());
  await runScenario(database, 'spread', 10_000, ops, concurrency);
  await runScenario(database, 'hot', 10, ops, concurrency);
}

/** Set `synchronous_standby_names` on the server and wait until a new session sees it. */
async function setSyncStandby(admin: pg.Client, url: string, names: string): Promise<void> {
  await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '${names.replaceAll("'", "''")}'`);
  await admin.query('SELECT pg_reload_conf()');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    const { rows } = await probe.query<{ synchronous_standby_names: string }>('SHOW synchronous_standby_names');
    await probe.end();
    if (rows[0]?.synchronous_standby_names === names) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`synchronous_standby_names did not become '${names}'`);
}

/**
 * Ledger transfers with synchronous replication on and off on the server of `database`, in four
 * alternating rounds of `ops` (async, sync, async, sync) over 10,000 spread accounts; prints each
 * round and the ratio of the sync rounds to the async rounds.
 */
async function compareSync(
  database: Database,
  adminUrl: string,
  standbyName: string,
  ops: number,
  concurrency: number,
): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ synchronous_standby_names: string }>('SHOW synchronous_standby_names');
  const original = rows[0]?.synchronous_standby_names ?? '';
  const accounts = 10_000;
  const tag = 'bench-sync-';
  await prepare(database, accounts, tag);
  const totals = { async: [] as Figures[], sync: [] as Figures[] };
  try {
    for (const [round, mode] of (['async', 'sync', 'async', 'sync'] as const).entries()) {
      await setSyncStandby(admin, adminUrl, mode === 'sync' ? standbyName : '');
      const figures = await measure(ops, concurrency, async (i) => {
        const [from, to] = pair(i + round * ops, accounts);
        await postEntry(database.db, {
          kind: 'INTERNAL_TRANSFER',
          reference: 'bench',
          idempotencyKey: `${tag}r${round}-${i}`,
          postings: transfer(
            userAccount(`${tag}${from}`, 'USER_AVAILABLE', 'USDT'),
            userAccount(`${tag}${to}`, 'USER_AVAILABLE', 'USDT'),
            1n,
          ),
        });
        return true;
      });
      totals[mode].push(figures);
      console.log(
        `  round ${round + 1} ${mode.padEnd(5)} ${figures.opsPerSecond.toFixed(0).padStart(6)} transfers/s  p50 ${figures.p50Ms.toFixed(2).padStart(7)} ms  p99 ${figures.p99Ms.toFixed(2).padStart(7)} ms`,
      );
    }
  } finally {
    await setSyncStandby(admin, adminUrl, original);
    await admin.end();
  }
  const [size] = await queryRows<{ postings: string; entries: string; postings_bytes: string; entries_bytes: string }>(
    database.db,
    sql`SELECT (SELECT count(*) FROM ledger_postings)::text AS postings, (SELECT count(*) FROM ledger_entries)::text AS entries,
               pg_total_relation_size('ledger_postings')::text AS postings_bytes, pg_total_relation_size('ledger_entries')::text AS entries_bytes`,
  );
  if (size)
    console.log(
      `  sizes (table + indexes): ${size.postings} postings ${(Number(size.postings_bytes) / Number(size.postings)).toFixed(0)} B each, ` +
        `${size.entries} entries ${(Number(size.entries_bytes) / Number(size.entries)).toFixed(0)} B each`,
    );
  const mean = (list: Figures[], pick: (f: Figures) => number) =>
    list.reduce((sum, f) => sum + pick(f), 0) / list.length;
  console.log(
    `  sync/async: throughput ${(mean(totals.sync, (f) => f.opsPerSecond) / mean(totals.async, (f) => f.opsPerSecond)).toFixed(2)}, ` +
      `p50 ${(mean(totals.sync, (f) => f.p50Ms) / mean(totals.async, (f) => f.p50Ms)).toFixed(2)}, ` +
      `p99 ${(mean(totals.sync, (f) => f.p99Ms) / mean(totals.async, (f) => f.p99Ms)).toFixed(2)} (means of two rounds each)`,
  );
}

/** The pgbench figures of `ledger_post` (and pgledger's, given a checkout), 20 clients on 2 threads. */
async function runPgbench(
  postgresUrl: string,
  args: {
    'pgbench-seconds': string;
    'pgbench-rounds': string;
    'pgbench-warmup-seconds'?: string | undefined;
    pgledger?: string | undefined;
  },
): Promise<void> {
  await runLedgerPgbench({
    postgresUrl,
    durationSeconds: Number(args['pgbench-seconds']),
    rounds: Number(args['pgbench-rounds']),
    warmupSeconds: Number(args['pgbench-warmup-seconds'] ?? args['pgbench-seconds']),
    clients: 20,
    threads: 2,
    pgledgerDir: args.pgledger ?? process.env.PGLEDGER_DIR,
    prepare,
  });
}

/** Run the benchmark only when started as `npm run bench:ledger`, not when imported (bench:swap). */
async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      ops: { type: 'string' },
      concurrency: { type: 'string', default: '16' },
      url: { type: 'string' },
      'skip-memory': { type: 'boolean', default: false },
      'compare-sync': { type: 'string' },
      'pgbench-seconds': { type: 'string', default: '20' },
      'pgbench-only': { type: 'boolean', default: false },
      'pgbench-rounds': { type: 'string', default: '3' },
      'pgbench-warmup-seconds': { type: 'string' },
      pgledger: { type: 'string' },
    },
  });
  const CONCURRENCY = Number(args.concurrency);
  const postgresUrl = [args.url, process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) =>
    url?.startsWith('postgres'),
  );
  if (postgresUrl && args['pgbench-only']) {
    await runPgbench(postgresUrl, args);
    return;
  }
  if (!args['skip-memory']) {
    const memory = await openDatabase({ kind: 'memory' });
    try {
      await benchDatabase(memory, Number(args.ops ?? 2000), 1);
    } finally {
      await memory.close();
    }
  }

  if (postgresUrl) {
    const name = `meridian_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: CONCURRENCY });
    try {
      if (args['compare-sync'] === undefined) await benchDatabase(database, Number(args.ops ?? 5000), CONCURRENCY);
      else {
        await database.migrate(findMigrationsDir());
        console.log(
          `postgres · synchronous replication on ('${args['compare-sync']}') and off · concurrency ${CONCURRENCY}`,
        );
        await compareSync(database, postgresUrl, args['compare-sync'], Number(args.ops ?? 2000), CONCURRENCY);
      }
    } finally {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
    if (args['compare-sync'] === undefined) await runPgbench(postgresUrl, args);
  } else {
    console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL=postgres://… to include it)');
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
