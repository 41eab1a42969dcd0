/**
 * The exchange's quotes: pair settings (read through a short per-process cache for pricing), the
 * pricing of a quote at the live USD prices, and the stored quote rows (docs/exchange.md).
 */

import type { ExchangeQuote, ParsedExchangeRateQuery } from '@meridian/contracts/exchange';
import { QUOTE_TTL_MS } from '@meridian/contracts/exchange';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import { ASSET_PRECISION, toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import type { MarketPrices } from '../market/market.service.ts';
import { defaultSpreadBps, ORDER_LIMITS_MINOR, pairKey } from './exchange.pairs.ts';
import { exchangePairs, exchangeQuotes } from './exchange.tables.ts';

/** Significant digits of a quoted rate; the rate is cut (never rounded up) to them. */
const RATE_SIGNIFICANT_DIGITS = 12;
/** Basis points in one. */
export const BPS = 10_000;

/** A stored quote row (`exchange_quotes`). */
export type QuoteRow = typeof exchangeQuotes.$inferSelect;
/** A quote about to be stored: every column the INSERT writes. */
export type NewQuoteRow = Omit<QuoteRow, 'status' | 'executedAt'>;

/**
 * How long a process reuses a pair's settings for pricing quotes. Executing a swap always reads the
 * live setting inside its transaction, so a pair switched off on another instance stops swaps at
 * once and can at most still be quoted for this long.
 */
const PAIR_SETTINGS_TTL_MS = 1_000;

/** A pair's effective settings (the defaults with the operator's overrides): switch, spread (basis points), `from` limits (minor units of the `from` coin). */
export interface PairSettings {
  isEnabled: boolean;
  spreadBps: number;
  fromMinMinor: bigint;
  fromMaxMinor: bigint;
}

/** A pair's settings with its key (`FROM/TO`) and coins (operators' list). */
export interface PairSettingsRow extends PairSettings {
  pair: string;
  from: MarketCoinCode;
  to: MarketCoinCode;
}

/** A priced but not yet stored quote. */
export interface PricedQuote {
  from: MarketCoinCode;
  to: MarketCoinCode;
  side: 'from' | 'to';
  fromAmountMinor: bigint;
  toAmountMinor: bigint;
  rate: PriceDecimal;
  spreadBps: number;
  fromPriceUsd: PriceDecimal;
  toPriceUsd: PriceDecimal;
}

/** `amount` minor units of `coin` as an exact decimal of whole coins. */
function toCoins(amountMinor: bigint, coin: MarketCoinCode): PriceDecimal {
  return new PriceDecimal(toDecimalString(amountMinor, coin));
}

/** Whole coins to minor units, rounding as named (never a float). */
function toMinor(coins: PriceDecimal, coin: MarketCoinCode, rounding: 'down' | 'up'): bigint {
  const scaled = coins.times(new PriceDecimal(10).pow(ASSET_PRECISION[coin]));
  return BigInt((rounding === 'down' ? scaled.floor() : scaled.ceil()).toFixed(0));
}

/** A pair's settings from `exchange_pairs`, with the defaults of `exchange.pairs.ts` where none is stored. */
export async function readPairSettings(db: DbOrTx, from: MarketCoinCode, to: MarketCoinCode): Promise<PairSettings> {
  const [row] = await db
    .select()
    .from(exchangePairs)
    .where(eq(exchangePairs.pair, pairKey(from, to)));
  const limits = ORDER_LIMITS_MINOR[from];
  return {
    isEnabled: row?.isEnabled ?? true,
    spreadBps: row?.spreadBps ?? defaultSpreadBps(from, to),
    fromMinMinor: row?.fromMinMinor ?? limits.minMinor,
    fromMaxMinor: row?.fromMaxMinor ?? limits.maxMinor,
  };
}

/**
 * The pair settings of one process: read, cached for pricing (`PAIR_SETTINGS_TTL_MS`), listed and
 * changed by operators (a change forgets the cached settings, so quotes use it at once).
 */
export function createPairSettingsStore(db: Db) {
  /** Pair settings read recently, for pricing; at most one per pair. */
  const cache = new Map<string, { settings: PairSettings; readAtMs: number }>();

  /** The pair's settings, reused for `PAIR_SETTINGS_TTL_MS` (quotes are priced on them). */
  async function cached(from: MarketCoinCode, to: MarketCoinCode): Promise<PairSettings> {
    const key = pairKey(from, to);
    const hit = cache.get(key);
    const nowMs = performance.now();
    if (hit && nowMs - hit.readAtMs < PAIR_SETTINGS_TTL_MS) return hit.settings;
    const settings = await readPairSettings(db, from, to);
    cache.set(key, { settings, readAtMs: nowMs });
    return settings;
  }

  /** Every pair of the market coins (`FROM/TO`, from ≠ to) with its settings as they apply. */
  async function list(executor: DbOrTx): Promise<PairSettingsRow[]> {
    const rows: PairSettingsRow[] = [];
    for (const from of MARKET_COIN_CODES)
      for (const to of MARKET_COIN_CODES)
        if (from !== to)
          rows.push({ pair: pairKey(from, to), from, to, ...(await readPairSettings(executor, from, to)) });
    return rows;
  }

  /** Change a pair's settings; fields left out stay. Answers the settings as they now apply. */
  async function update(
    from: MarketCoinCode,
    to: MarketCoinCode,
    patch: Partial<PairSettings>,
    executor: DbOrTx,
  ): Promise<PairSettingsRow> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    cache.delete(pairKey(from, to));
    await executor
      .insert(exchangePairs)
      .values({ pair: pairKey(from, to), ...set })
      .onConflictDoUpdate({
        target: exchangePairs.pair,
        set: Object.keys(set).length > 0 ? set : { pair: pairKey(from, to) },
      });
    cache.delete(pairKey(from, to));
    return { pair: pairKey(from, to), from, to, ...(await readPairSettings(executor, from, to)) };
  }

  /** Switch a pair on or off, or change its spread (operators and tests). */
  async function configure(
    from: MarketCoinCode,
    to: MarketCoinCode,
    settings: { isEnabled?: boolean; spreadBps?: number },
  ): Promise<void> {
    cache.delete(pairKey(from, to));
    await db
      .insert(exchangePairs)
      .values({ pair: pairKey(from, to), isEnabled: settings.isEnabled ?? true, spreadBps: settings.spreadBps ?? null })
      .onConflictDoUpdate({
        target: exchangePairs.pair,
        set: {
          ...(settings.isEnabled !== undefined ? { isEnabled: settings.isEnabled } : {}),
          ...(settings.spreadBps !== undefined ? { spreadBps: settings.spreadBps } : {}),
        },
      });
  }

  return { cached, list, update, configure };
}

