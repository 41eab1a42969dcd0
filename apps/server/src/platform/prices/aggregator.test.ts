import { describe, expect, it, vi } from 'vitest';
import { deviationBps, medianOf, PriceAggregator } from './aggregator.ts';
import { BinanceSource } from './binance.ts';
import { CoinbaseSource } from './coinbase.ts';
import { KrakenSource } from './kraken.ts';
import { fakeFetch, type FakeRoute } from './test-fixtures.ts';
import { PriceDecimal, type PriceQuote, type PriceSource, type PriceSymbol, PriceUnavailableError } from './types.ts';
import { manualClock } from '../clock/clock.ts';

const BINANCE_BTC = {
  url: 'https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT',
  file: 'binance-ticker-price-BTCUSDT.json',
};
const COINBASE_BTC = {
  url: 'https://api.coinbase.com/v2/prices/BTC-USD/spot',
  file: 'coinbase-prices-BTC-USD-spot.json',
};
const KRAKEN_BTC = { url: 'https://api.kraken.com/0/public/Ticker?pair=XBTUSD', file: 'kraken-ticker-XBTUSD.json' };
const COINBASE_USDT = {
  url: 'https://api.coinbase.com/v2/prices/USDT-USD/spot',
  file: 'coinbase-prices-USDT-USD-spot.json',
};
const KRAKEN_USDT = { url: 'https://api.kraken.com/0/public/Ticker?pair=USDTUSD', file: 'kraken-ticker-USDTUSD.json' };

/** The three real exchange sources answering from the recorded fixtures. */
function exchanges(routes: FakeRoute[], clock: { now(): Date }) {
  const options = { timeoutMs: 50, fetchFn: fakeFetch(routes), clock };
  return [new BinanceSource(options), new CoinbaseSource(options), new KrakenSource(options)];
}

/** A source answering a fixed price observed `ageMs` before the clock's now. */
function fixedSource(name: string, price: string, clock: { now(): Date }, ageMs = 0): PriceSource {
  return {
    name,
    supports: () => true,
    quote: async (symbol: PriceSymbol): Promise<PriceQuote> => ({
      symbol,
      priceUsd: new PriceDecimal(price),
      observedAt: new Date(clock.now().getTime() - ageMs),
      source: name,
    }),
  };
}

describe('median and deviation', () => {
  it('takes the middle value, or the exact mean of the two middle ones', () => {
    expect(medianOf(['3', '1', '2'].map((v) => new PriceDecimal(v))).toFixed()).toBe('2');
    expect(medianOf(['97185.54', '97201.635'].map((v) => new PriceDecimal(v))).toFixed()).toBe('97193.5875');
    expect(deviationBps(new PriceDecimal('102'), new PriceDecimal('100'))).toBe(200);
    expect(deviationBps(new PriceDecimal('102.0001'), new PriceDecimal('100'))).toBe(201);
  });
});

describe('PriceAggregator on the recorded exchange answers', () => {
  it('prices BTC at the median of the three fresh sources', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(exchanges([BINANCE_BTC, COINBASE_BTC, KRAKEN_BTC], clock), { clock });
    const price = await aggregator.price('BTC');
    expect(price.priceUsd.toFixed()).toBe('97196.9');
    expect(price.basis).toBe('median');
    expect(price.sources).toEqual(['binance', 'coinbase', 'kraken']);
    expect(price.excluded).toEqual([]);
  });

  it('leaves out a missing source (HTTP 404) and takes the median of the other two', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(exchanges([BINANCE_BTC, COINBASE_BTC], clock), { clock });
    const price = await aggregator.price('BTC');
    expect(price.priceUsd.toFixed()).toBe('97193.5875');
    expect(price.excluded).toEqual([
      { source: 'kraken', reason: 'error', detail: expect.stringContaining('HTTP 404') },
    ]);
  });

  it('refuses with PRICE_UNAVAILABLE (134) when no source answers, never inventing a price', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const failures: string[] = [];
    const aggregator = new PriceAggregator(exchanges([], clock), {
      clock,
      onSourceFailure: (source, kind) => failures.push(`${source}:${kind}`),
    });
    const refusal = await aggregator.price('BTC').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PriceUnavailableError);
    expect((refusal as PriceUnavailableError).code).toBe('PRICE_UNAVAILABLE');
    expect((refusal as PriceUnavailableError).excluded.map((e) => e.source)).toEqual(['binance', 'coinbase', 'kraken']);
    expect(failures).toEqual(['binance:http', 'coinbase:http', 'kraken:http']);
  });
});

