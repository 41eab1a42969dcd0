import { describe, expect, it } from 'vitest';
import { BinanceSource, parseBinanceTicker } from './binance.ts';
import { CoinbaseSource, parseCoinbaseSpot } from './coinbase.ts';
import { KrakenSource, parseKrakenTicker } from './kraken.ts';
import { fakeFetch, fixture } from './test-fixtures.ts';
import { PriceSourceError } from './types.ts';

const at = new Date('2026-11-20T23:00:00Z');
const clock = { now: () => at };

describe('exchange ticker parsers on recorded answers', () => {
  it('reads the Binance ticker price exactly, keeping every digit', () => {
    expect(parseBinanceTicker(JSON.parse(fixture('binance-ticker-price-BTCUSDT.json')), 'BTCUSDT').toFixed()).toBe(
      '97185.54',
    );
    expect(parseBinanceTicker(JSON.parse(fixture('binance-ticker-price-ETHUSDT.json')), 'ETHUSDT').toFixed()).toBe(
      '3712.05',
    );
  });

  it('refuses a Binance answer for another symbol or an error body', () => {
    expect(() => parseBinanceTicker(JSON.parse(fixture('binance-ticker-price-ETHUSDT.json')), 'BTCUSDT')).toThrow(
      PriceSourceError,
    );
    expect(() => parseBinanceTicker(JSON.parse(fixture('binance-error-invalid-symbol.json')), 'BTCUSDT')).toThrow(
      /unexpected ticker body/,
    );
    expect(() => parseBinanceTicker({ symbol: 'BTCUSDT', price: 97185.54 }, 'BTCUSDT')).toThrow(PriceSourceError);
    expect(() => parseBinanceTicker({ symbol: 'BTCUSDT', price: '9.7e4' }, 'BTCUSDT')).toThrow(PriceSourceError);
  });

  it('reads the Coinbase spot amount and checks base and currency', () => {
    expect(parseCoinbaseSpot(JSON.parse(fixture('coinbase-prices-BTC-USD-spot.json')), 'BTC-USD').toFixed()).toBe(
      '97201.635',
    );
    expect(parseCoinbaseSpot(JSON.parse(fixture('coinbase-prices-USDT-USD-spot.json')), 'USDT-USD').toFixed()).toBe(
      '1.000285',
    );
    expect(() => parseCoinbaseSpot(JSON.parse(fixture('coinbase-prices-ETH-USD-spot.json')), 'BTC-USD')).toThrow(
      PriceSourceError,
    );
    expect(() => parseCoinbaseSpot(JSON.parse(fixture('coinbase-error-invalid-currency.json')), 'BTC-USD')).toThrow(
      PriceSourceError,
    );
  });

  it("reads Kraken's last trade under Kraken's own pair name, and surfaces Kraken's errors", () => {
    expect(parseKrakenTicker(JSON.parse(fixture('kraken-ticker-XBTUSD.json')), 'XBTUSD').toFixed()).toBe('97196.9');
    expect(parseKrakenTicker(JSON.parse(fixture('kraken-ticker-USDTUSD.json')), 'USDTUSD').toFixed()).toBe('1.0003');
    expect(() => parseKrakenTicker(JSON.parse(fixture('kraken-error-unknown-pair.json')), 'XBTUSD')).toThrow(
      /EQuery:Unknown asset pair/,
    );
    expect(() => parseKrakenTicker({ error: [], result: {} }, 'XBTUSD')).toThrow(/no last trade/);
  });
});

describe('exchange sources over (fake) HTTP', () => {
  it('asks each exchange the documented URL and stamps the answer with the clock', async () => {
    const fetchFn = fakeFetch([
      { url: 'https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT', file: 'binance-ticker-price-BTCUSDT.json' },
      { url: 'https://api.coinbase.com/v2/prices/BTC-USD/spot', file: 'coinbase-prices-BTC-USD-spot.json' },
      { url: 'https://api.kraken.com/0/public/Ticker?pair=XBTUSD', file: 'kraken-ticker-XBTUSD.json' },
    ]);
    const options = { timeoutMs: 1000, fetchFn, clock };
    const quotes = await Promise.all(
      [new BinanceSource(options), new CoinbaseSource(options), new KrakenSource(options)].map((s) => s.quote('BTC')),
    );
    expect(quotes.map((q) => [q.source, q.priceUsd.toFixed(), q.observedAt])).toEqual([
      ['binance', '97185.54', at],
      ['coinbase', '97201.635', at],
      ['kraken', '97196.9', at],
    ]);
    expect(fetchFn.calls).toHaveLength(3);
  });

  it('states which coins each exchange prices', () => {
    const options = { timeoutMs: 1000, clock };
    expect(new BinanceSource(options).supports('USDT')).toBe(false);
    expect(new CoinbaseSource(options).supports('USDT')).toBe(true);
    expect(new KrakenSource(options).supports('USDC')).toBe(true);
    expect(new KrakenSource(options).supports('USDE')).toBe(false);
  });

  it('turns an HTTP error, a timeout and an unsupported coin into typed source errors', async () => {
    const fetchFn = fakeFetch(
      [
        {
          url: 'https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT',
          file: 'binance-error-invalid-symbol.json',
          status: 400,
        },
      ],
      ['https://api.kraken.com/0/public/Ticker?pair=XBTUSD'],
    );
    const options = { timeoutMs: 20, fetchFn, clock };
    await expect(new BinanceSource(options).quote('BTC')).rejects.toMatchObject({ kind: 'http', source: 'binance' });
    await expect(new KrakenSource(options).quote('BTC')).rejects.toMatchObject({ kind: 'timeout', source: 'kraken' });
    await expect(new BinanceSource(options).quote('USDE')).rejects.toMatchObject({ kind: 'unsupported' });
  });
});
