import { type Clock, systemClock } from '../clock/clock.ts';
import { fetchJson, type FetchFn, isRecord, PRICE_TEXT_PATTERN } from './http.ts';
import { PriceDecimal, type PriceQuote, type PriceSource, PriceSourceError, type PriceSymbol } from './types.ts';

/**
 * Binance spot markets used per coin. Binance has no USD market: BTC and ETH are read against
 * USDT and taken as USD (the stablecoin band alarm watches USDT itself; a USDT move larger than
 * the deviation limit makes this source disagree with the others and drop out).
 */
const BINANCE_SYMBOLS: Partial<Record<PriceSymbol, string>> = { BTC: 'BTCUSDT', ETH: 'ETHUSDT' };

/**
 * Read the body of `GET /api/v3/ticker/price?symbol=BTCUSDT` (`{"symbol":"BTCUSDT","price":"…"}`).
 * @returns the price as an exact decimal.
 * @throws PriceSourceError kind 'body' when the shape or the symbol is not the one asked for.
 */
export function parseBinanceTicker(body: unknown, marketSymbol: string): PriceDecimal {
  if (
    !isRecord(body) ||
    body.symbol !== marketSymbol ||
    typeof body.price !== 'string' ||
    !PRICE_TEXT_PATTERN.test(body.price)
  ) {
    throw new PriceSourceError('binance', 'body', `unexpected ticker body for ${marketSymbol}`);
  }
  return new PriceDecimal(body.price);
}

/** Options of an HTTP exchange source. */
export interface HttpSourceOptions {
  /** Base URL, without a trailing slash; tests point it anywhere. */
  baseUrl?: string;
  /** Give up on one request after this long. */
  timeoutMs: number;
  fetchFn?: FetchFn;
  clock?: Clock;
}

/** Binance public ticker (no key): `GET https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT`. */
export class BinanceSource implements PriceSource {
  readonly name = 'binance';
  private readonly baseUrl: string;
  private readonly fetchFn: FetchFn;
  private readonly clock: Clock;

  constructor(private readonly options: HttpSourceOptions) {
    this.baseUrl = options.baseUrl ?? 'https://api.binance.com';
    this.fetchFn = options.fetchFn ?? fetch;
    this.clock = options.clock ?? systemClock;
  }

  supports(symbol: PriceSymbol): boolean {
    return BINANCE_SYMBOLS[symbol] !== undefined;
  }

  async quote(symbol: PriceSymbol): Promise<PriceQuote> {
    const market = BINANCE_SYMBOLS[symbol];
    if (!market) throw new PriceSourceError(this.name, 'unsupported', `no market for ${symbol}`);
    const body = await fetchJson(
      this.name,
      `${this.baseUrl}/api/v3/ticker/price?symbol=${market}`,
      this.options.timeoutMs,
      this.fetchFn,
    );
    // The ticker carries no timestamp: the price is as old as the answer.
    return { symbol, priceUsd: parseBinanceTicker(body, market), observedAt: this.clock.now(), source: this.name };
  }
}
