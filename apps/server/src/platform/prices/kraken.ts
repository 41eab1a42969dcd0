import { type Clock, systemClock } from '../clock/clock.ts';
import type { HttpSourceOptions } from './binance.ts';
import { fetchJson, type FetchFn, isRecord, PRICE_TEXT_PATTERN } from './http.ts';
import { PriceDecimal, type PriceQuote, type PriceSource, PriceSourceError, type PriceSymbol } from './types.ts';

/** Kraken pairs per coin, as asked (`XBTUSD`); Kraken answers under its own name (`XXBTZUSD`). */
const KRAKEN_PAIRS: Partial<Record<PriceSymbol, string>> = {
  BTC: 'XBTUSD',
  ETH: 'ETHUSD',
  USDT: 'USDTUSD',
  USDC: 'USDCUSD',
};

/**
 * Read the body of `GET /0/public/Ticker?pair=XBTUSD`:
 * `{"error":[],"result":{"XXBTZUSD":{"a":[…],"b":[…],"c":["<last price>","<lot volume>"],…}}}`.
 * The price is the last trade (`c[0]`). Kraken keys the result by its own pair name, so the one
 * entry is taken whatever its key.
 * @throws PriceSourceError kind 'body' when Kraken reports errors or the shape is unexpected.
 */
export function parseKrakenTicker(body: unknown, pair: string): PriceDecimal {
  if (!isRecord(body) || !Array.isArray(body.error))
    throw new PriceSourceError('kraken', 'body', `unexpected ticker body for ${pair}`);
  if (body.error.length > 0)
    throw new PriceSourceError('kraken', 'body', `Kraken error for ${pair}: ${body.error.map(String).join(', ')}`);
  const entries = isRecord(body.result) ? Object.values(body.result) : [];
  const ticker = entries.length === 1 ? entries[0] : undefined;
  const last = isRecord(ticker) && Array.isArray(ticker.c) ? ticker.c[0] : undefined;
  if (typeof last !== 'string' || !PRICE_TEXT_PATTERN.test(last))
    throw new PriceSourceError('kraken', 'body', `no last trade for ${pair}`);
  return new PriceDecimal(last);
}

/** Kraken public ticker (no key): `GET https://api.kraken.com/0/public/Ticker?pair=XBTUSD`. */
export class KrakenSource implements PriceSource {
  readonly name = 'kraken';
  private readonly baseUrl: string;
  private readonly fetchFn: FetchFn;
  private readonly clock: Clock;

  constructor(private readonly options: HttpSourceOptions) {
    this.baseUrl = options.baseUrl ?? 'https://api.kraken.com';
    this.fetchFn = options.fetchFn ?? fetch;
    this.clock = options.clock ?? systemClock;
  }

  supports(symbol: PriceSymbol): boolean {
    return KRAKEN_PAIRS[symbol] !== undefined;
  }

  async quote(symbol: PriceSymbol): Promise<PriceQuote> {
    const pair = KRAKEN_PAIRS[symbol];
    if (!pair) throw new PriceSourceError(this.name, 'unsupported', `no pair for ${symbol}`);
    const body = await fetchJson(
      this.name,
      `${this.baseUrl}/0/public/Ticker?pair=${pair}`,
      this.options.timeoutMs,
      this.fetchFn,
    );
    return { symbol, priceUsd: parseKrakenTicker(body, pair), observedAt: this.clock.now(), source: this.name };
  }
}
