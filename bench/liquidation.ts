/**
 * `npm run bench:liquidation`: the loans' liquidation engine at scale. Loads
 * N open loans set-based (100,000 on PGlite, in a scratch data directory removed afterwards;
 * 1,000,000 on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is postgres://…, in a scratch
 * database `meridian_bench_<pid>_<runner>` dropped afterwards), one per user, each 1 BTC of collateral (its
 * USER_LOAN_COLLATERAL ledger account loaded alongside) and a debt that spreads the liquidation
 * prices evenly over 10,000–40,000 USD. Then a price drop to 39,700 makes 1 % of them
 * liquidatable (and about 23 % cross a margin-call level), and it measures:
 *   1. candidate selection — the engine's query (one batch of 250), median of 20 runs, with its
 *      EXPLAIN (ANALYZE) plan: an index range scan of `loans_liquidation_price_open_idx`;
 *   2. one whole price event in a SEPARATE server process (`liquidation-server.ts`): protection
 *      rules, liquidation of every candidate (batches of 250, at most 10,000), margin-call alerts
 *      (pages of 250, at most 10,000), one transaction, with the real notices service writing the
 *      messages; then the delivery of every announced message by that process. Its peak resident
 *      memory is the engine's: this process (the data generator) is measured apart. Besides the
 *      wall time it prints the CPU time of the server process and of the PostgreSQL backend during
 *      the event (steadier than the wall time on a loaded machine); LIQUIDATION_PROFILE=1 also
 *      prints every statement's summed time (see `liquidation-server.ts`).
 * Targets: selection ≤ 5 ms, 10,000 liquidations ≤ 10 s on PostgreSQL, the server ≤ 300 MB RSS.
 *
 * The server process runs as production runs it (`--runner bundle`, the default: bundled by esbuild
 * like `apps/server/build.mjs`, started with plain `node`), or as TypeScript through tsx
 * (`--runner tsx`); `--runner tsx,bundle` runs the whole bench once per runner, each on a freshly
 * loaded database. `--db-prefix` names the scratch PostgreSQL database (`<prefix>_<pid>_<runner>`).
 *
 *   npm run bench:liquidation [-- --loans 100000 --pg-loans 1000000 --only pglite|postgres
 *     --runner bundle|tsx|tsx,bundle --db-prefix meridian_bench]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createLoansService } from '../apps/server/src/modules/loans/loans.service.ts';
import { type Database, type DatabaseTarget, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';
import { queryRows } from '../apps/server/src/platform/db/rows.ts';
import { PriceDecimal } from '../apps/server/src/platform/prices/types.ts';
import { bundleLikeServer } from './lib/bundle-like-server.ts';

const { values: args } = parseArgs({
  options: {
    loans: { type: 'string', default: '100000' },
    'pg-loans': { type: 'string', default: '1000000' },
    only: { type: 'string' },
    runner: { type: 'string', default: 'bundle' },
    'db-prefix': { type: 'string', default: 'meridian_bench' },
  },
});
/**
 * How the server process runs (`--runner`, comma-separated to compare; each runner gets its own
 * freshly loaded database): `bundle` = as in production (`npm start` runs the esbuild bundle
 * `apps/server/dist/main.js` with plain `node`), `tsx` = TypeScript transpiled on the fly.
 */
const RUNNERS = ['bundle', 'tsx'] as const;
type Runner = (typeof RUNNERS)[number];
const runners = (args.runner ?? 'bundle').split(',').map((name) => {
  if (!RUNNERS.includes(name as Runner)) throw new Error(`--runner: bundle or tsx, not ${name}`);
  return name as Runner;
});

let peakRssBytes = 0;
const sampler = setInterval(() => {
  peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
}, 20);
sampler.unref();
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

/** The price after the drop: liquidation prices are spread over [10,000, 40,000), so 1 % are ≥ it. */
const DROP_PRICE = '39700';