describe('PriceAggregator rules', () => {
  it('leaves out a source older than 30 s, and refuses when every source is stale', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(
      [
        fixedSource('a', '100', clock, 30_000),
        fixedSource('b', '101', clock, 30_001),
        fixedSource('c', '100.5', clock, 5_000),
      ],
      { clock },
    );
    const price = await aggregator.price('BTC');
    expect(price.priceUsd.toFixed()).toBe('100.25');
    expect(price.excluded).toEqual([{ source: 'b', reason: 'stale', detail: 'observed 30001 ms ago' }]);
    expect(price.observedAt).toEqual(new Date(clock.now().getTime() - 30_000));

    const allStale = new PriceAggregator([fixedSource('a', '100', clock, 60_000)], { clock });
    await expect(allStale.price('ETH')).rejects.toBeInstanceOf(PriceUnavailableError);
  });

  it('leaves out a source more than 2% from the median and takes the median of the rest', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(
      [fixedSource('a', '100', clock), fixedSource('b', '101', clock), fixedSource('c', '104', clock)],
      { clock },
    );
    const price = await aggregator.price('BTC');
    expect(price.priceUsd.toFixed()).toBe('100.5');
    expect(price.excluded).toEqual([{ source: 'c', reason: 'deviation', detail: '298 bps from the median 101' }]);
  });

  it('refuses when two sources disagree by more than twice the limit (neither is trusted)', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator([fixedSource('a', '100', clock), fixedSource('b', '110', clock)], { clock });
    await expect(aggregator.price('BTC')).rejects.toBeInstanceOf(PriceUnavailableError);
  });

  it('reuses an answer for 2 s, then asks the sources again; a refusal is not reused', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const source = fixedSource('a', '100', clock);
    const quote = vi.spyOn(source, 'quote');
    const aggregator = new PriceAggregator([source], { clock });
    await aggregator.price('BTC');
    await aggregator.price('BTC');
    expect(quote).toHaveBeenCalledTimes(1);
    clock.advance(2_000);
    await aggregator.price('BTC');
    expect(quote).toHaveBeenCalledTimes(2);
  });
});

describe('stablecoins track USD with a band alarm', () => {
  it('prices USDT at the 1 USD peg while the recorded market (1.0003) is inside the ±1% band', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(exchanges([COINBASE_USDT, KRAKEN_USDT], clock), { clock });
    const price = await aggregator.price('USDT');
    expect(price.priceUsd.toFixed()).toBe('1');
    expect(price.basis).toBe('peg');
    expect(price.sources).toEqual(['coinbase', 'kraken']);
    expect(aggregator.pegStatuses()).toEqual([
      { symbol: 'USDT', marketPriceUsd: '1.0002925', deviationBps: 3, isAlarm: false, checkedAt: clock.now() },
    ]);
  });

  it('raises the alarm (logged, flagged) and prices at the market when a stablecoin leaves its band', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const logger = { warn: vi.fn(), error: vi.fn() };
    const aggregator = new PriceAggregator([fixedSource('a', '0.9850', clock), fixedSource('b', '0.9870', clock)], {
      clock,
      logger,
      cacheTtlMs: 0,
    });
    const price = await aggregator.price('USDC');
    expect(price.priceUsd.toFixed()).toBe('0.986');
    expect(price.basis).toBe('market');
    expect(aggregator.pegStatuses()[0]).toMatchObject({ symbol: 'USDC', deviationBps: 140, isAlarm: true });
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ symbol: 'USDC', deviationBps: 140 }),
      'stablecoin outside its band',
    );
  });

  it('holds the peg for a stablecoin no source prices (USDE on the replay)', async () => {
    const clock = manualClock('2026-11-20T23:00:00Z');
    const aggregator = new PriceAggregator(exchanges([], clock), { clock });
    const price = await aggregator.price('USDE');
    expect(price).toMatchObject({ basis: 'peg', sources: [], excluded: [] });
    expect(price.priceUsd.toFixed(2)).toBe('1.00');
  });
});
