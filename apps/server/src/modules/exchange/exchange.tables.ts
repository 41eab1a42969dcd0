import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

/**
 * Firm quotes, kept on the server: a quote is executed at most once (`status` moves from
 * OPEN to EXECUTED in one conditional UPDATE) and only before `expires_at`. An executed quote is
 * also the swap's record (its history row); the ledger entry that moved the coins is the one with
 * idempotency key `swap:<id>` (unique), so no column links them.
 */
export const exchangeQuotes = pgTable(
  'exchange_quotes',
  {
    id: uuid('id').primaryKey(),
    userId: text('user_id').notNull(),
    /** SWAP: quoted, then executed by `POST exchange/swap`; FLASH: quoted and executed in one call. */
    kind: text('kind', { enum: ['SWAP', 'FLASH'] }).notNull(),
    fromCoin: text('from_coin').notNull(),
    toCoin: text('to_coin').notNull(),
    side: text('side', { enum: ['from', 'to'] }).notNull(),
    fromAmountMinor: minorAmount('from_amount_minor').notNull(),
    toAmountMinor: minorAmount('to_amount_minor').notNull(),
    /** Units of `to` per one `from` after the spread, exact. */
    rate: numeric('rate').notNull(),
    spreadBps: integer('spread_bps').notNull(),
    /** USD prices the quote was made from (audit). */
    fromPriceUsd: numeric('from_price_usd').notNull(),
    toPriceUsd: numeric('to_price_usd').notNull(),
    status: text('status', { enum: ['OPEN', 'EXECUTED'] })
      .notNull()
      .default('OPEN'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    executedAt: timestamp('executed_at', { withTimezone: true, mode: 'date' }),
    /**
     * Retired: the request's hash lives in the one idempotency store (`idempotency_keys`,
     * docs/decisions/0009-idempotency.md); flash rows now hold `REQUEST_HASH_IN_STORE`, older flash
     * rows their SHA-256, SWAP quotes null.
     */
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (table) => [
    index('exchange_quotes_user_executed_idx').on(table.userId, table.status, table.executedAt),
    // The pruning job's scan: unused quotes by expiry.
    index('exchange_quotes_open_expiry_idx')
      .on(table.expiresAt)
      .where(sql`status = 'OPEN'`),
  ],
);

/**
 * Operator settings per pair, overriding the defaults of `exchange.pairs.ts`: switched off, its
 * spread, or its order limits (in minor units of the `from` coin). A pair without a row uses the
 * defaults.
 */
export const exchangePairs = pgTable('exchange_pairs', {
  /** `FROM/TO`, e.g. `USDT/USDE`. */
  pair: text('pair').primaryKey(),
  isEnabled: boolean('is_enabled').notNull().default(true),
  spreadBps: integer('spread_bps'),
  fromMinMinor: minorAmount('from_min_minor'),
  fromMaxMinor: minorAmount('from_max_minor'),
  createdAt: createdAt(),
});