async function load(database: Database, loans: number): Promise<void> {
  const started = performance.now();
  // Liquidation price lp = 10,000 + 30,000 × (i mod 1,000,000) ÷ 1,000,000 + a few cents; debt = lp × 0.9 (1 BTC).
  await database.db.execute(sql`
    INSERT INTO loans (user_id, status, loan_coin, collateral_minor, principal_minor, outstanding_principal_minor,
      term_days, annual_rate_bps, interest_minor, liquidation_price, borrowed_at, repayment_date, idempotency_key, request_hash)
    SELECT md5('bench-' || i)::uuid, 3, 'USDT', 100000000, d.debt, d.debt, 30, 1200, 0,
      ceil(d.debt * 100 * 10000 / (100000000::numeric * 9000) * 1e8) / 1e8,
      '2026-11-20T04:00:00Z', '2027-12-20', 'bench-' || i, 'bench'
    FROM generate_series(1, ${loans}) AS i,
      LATERAL (SELECT ((10000 + 30000 * ((i::bigint * 7919) % ${loans})::numeric / ${loans}) * 900000)::numeric(38,0) AS debt) AS d`);
  await database.db.execute(sql`
    INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, balance_minor, is_negative_allowed)
    SELECT 'user', md5('bench-' || i)::uuid::text, 'USER_LOAN_COLLATERAL', 'BTC', 100000000, false
    FROM generate_series(1, ${loans}) AS i`);
  await database.db.execute(sql`ANALYZE loans`);
  await database.db.execute(sql`ANALYZE ledger_accounts`);
  console.log(
    `  loaded ${loans.toLocaleString('en-US')} loans in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** What `liquidation-server.ts` prints (one JSON line). */
interface ServerResult {
  report: { partial: number; full: number; alerts: number; rearmed: number; alarm: string | null };
  eventMs: number;
  eventCpuMs: number;
  backendCpuMs: number | null;
  notifyMs: number;
  deliveryMs: number;
  messages: number;
  baselineRssMb: number;
  eventPeakRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
}

/**
 * Bundle `liquidation-server.ts` as production bundles the server (`bundleLikeServer`). Returns the
 * bundle's path; the caller removes its directory.
 */
async function bundleServer(): Promise<string> {
  const { outfile } = await bundleLikeServer(path.join(import.meta.dirname, 'liquidation-server.ts'), 'liquidation');
  return outfile;
}

/** Run one price event in a separate Node process on `target` (closed here first) and read its figures. */
async function runServer(target: DatabaseTarget, runner: Runner): Promise<ServerResult> {
  const bundled = runner === 'bundle' ? await bundleServer() : null;
  const script = bundled ?? path.join(import.meta.dirname, 'liquidation-server.ts');
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...(bundled ? [] : ['--import', 'tsx']), '--expose-gc', script, JSON.stringify(target), DROP_PRICE],
      { cwd: import.meta.dirname, maxBuffer: 16 * 1_048_576 },
    );
    if (stderr.trim()) console.error(stderr.trim());
    const line = stdout.trim().split('\n').at(-1) ?? '';
    return JSON.parse(line) as ServerResult;
  } finally {
    if (bundled) await rm(path.dirname(bundled), { recursive: true, force: true });
  }
}

/** Load, time the candidate query, then close this connection and run the event in the server process. */
async function bench(
  database: Database,
  target: DatabaseTarget,
  label: string,
  loans: number,
  runner: Runner,
): Promise<void> {
  peakRssBytes = process.memoryUsage().rss;
  console.log(
    `${label}: ${loans.toLocaleString('en-US')} open loans, price drop to ${DROP_PRICE}, server run as ${runner === 'bundle' ? 'an esbuild bundle (node)' : 'TypeScript (tsx)'}`,
  );
  await database.migrate(findMigrationsDir());
  const service = createLoansService({
    db: database.db,
    btcPrice: async () => ({ priceUsd: new PriceDecimal('50000'), observedAt: new Date(), sources: ['bench'] }),
    assertNotFrozen: async () => {},
    notifyMany: async () => [],
    now: () => new Date(),
    log: { info: () => {}, warn: () => {}, error: (detail, message) => console.error(message, detail) },
  });
  await service.seed();
  await load(database, loans);
  const candidateQuery = sql`SELECT id FROM loans WHERE status IN (3, 4) AND liquidation_price >= ${DROP_PRICE}::numeric ORDER BY liquidation_price DESC LIMIT 250`;
  const [expected] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM loans WHERE status IN (3, 4) AND liquidation_price >= ${DROP_PRICE}::numeric`,
  );
  const timings: number[] = [];
  for (let run = 0; run < 20; run += 1) {
    const started = performance.now();
    await database.db.execute(candidateQuery);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  console.log(`  candidates: ${expected?.n.toLocaleString('en-US')} loans with liquidation price ≥ ${DROP_PRICE}`);
  console.log(
    `  candidate selection (250 rows): median ${timings[10]!.toFixed(2)} ms, best ${timings[0]!.toFixed(2)} ms`,
  );
  const plan = await queryRows<{ 'QUERY PLAN': string }>(
    database.db,
    sql`EXPLAIN (ANALYZE, COSTS OFF) ${candidateQuery}`,
  );
  for (const line of plan) console.log(`    ${line['QUERY PLAN']}`);
  console.log(`  generator process (this one): peak RSS ${mb(peakRssBytes)}`);
  await database.close();
  const result = await runServer(target, runner);
  const done = result.report.partial + result.report.full;
  const seconds = result.eventMs / 1000;
  console.log(
    `  server process: price event ${seconds.toFixed(2)} s — liquidated ${done.toLocaleString('en-US')} (partial ${result.report.partial}, full ${result.report.full}) = ${Math.round(done / seconds).toLocaleString('en-US')} liquidations/s, margin calls ${result.report.alerts.toLocaleString('en-US')}; of the event, writing messages ${(result.notifyMs / 1000).toFixed(2)} s`,
  );
  console.log(
    `  CPU time during the event (steadier than the wall time on a loaded machine): server process ${(result.eventCpuMs / 1000).toFixed(2)} s, PostgreSQL backend ${result.backendCpuMs === null ? 'n/a' : `${(result.backendCpuMs / 1000).toFixed(2)} s`}`,
  );
  console.log(
    `  server process: ${result.messages.toLocaleString('en-US')} messages delivered ${(result.deliveryMs / 1000).toFixed(2)} s after commit; RSS ${result.baselineRssMb} MB before the event, peak ${result.eventPeakRssMb} MB up to the commit, ${result.peakRssMb} MB up to the last delivery (heap peak ${result.peakHeapMb} MB)`,
  );
  const check = await openDatabase(target);
  try {
    const [left] = await queryRows<{ n: number }>(
      check.db,
      sql`SELECT count(*)::int AS n FROM loans WHERE status IN (3, 4) AND liquidation_price >= ${DROP_PRICE}::numeric`,
    );
    console.log(`  left liquidatable after the event: ${left?.n}`);
  } finally {
    await check.close();
  }
}

async function main(): Promise<void> {
  for (const runner of runners) {
    if (args.only !== 'postgres') {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'meridian-bench-liquidation-'));
      const target: DatabaseTarget = { kind: 'pglite', dataDir };
      try {
        await bench(await openDatabase(target), target, 'PGlite (data directory)', Number(args.loans), runner);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
    if (args.only === 'pglite') continue;
    const postgresUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) =>
      url?.startsWith('postgres'),
    );
    if (!postgresUrl) {
      console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL=postgres://… to include it)');
      continue;
    }
    const name = `${args['db-prefix']}_${process.pid}_${runner}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const target: DatabaseTarget = { kind: 'postgres', url: url.toString(), poolMax: 4 };
    try {
      await bench(await openDatabase(target), target, 'PostgreSQL', Number(args['pg-loans']), runner);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  }
}

await main();
