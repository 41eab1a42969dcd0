/**
 * `npm run bench:card-auth`: signed issuer-processor authorisation webhooks over HTTP at
 * a fixed rate, on 10,000 cards and on 10 hot cards, on PGlite and PostgreSQL: decisions/s and the
 * p50/p99 of a decision (from the request's scheduled departure to Meridian's answer). Target: p99
 * ≤ 50 ms at 500 authorisations/s on PostgreSQL, 0 errors.
 *
 * The real app (`buildApp`) listens on a free local port with a known CARD_WEBHOOK_SECRET. The cards
 * are inserted directly (rows of `cards` with bench tokens; the webhook names cards by token, so the
 * sandbox vault is not needed) and each is funded with 1,000.00 EUR in batches of ledger entries
 * (`postEntries`: PLATFORM_CARD_FUNDING → CARD_AVAILABLE), so set-up stays short. Every
 * authorisation is 1.00 EUR: all are approved (the hot cards hold enough for the run).
 *
 *   npm run bench:card-auth [-- --rate 500 --seconds 10 --cards 10000 --hot 10 --skip-pglite --only hot|cards]
 * PostgreSQL when TEST_DATABASE_URL or DATABASE_URL (postgres://…) is set: a scratch database
 * `meridian_bench_card_<pid>` is created there and dropped afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { cards } from '../apps/server/src/modules/cards/cards.tables.ts';
import { ENTRIES_PER_BATCH_MAX, postEntries } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { cardAccount, platformAccount, transfer } from '../apps/server/src/modules/ledger/ledger.types.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';
import type { AuthLoadPlan, AuthLoadResult } from './card-auth-load.ts';
import { startPauseWatch, type PauseWatch } from './lib/pause-watch.ts';
import { startPgWaitSampler } from './lib/pg-waits.ts';
import { watchPgliteSlowCalls } from './lib/pglite-slow.ts';
import { startStallComposition } from './lib/stall-composition.ts';

const SECRET = randomBytes(32).toString('hex');
/** Each card's balance: 1,000.00 EUR. */
const FUNDING_MINOR = 100_000n;