/** The pair settings of one process (`createPairSettingsStore`). */
export type PairSettingsStore = ReturnType<typeof createPairSettingsStore>;

/**
 * Price `request` at the live USD prices: rate = price(from) / price(to) × (1 − spread), cut to 12
 * significant digits; the other side's amount follows from the rate (received: rounded down;
 * paid: rounded up). The amount (`amountMinor`, of the side's coin) was read and checked by the contract.
 * @throws DomainError SERVICE_UNAVAILABLE (pair off), AMOUNT_BELOW_MIN, AMOUNT_ABOVE_MAX, PRICE_UNAVAILABLE.
 */
export async function priceQuote(
  pairs: PairSettingsStore,
  prices: MarketPrices,
  request: Pick<ParsedExchangeRateQuery, 'from' | 'to' | 'amountMinor' | 'side'>,
): Promise<PricedQuote> {
  const { from, to, side } = request;
  // The contracts refuse it at the edge too; in-process callers get the same answer.
  if (from === to) throw new FieldError('to', 'validation.sameCoin');
  const pair = await pairs.cached(from, to);
  if (!pair.isEnabled) throw new DomainError('SERVICE_UNAVAILABLE');
  const { amountMinor } = request;
  const [fromPrice, toPrice] = await Promise.all([prices.usdPrice(from), prices.usdPrice(to)]);
  const mid = fromPrice.priceUsd.div(toPrice.priceUsd);
  const rate = mid
    .times(new PriceDecimal(BPS - pair.spreadBps).div(BPS))
    .toSignificantDigits(RATE_SIGNIFICANT_DIGITS, PriceDecimal.ROUND_DOWN);
  const fromAmountMinor = side === 'from' ? amountMinor : toMinor(toCoins(amountMinor, to).div(rate), from, 'up');
  const toAmountMinor = side === 'to' ? amountMinor : toMinor(toCoins(amountMinor, from).times(rate), to, 'down');
  if (fromAmountMinor < pair.fromMinMinor || toAmountMinor <= 0n) {
    throw new DomainError('AMOUNT_BELOW_MIN', {
      amount: formatMoney(pair.fromMinMinor, from, { unit: 'none', rounding: 'up' }),
      unit: from,
    });
  }
  if (fromAmountMinor > pair.fromMaxMinor) {
    throw new DomainError('AMOUNT_ABOVE_MAX', {
      amount: formatMoney(pair.fromMaxMinor, from, { unit: 'none', rounding: 'down' }),
      unit: from,
    });
  }
  return {
    from,
    to,
    side,
    fromAmountMinor,
    toAmountMinor,
    rate,
    spreadBps: pair.spreadBps,
    fromPriceUsd: fromPrice.priceUsd,
    toPriceUsd: toPrice.priceUsd,
  };
}

