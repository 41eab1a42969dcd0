import Decimal from 'decimal.js';
import { DomainError } from '../http/errors.ts';

/**
 * Exact decimals for prices. A price is a rate (USD per one coin), never an amount of money, so it
 * is kept as an exact decimal rather than minor units; 40 significant digits leave room for any
 * median or interpolation without rounding an exchange's own digits away.
 */
export const PriceDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
/** An exact decimal price (an instance of `PriceDecimal`). */
export type PriceDecimal = Decimal;

/** The coins the platform prices, in USD. */
export type PriceSymbol = 'BTC' | 'ETH' | 'USDT' | 'USDC' | 'USDE';
export const PRICE_SYMBOLS: readonly PriceSymbol[] = ['BTC', 'ETH', 'USDT', 'USDC', 'USDE'];
/** Coins pegged to the US dollar (tracked at 1 USD, with a band alarm). */
export const STABLECOIN_SYMBOLS: readonly PriceSymbol[] = ['USDT', 'USDC', 'USDE'];

/** One source's price of one coin. */
export interface PriceQuote {
  symbol: PriceSymbol;
  /** USD per one coin, exact. */
  priceUsd: PriceDecimal;
  /** When the source observed the price (for HTTP tickers without a timestamp: when the answer arrived). */
  observedAt: Date;
  /** The source's name (`binance`, `coinbase`, `kraken`, `replay`). */
  source: string;
}

/**
 * A source of current prices (an exchange ticker or the replay). `quote` rejects with a
 * `PriceSourceError` when the source cannot answer (network, HTTP status, unexpected body).
 */
export interface PriceSource {
  readonly name: string;
  /** Whether this source can price `symbol` at all (Binance has no USDT/USD market, for example). */
  supports(symbol: PriceSymbol): boolean;
  quote(symbol: PriceSymbol): Promise<PriceQuote>;
}

/** A source that can also tell the price at a past instant (the replay), used to backfill history. */
export interface HistoricalPriceSource extends PriceSource {
  quoteAt(symbol: PriceSymbol, at: Date): PriceQuote;
}

export function isHistoricalPriceSource(source: PriceSource): source is HistoricalPriceSource {
  return typeof (source as Partial<HistoricalPriceSource>).quoteAt === 'function';
}

/** Why a source could not answer. `kind` is a bounded label for metrics. */
export class PriceSourceError extends Error {
  constructor(
    readonly source: string,
    readonly kind: 'network' | 'timeout' | 'http' | 'body' | 'unsupported',
    message: string,
  ) {
    super(`${source}: ${message}`);
    this.name = 'PriceSourceError';
  }
}

/** Why one source was left out of an aggregate. */
export interface ExcludedSource {
  source: string;
  reason: 'error' | 'stale' | 'deviation';
  detail: string;
}

/**
 * No fresh, agreeing source could price the coin: the platform refuses to quote rather than use a
 * stale price. Answered as business code 134 PRICE_UNAVAILABLE (HTTP 503).
 */
export class PriceUnavailableError extends DomainError {
  constructor(
    readonly symbol: PriceSymbol,
    readonly excluded: readonly ExcludedSource[],
  ) {
    super('PRICE_UNAVAILABLE');
    this.message = `no fresh price for ${symbol}: ${excluded.map((e) => `${e.source} ${e.reason} (${e.detail})`).join('; ') || 'no source supports it'}`;
    this.name = 'PriceUnavailableError';
  }
}
