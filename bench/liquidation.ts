/**
 * `npm run bench:liquidation`: the loans' liquidation engine at scale (issue 18 "Benchmark"). Loads
 * N open loans set-based (100,000 on an in-memory PGlite; 1,000,000 on PostgreSQL when
 * TEST_DATABASE_URL or DATABASE_URL is postgres://…, in a scratch database `meridian_bench_<pid>`
 * dropped afterwards), one per user, each 1 BTC of collateral (its USER_LOAN_COLLATERAL ledger
 * account loaded alongside) and a debt that spreads the liquidation prices evenly over
 * 10,000–40,000 USD. Then a price drop to 39,700 makes 1 % of them liquidatable, and it times:
 *   1. candidate selection — the engine's query (one batch of 250), median of 20 runs, with its
 *      EXPLAIN (ANALYZE) plan: an index range scan of `loans_liquidation_price_open_idx`;
 *   2. the liquidation of every candidate through the engine (`liquidateCandidates`, one
 *      transaction, batches of 250, each loan one ledger entry + receipt), as liquidations/s;
 * and prints the peak resident memory of this process. Messages go to a no-op notifier (the
 * notices module's insert is not part of this measurement). Targets: selection ≤ 5 ms, 10,000
 * liquidations ≤ 10 s on PostgreSQL, ≤ 300 MB.
 *
 *   npm run bench:liquidation [-- --loans 100000 --pg-loans 1000000 --only pglite|postgres]
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadSettings } from '../apps/server/src/modules/loans/loans.internal.ts';
import { createLoansService } from '../apps/server/src/modules/loans/loans.service.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';
import { queryRows } from '../apps/server/src/platform/db/rows.ts';
import { PriceDecimal } from '../apps/server/src/platform/prices/types.ts';

const { values: args } = parseArgs({
  options: {
    loans: { type: 'string', default: '100000' },
    'pg-loans': { type: 'string', default: '1000000' },
    only: { type: 'string' },
  },
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

async function bench(database: Database, label: string, loans: number): Promise<void> {
  peakRssBytes = process.memoryUsage().rss;
  console.log(`${label}: ${loans.toLocaleString('en-US')} open loans, price drop to ${DROP_PRICE}`);
  await database.migrate(findMigrationsDir());
  let price = '50000';
  const service = createLoansService({
    db: database.db,
    btcPrice: async () => ({ priceUsd: new PriceDecimal(price), observedAt: new Date(), sources: ['bench'] }),
    assertNotFrozen: async () => {},
    notifyMany: async () => [],
    now: () => new Date(),
    log: { info: () => {}, warn: () => {}, error: (detail, message) => console.error(message, detail) },
  });
  await service.seed();
  await load(database, loans);
  price = DROP_PRICE;
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
  const settingsPrice = { priceUsd: new PriceDecimal(DROP_PRICE), observedAt: new Date(), sources: ['bench'] };
  const started = performance.now();
  const counts = await database.db.transaction(async (tx) =>
    service.engine.liquidateCandidates(tx, await loadSettings(tx), settingsPrice, 'bench-event'),
  );
  const seconds = (performance.now() - started) / 1000;
  const done = counts.partial + counts.full;
  console.log(
    `  liquidated ${done.toLocaleString('en-US')} (partial ${counts.partial}, full ${counts.full}) in ${seconds.toFixed(2)} s = ${Math.round(done / seconds).toLocaleString('en-US')} liquidations/s   peak RSS ${mb(peakRssBytes)}`,
  );
  const [left] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM loans WHERE status IN (3, 4) AND liquidation_price >= ${DROP_PRICE}::numeric`,
  );
  console.log(`  left liquidatable after the event: ${left?.n}`);
}

async function main(): Promise<void> {
  if (args.only !== 'postgres') {
    const memory = await openDatabase({ kind: 'memory' });
    try {
      await bench(memory, 'PGlite (in memory)', Number(args.loans));
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
    await bench(database, 'PostgreSQL', Number(args['pg-loans']));
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}

await main();