/** A stored quote as the API answers it (amounts as decimal strings of whole coins). */
export function toQuote(row: QuoteRow): ExchangeQuote {
  return {
    quoteId: row.id,
    from: row.fromCoin as MarketCoinCode,
    to: row.toCoin as MarketCoinCode,
    side: row.side,
    rate: new PriceDecimal(row.rate).toFixed(),
    spreadBps: row.spreadBps,
    fromAmount: toDecimalString(row.fromAmountMinor, row.fromCoin as MarketCoinCode),
    toAmount: toDecimalString(row.toAmountMinor, row.toCoin as MarketCoinCode),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The stored row of a new quote for `userId`, valid `QUOTE_TTL_MS` from `now`. */
export function quoteRow(
  now: Date,
  userId: string,
  kind: 'SWAP' | 'FLASH',
  priced: PricedQuote,
  id: string,
): NewQuoteRow {
  return {
    id,
    userId,
    kind,
    fromCoin: priced.from,
    toCoin: priced.to,
    side: priced.side,
    fromAmountMinor: priced.fromAmountMinor,
    toAmountMinor: priced.toAmountMinor,
    rate: priced.rate.toFixed(),
    spreadBps: priced.spreadBps,
    fromPriceUsd: priced.fromPriceUsd.toFixed(),
    toPriceUsd: priced.toPriceUsd.toFixed(),
    expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
    requestHash: null,
    createdAt: now,
  };
}

/**
 * Store a batch of quotes with one INSERT over `unnest` (one parameter per column, whatever the
 * batch size, so the statement text never changes); answers the rows as stored, in order.
 */
export async function insertQuotes(db: DbOrTx, rows: readonly NewQuoteRow[]): Promise<QuoteRow[]> {
  const column = (pick: (row: NewQuoteRow) => string | bigint | number) => pgArrayLiteral(rows.map(pick));
  await db.execute(sql`
    INSERT INTO ${exchangeQuotes} (id, user_id, kind, from_coin, to_coin, side, from_amount_minor, to_amount_minor, rate, spread_bps, from_price_usd, to_price_usd, expires_at, created_at)
    SELECT * FROM unnest(
      ${column((r) => r.id)}::uuid[], ${column((r) => r.userId)}::text[], ${column((r) => r.kind)}::text[], ${column((r) => r.fromCoin)}::text[],
      ${column((r) => r.toCoin)}::text[], ${column((r) => r.side)}::text[], ${column((r) => r.fromAmountMinor)}::numeric[], ${column((r) => r.toAmountMinor)}::numeric[],
      ${column((r) => r.rate)}::numeric[], ${column((r) => r.spreadBps)}::int[], ${column((r) => r.fromPriceUsd)}::numeric[], ${column((r) => r.toPriceUsd)}::numeric[],
      ${column((r) => r.expiresAt.toISOString())}::timestamptz[], ${column((r) => r.createdAt.toISOString())}::timestamptz[])`);
  return rows.map((row) => ({ ...row, status: 'OPEN', executedAt: null }));
}
