import { randomUUID } from 'node:crypto';
import { and, eq, gt, not, sql } from 'drizzle-orm';
import { openDatabase } from './src/platform/db/client.ts';
import { findMigrationsDir } from './src/platform/db/migrate.ts';
import { exchangePairs, exchangeQuotes } from './src/modules/exchange/exchange.tables.ts';
import { pgArrayLiteral } from './src/platform/db/pg-array.ts';
const d = await openDatabase({ kind: 'memory' });
await d.migrate(findMigrationsDir());
const pg = d.pglite!;
const now = new Date();
const build = (db: any) => {
  const isPairSwitchedOff = sql`EXISTS (SELECT 1 FROM ${exchangePairs} WHERE ${exchangePairs.pair} = ${exchangeQuotes.fromCoin} || '/' || ${exchangeQuotes.toCoin} AND NOT ${exchangePairs.isEnabled})`;
  const isRequested = sql`(${exchangeQuotes.id}, ${exchangeQuotes.userId}) IN (SELECT * FROM unnest(${pgArrayLiteral([randomUUID()])}::uuid[], ${pgArrayLiteral(['u1'])}::text[]))`;
  return db.update(exchangeQuotes).set({ status: 'EXECUTED', executedAt: now }).where(and(isRequested, eq(exchangeQuotes.status, 'OPEN'), gt(exchangeQuotes.expiresAt, now), not(isPairSwitchedOff))).returning();
};
async function time(label: string, n: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, ((performance.now() - t0) / n * 1000).toFixed(0), 'µs');
}
await time('drizzle build only', 2000, async () => build(d.db).toSQL());
await time('drizzle claim', 1000, async () => build(d.db));
const q = build(d.db).toSQL();
await time('raw pglite claim', 1000, async () => pg.query(q.sql, q.params));
console.log(q.sql, q.params);
await pg.exec(`CREATE FUNCTION claim_test(ids uuid[], users text[], at timestamptz) RETURNS SETOF exchange_quotes LANGUAGE plpgsql AS $f$ BEGIN RETURN QUERY update "exchange_quotes" set "status" = 'EXECUTED', "executed_at" = at where (("exchange_quotes"."id", "exchange_quotes"."user_id") IN (SELECT * FROM unnest(ids, users)) and "exchange_quotes"."status" = 'OPEN' and "exchange_quotes"."expires_at" > at and not EXISTS (SELECT 1 FROM "exchange_pairs" WHERE "exchange_pairs"."pair" = "exchange_quotes"."from_coin" || '/' || "exchange_quotes"."to_coin" AND NOT "exchange_pairs"."is_enabled")) returning *; END $f$`);
await time('plpgsql claim', 1000, async () => pg.query(`SELECT * FROM claim_test($1, $2, $3)`, [q.params[2], q.params[3], now.toISOString()]));
await time('select 1', 2000, async () => pg.query('select 1'));
await time('select $1', 2000, async () => pg.query('select $1::int', [1]));
await time('select * from exchange_quotes where id = $1', 2000, async () => pg.query('select * from exchange_quotes where id = $1', [randomUUID()]));
await d.close();
