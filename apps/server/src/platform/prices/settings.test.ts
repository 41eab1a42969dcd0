import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';

describe('price settings from the environment', () => {
  it('defaults to the replay at the real pace with the 30 s / 2% / ±1% limits', () => {
    const { prices, jobsEnabled } = loadConfig({});
    expect(prices).toEqual({
      sources: ['replay'],
      maxAgeMs: 30_000,
      deviationBpsMax: 200,
      stablecoinBandBps: 100,
      httpTimeoutMs: 3000,
      replay: {
        dataDir: undefined,
        startDate: new Date('2020-01-01T00:00:00Z'),
        anchorAt: new Date('2026-01-01T00:00:00Z'),
        realMsPerDay: 86_400_000,
      },
    });
    expect(jobsEnabled).toBe(true);
  });

  it('reads a list of exchanges and a faster replay', () => {
    expect(loadConfig({ PRICE_SOURCES: 'Binance, coinbase,kraken' }).prices.sources).toEqual([
      'binance',
      'coinbase',
      'kraken',
    ]);
    expect(loadConfig({ PRICE_REPLAY_DAY_MINUTES: '60' }).prices.replay.realMsPerDay).toBe(3_600_000);
  });

  it('refuses an unknown source, a source listed twice and replay mixed with exchanges', () => {
    expect(() => loadConfig({ PRICE_SOURCES: 'bitstamp' })).toThrow(/PRICE_SOURCES/);
    expect(() => loadConfig({ PRICE_SOURCES: 'kraken,kraken' })).toThrow(/lists a source twice/);
    expect(() => loadConfig({ PRICE_SOURCES: 'replay,kraken' })).toThrow(/replay cannot be combined/);
  });
});

describe('price settings in production', () => {
  it('must be chosen explicitly: replayed history is never a silent default there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PRICE_SOURCES is required in production/);
  });
});
