/**
 * `npm run bench:swap-claim`: the swap claim (`exchange_claim_quotes`, docs/exchange.md "The freeze
 * read inline") against the same claim calling `identity_is_frozen` for each row (its form of
 * migration 0067, created here under another name), interleaved round by round on one database so
 * that both see the same machine: each round stores a batch of quotes as `GET exchange/rate` does
 * (`insertQuotes`) and claims it in a transaction as a swap batch does. Prints the median and p90
 * of claim + transaction per batch size. PGlite in memory, and PostgreSQL when TEST_DATABASE_URL or
 * DATABASE_URL (postgres://…) is set (a scratch database, dropped afterwards).
 *
 *   npm run bench:swap-claim [-- --rounds 1200]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { insertQuotes, type NewQuoteRow } from '../apps/server/src/modules/exchange/exchange.pricing.ts';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.ts';
import { findMigrationsDir } from '../apps/server/src/platform/db/migrate.ts';

/** Users whose quotes are claimed (as bench:swap's 128). */
const USERS = 128;
/** Batch sizes measured: a lone swap, a typical batch at concurrency 32, a large one. */
const BATCH_SIZES = [2, 14, 28];

/** The claim of migration 0067: the freeze through `identity_is_frozen`, one call per row. */
const CLAIM_VIA_FUNCTION = `
CREATE OR REPLACE FUNCTION bench_claim_via_identity_is_frozen(p_quote_ids uuid[], p_user_ids text[], p_at timestamptz)
RETURNS SETOF exchange_quotes LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $$
BEGIN
  RETURN QUERY
    UPDATE exchange_quotes q SET status = 'EXECUTED', executed_at = p_at
    FROM unnest(p_quote_ids, p_user_ids) AS r(id, user_id)
    WHERE q.id = r.id AND q.user_id = r.user_id AND q.status = 'OPEN' AND q.expires_at > p_at
      AND NOT EXISTS (SELECT 1 FROM exchange_pairs p WHERE p.pair = q.from_coin || '/' || q.to_coin AND NOT p.is_enabled)
      AND NOT identity_is_frozen(
        CASE WHEN r.user_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN r.user_id::uuid END
      )
    RETURNING q.*;
END;
$$`;

const CLAIMS = { inline: 'exchange_claim_quotes', 'via identity_is_frozen': 'bench_claim_via_identity_is_frozen' };

function quantile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** A batch of `size` open quotes of the bench users, created at `now`. */
function quoteBatch(users: string[], size: number, round: number, now: Date): NewQuoteRow[] {
  return Array.from({ length: size }, (_unused, index) => ({
    id: randomUUID(),
    userId: users[(round * size + index) % users.length]!,
    kind: 'SWAP',
    fromCoin: 'USDT',
    toCoin: 'USDE',
    side: 'from',
    fromAmountMinor: 10_000_000n,
    toAmountMinor: 9_990_000n,
    rate: '0.999',
    spreadBps: 10,
    fromPriceUsd: '1',
    toPriceUsd: '1',
    expiresAt: new Date(now.getTime() + 10_000),
    requestHash: null,
    createdAt: now,
  }));
}

async function benchClaims(database: Database, rounds: number): Promise<void> {
  const { db } = database;
  await database.migrate(findMigrationsDir());
  await db.execute(sql.raw(CLAIM_VIA_FUNCTION));
  const users = Array.from({ length: USERS }, () => randomUUID());
  await db.execute(
    sql`INSERT INTO users (id, email, password_hash) SELECT u, u::text || '@bench.example', 'x' FROM unnest(${`{${users.join(',')}}`}::uuid[]) AS u`,
  );
  const timesMs = new Map<string, number[]>();
  const startMs = Date.parse('2030-01-01T00:00:00Z');
  for (let round = 0; round < rounds; round += 1) {
    const [name, fn] = Object.entries(CLAIMS)[round % 2]!;
    const size = BATCH_SIZES[Math.floor(round / 2) % BATCH_SIZES.length]!;
    const now = new Date(startMs + round * 10);
    const rows = await insertQuotes(db, quoteBatch(users, size, round, now));
    const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
    const t0 = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT * FROM ${sql.identifier(fn)}(${`{${sorted.map((r) => r.id).join(',')}}`}::uuid[], ${`{${sorted.map((r) => r.userId).join(',')}}`}::text[], ${now.toISOString()}::timestamptz)`,
      );
    });
    // The first third warms caches and plans; the statistics job has analyzed the quotes by then.
    if (round < rounds / 3) continue;
    const key = `${name}, ${size} quotes`;
    timesMs.set(key, [...(timesMs.get(key) ?? []), performance.now() - t0]);
  }
  for (const [key, values] of [...timesMs.entries()].sort()) {
    console.log(
      `  ${database.kind} · ${key.padEnd(36)} claim + transaction median ${quantile(values, 0.5).toFixed(2)} ms  p90 ${quantile(values, 0.9).toFixed(2)} ms  (${values.length})`,
    );
  }
}

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '1200' } } });
const rounds = Number(args.rounds);
const memory = await openDatabase({ kind: 'memory' });
try {
  await benchClaims(memory, rounds);
} finally {
  await memory.close();
}
const postgresUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) =>
  url?.startsWith('postgres'),
);
if (postgresUrl) {
  const name = `meridian_bench_swap_claim_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 2 });
  try {
    await benchClaims(database, rounds);
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