function loadInWorker(plan: AuthLoadPlan): Promise<AuthLoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./card-auth-load.ts', import.meta.url), {
      workerData: plan,
      execArgv: ['--import', 'tsx'],
    });
    worker.once('message', (message: AuthLoadResult) => resolve(message));
    worker.once('error', reject);
  });
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}
const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`;
/**
 * Under `node --cpu-prof`, print a load's start or end on the profile's clock (µs of the monotonic
 * clock, as the profile's `startTime` and samples), so `bench/lib/cpu-profile-stalls.mjs` can cut
 * the profile by load.
 */
const markForProfile = (what: string) => {
  if (process.execArgv.some((arg) => arg.startsWith('--cpu-prof')))
    console.log(`profile mark ${what} ${process.hrtime.bigint() / 1000n}`);
};

/** Insert `count` active EUR cards with bench tokens and fund each; returns their tokens. */
async function seedCards(database: Database, count: number, tag: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_unused, k) => {
      const token = `bench_${tag}_${start + k}`;
      tokens.push(token);
      return {
        userId: randomUUID(),
        kind: 'VIRTUAL',
        network: 'VISA',
        currency: 'EUR',
        status: 'ACTIVE',
        processorToken: token,
        first4: '4000',
        last4: String(start + k)
          .padStart(4, '0')
          .slice(-4),
        expiryMonth: 12,
        expiryYear: 2030,
        cardholderName: 'BENCH',
        limitPerTransactionMinor: 500_000n,
        limitDailyMinor: 100_000_000n,
        limitMonthlyMinor: 1_000_000_000n,
      };
    });
    const inserted = await database.db.insert(cards).values(rows).returning({ id: cards.id });
    for (let offset = 0; offset < inserted.length; offset += ENTRIES_PER_BATCH_MAX) {
      const batch = inserted.slice(offset, offset + ENTRIES_PER_BATCH_MAX).map(({ id }) => ({
        kind: 'CARD_TOPUP' as const,
        reference: `card:${id}`,
        idempotencyKey: `bench-fund:${id}`,
        postings: transfer(
          platformAccount('PLATFORM_CARD_FUNDING', 'EUR'),
          cardAccount(id, 'CARD_AVAILABLE', 'EUR'),
          FUNDING_MINOR,
        ),
      }));
      const results = await postEntries(database.db, batch);
      const failed = results.find((item) => item instanceof Error);
      if (failed) throw failed;
    }
  }
  return tokens;
}

/** Start timing SQL functions from zero (`--function-stats`; on PostgreSQL, this session's backend and the others'). */
async function resetFunctionStats(database: Database): Promise<void> {
  // `ALTER DATABASE CURRENT` is PostgreSQL 16+; the name is read for 15.
  if (database.kind === 'postgres')
    await database.db.execute(
      sql`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET track_functions = ''all''', current_database()); END $$`,
    );
  else await database.db.execute(sql`SET track_functions = 'all'`);
  await database.db.execute(sql`SELECT pg_stat_reset()`);
}

/** The SQL functions' time since `resetFunctionStats`, per decision: self and total µs, costliest first. */
async function functionStatsLine(database: Database, decisions: number): Promise<string> {
  await database.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  const { rows } = (await database.db.execute(sql`
    SELECT funcname AS name, calls::int AS calls, self_time AS self, total_time AS total
    FROM pg_stat_user_functions ORDER BY self_time DESC LIMIT 8`)) as unknown as {
    rows: { name: string; calls: number; self: number; total: number }[];
  };
  const perDecisionUs = (ms: number) => ((ms * 1000) / Math.max(1, decisions)).toFixed(0);
  return `SQL functions per decision (self / total µs, calls): ${rows
    .map((row) => `${row.name} ${perDecisionUs(row.self)} / ${perDecisionUs(row.total)} (${row.calls})`)
    .join(', ')}`;
}

/**
 * PGlite: the tables past the statistics job's rule (`platform/db/maintenance.ts`: at least 8 pages
 * and more than twice the pages their statistics saw) at the end of a load, i.e. still planned as
 * when they were smaller.
 */
async function grownTablesLine(database: Database): Promise<string> {
  const { rows } = (await database.db.execute(sql`
    SELECT name, pages, seen_pages FROM (
      SELECT c.relname AS name, pg_relation_size(c.oid) / 8192 AS pages, c.relpages AS seen_pages
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = 'public' OFFSET 0) sizes
    WHERE pages >= 8 AND pages > seen_pages * 2 ORDER BY name`)) as unknown as {
    rows: { name: string; pages: number; seen_pages: number }[];
  };
  return `tables past the statistics job's rule (pages / pages its statistics saw): ${
    rows.map((row) => `${row.name} ${row.pages}/${row.seen_pages}`).join(', ') || 'none'
  }`;
}

async function benchDatabase(
  database: Database,
  options: {
    rate: number;
    seconds: number;
    cards: number;
    hot: number;
    only: string | undefined;
    functionStats: boolean;
  },
  /** The scratch database's URL on PostgreSQL: its backends' wait events are sampled during each load. */
  postgresUrl?: string,
): Promise<void> {
  await database.migrate(findMigrationsDir());
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-card-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    CARD_WEBHOOK_SECRET: SECRET,
    JOBS_ENABLED: 'false',
  });
  const app = await buildApp({ config, database, sessionSecret: randomBytes(32).toString('hex'), logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const setupStartedMs = performance.now();
    const tokens = await seedCards(database, options.cards, `${process.pid}_${database.kind}`);
    console.log(
      `${database.kind} · ${options.cards.toLocaleString('en-US')} cards inserted and funded in ${((performance.now() - setupStartedMs) / 1000).toFixed(1)} s`,
    );
    await database.db.execute(sql`ANALYZE`);
    const count = options.rate * options.seconds;
    const pgliteSlow = watchPgliteSlowCalls(database, { recordCalls: true });
    // Warm-up (JIT, connections, plans): 2 s at the rate, not recorded.
    await loadInWorker({
      baseUrl,
      secret: SECRET,
      tokens,
      ratePerSecond: options.rate,
      count: options.rate * 2,
      amount: '1.00',
      connections: 64,
    });
    pgliteSlow.take();
    for (const [label, set] of [
      [`${options.cards.toLocaleString('en-US')} cards`, tokens],
      [`${options.hot} hot cards`, tokens.slice(0, options.hot)],
    ] as const) {
      if (options.only && (options.only === 'hot') !== label.includes('hot')) continue;
      if (options.functionStats) await resetFunctionStats(database);
      const pauses: PauseWatch = startPauseWatch();
      pgliteSlow.takeCalls();
      const composition = startStallComposition(app.server, pauses);
      const waits = postgresUrl ? await startPgWaitSampler(postgresUrl, database.poolStats) : undefined;
      const cpuBefore = process.cpuUsage();
      markForProfile(`start ${database.kind} ${label}`);
      const load = await loadInWorker({
        baseUrl,
        secret: SECRET,
        tokens: [...set],
        ratePerSecond: options.rate,
        count,
        amount: '1.00',
        connections: 64,
      });
      markForProfile(`end ${database.kind} ${label}`);
      const waitLine = await waits?.stop(load.latenciesMs.length / (load.elapsedMs / 1000), load.latenciesMs.length);
      const errors = Object.values(load.errors).reduce((sum, n) => sum + n, 0);
      const p99 = percentile(load.latenciesMs, 0.99);
      console.log(`  ${label} · ${load.sent} authorisations offered at ${options.rate}/s`);
      console.log(
        `    decisions/s ${(load.latenciesMs.length / (load.elapsedMs / 1000)).toFixed(0).padStart(6)}   p50 ${ms(percentile(load.latenciesMs, 0.5))}  p99 ${ms(p99)}  max ${ms(Math.max(...load.latenciesMs))}`,
      );
      console.log(`    ${pauses.explainTail(load.departuresEpochMs, load.latenciesMs, p99)}`);
      console.log(`    ${composition.report(pgliteSlow.takeCalls())}`);
      if (waitLine) console.log(`    ${waitLine}`);
      const cpu = process.cpuUsage(cpuBefore);
      console.log(
        `    bench process CPU (server and load threads) per 1,000 decisions ${(((cpu.user + cpu.system) / 1000 / Math.max(1, load.latenciesMs.length)) * 1000).toFixed(0)} ms`,
      );
      if (options.functionStats) console.log(`    ${await functionStatsLine(database, load.latenciesMs.length)}`);
      if (database.kind !== 'postgres') console.log(`    ${await grownTablesLine(database)}`);
      const slowLine = pgliteSlow.take();
      if (slowLine) console.log(`    ${slowLine}`);
      console.log(
        `    decisions ${JSON.stringify(load.decisions)}   errors ${errors}${errors ? ` ${JSON.stringify(load.errors)}` : ''}   (target p99 ≤ 50 ms, 0 errors: ${p99 <= 50 && errors === 0 ? 'met' : 'not met'})`,
      );
    }
    pgliteSlow.stop();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      rate: { type: 'string', default: '500' },
      seconds: { type: 'string', default: '10' },
      cards: { type: 'string', default: '10000' },
      hot: { type: 'string', default: '10' },
      'skip-pglite': { type: 'boolean', default: false },
      /** Run one load only: `hot` or `cards` (the spread one). */
      only: { type: 'string' },
      /** Time the SQL functions (`track_functions = all`) and print each load's costliest, per decision. */
      'function-stats': { type: 'boolean', default: false },
    },
  });
  const options = {
    rate: Number(args.rate),
    seconds: Number(args.seconds),
    cards: Number(args.cards),
    hot: Number(args.hot),
    only: args.only,
    functionStats: args['function-stats'],
  };
  if (!args['skip-pglite']) {
    const memory = await openDatabase({ kind: 'memory' });
    try {
      await benchDatabase(memory, options);
    } finally {
      await memory.close();
    }
  }
  const postgresUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) =>
    url?.startsWith('postgres'),
  );
  if (!postgresUrl) {
    console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL=postgres://… to include it)');
    return;
  }
  const name = `meridian_bench_card_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 32 });
  try {
    await benchDatabase(database, options, url.toString());
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
