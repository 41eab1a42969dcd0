import { type Clock, systemClock } from '../clock/clock.ts';
import type { HttpSourceOptions } from './binance.ts';
import { fetchJson, type FetchFn, isRecord, PRICE_TEXT_PATTERN } from './http.ts';
import { PriceDecimal, type PriceQuote, type PriceSource, PriceSourceError, type PriceSymbol } from './types.ts';

/** Coinbase currency pairs per coin (USDC-USD is not used: Coinbase books USDC 1:1 with USD by definition). */
const COINBASE_PAIRS: Partial<Record<PriceSymbol, string>> = { BTC: 'BTC-USD', ETH: 'ETH-USD', USDT: 'USDT-USD' };

/**
 * Read the body of `GET /v2/prices/BTC-USD/spot` (`{"data":{"amount":"…","base":"BTC","currency":"USD"}}`).
 * @throws PriceSourceError kind 'body' when the shape, base or currency is not the one asked for.
 */
export function parseCoinbaseSpot(body: unknown, pair: string): PriceDecimal {
  const [base, currency] = pair.split('-');
  const data = isRecord(body) ? body.data : undefined;
  if (
    !isRecord(data) ||
    typeof data.amount !== 'string' ||
    !PRICE_TEXT_PATTERN.test(data.amount) ||
    data.currency !== currency ||
    (data.base !== undefined && data.base !== base)
  ) {
    throw new PriceSourceError('coinbase', 'body', `unexpected spot body for ${pair}`);
  }
  return new PriceDecimal(data.amount);
}

/** Coinbase public spot price (no key): `GET https://api.coinbase.com/v2/prices/BTC-USD/spot`. */
export class CoinbaseSource implements PriceSource {
  readonly name = 'coinbase';
  private readonly baseUrl: string;
  private readonly fetchFn: FetchFn;
  private readonly clock: Clock;

  constructor(private readonly options: HttpSourceOptions) {
    this.baseUrl = options.baseUrl ?? 'https://api.coinbase.com';
    this.fetchFn = options.fetchFn ?? fetch;
    this.clock = options.clock ?? systemClock;
  }

  supports(symbol: PriceSymbol): boolean {
    return COINBASE_PAIRS[symbol] !== undefined;
  }

  async quote(symbol: PriceSymbol): Promise<PriceQuote> {
    const pair = COINBASE_PAIRS[symbol];
    if (!pair) throw new PriceSourceError(this.name, 'unsupported', `no pair for ${symbol}`);
    const body = await fetchJson(
      this.name,
      `${this.baseUrl}/v2/prices/${pair}/spot`,
      this.options.timeoutMs,
      this.fetchFn,
    );
    return { symbol, priceUsd: parseCoinbaseSpot(body, pair), observedAt: this.clock.now(), source: this.name };
  }
}
