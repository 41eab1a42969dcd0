import { describe, expect, it } from 'vitest';
import { DAY_MS, findPriceDataDir, parseYahooDailyCsv, ReplaySource } from './replay.ts';
import { PriceDecimal } from './types.ts';

const dataDir = findPriceDataDir();
const CRASH_DAY_MS = Date.parse('2020-03-12T00:00:00Z');

/** A replay at the real pace whose anchor instant replays 2020-03-12 00:00. */
function crashReplay(realMsPerDay = DAY_MS) {
  const anchorAt = new Date('2026-01-01T00:00:00Z');
  return { replay: new ReplaySource({ dataDir, startDate: new Date(CRASH_DAY_MS), anchorAt, realMsPerDay }), anchorAt };
}

describe('parseYahooDailyCsv', () => {
  it('reads timezone-suffixed dates and float32-style prices back to cents', () => {
    const bars = parseYahooDailyCsv(
      'Date,Open,High,Low,Close,Volume,Dividends,Stock Splits\n' +
        '2020-03-12 00:00:00+00:00,7913.6162109375,7929.1162109375,4860.35400390625,4970.7880859375,53980357243,0.0,0.0\n',
    );
    expect(bars).toHaveLength(1);
    expect(bars[0]!.dayStartMs).toBe(CRASH_DAY_MS);
    expect([bars[0]!.open, bars[0]!.high, bars[0]!.low, bars[0]!.close].map((p) => p.toFixed(2))).toEqual([
      '7913.62',
      '7929.12',
      '4860.35',
      '4970.79',
    ]);
  });

  it('refuses a malformed date and a gap between days', () => {
    const header = 'Date,Open,High,Low,Close,Volume,Dividends,Stock Splits\n';
    expect(() => parseYahooDailyCsv(`${header}2020-03-12,1,1,1,1,0,0.0,0.0\n`)).toThrow(/line 2: unexpected date/);
    expect(() =>
      parseYahooDailyCsv(
        `${header}2020-03-12 00:00:00+00:00,1,1,1,1,0,0.0,0.0\n2020-03-14 00:00:00+00:00,1,1,1,1,0,0.0,0.0\n`,
      ),
    ).toThrow(/days must follow/);
  });
});

describe('ReplaySource on the real Yahoo history', () => {
  it('keeps BTC within the 2020-03-12 low and high (4860.35..7929.12) all day, hitting open, low, high and close', () => {
    const { replay, anchorAt } = crashReplay();
    const prices: PriceDecimal[] = [];
    for (let minute = 0; minute <= 1440; minute += 1) {
      prices.push(
        replay.quoteAt('BTC', new Date(anchorAt.getTime() + minute * 60_000 - (minute === 1440 ? 1 : 0))).priceUsd,
      );
    }
    const low = PriceDecimal.min(...prices);
    const high = PriceDecimal.max(...prices);
    expect(low.toFixed(2)).toBe('4860.35');
    expect(high.toFixed(2)).toBe('7929.12');
    expect(prices[0]!.toFixed(2)).toBe('7913.62');
    expect(prices[1440]!.toFixed(2)).toBe('4970.79');
    // A falling day: the high comes before the low.
    expect(prices.findIndex((p) => p.eq(high))).toBeLessThan(prices.findIndex((p) => p.eq(low)));
  });

  it('keeps ETH within its 2020-03-12 range (111.21..195.15) and prices in cents', () => {
    const { replay, anchorAt } = crashReplay();
    for (let minute = 0; minute < 1440; minute += 7) {
      const price = replay.quoteAt('ETH', new Date(anchorAt.getTime() + minute * 60_000)).priceUsd;
      expect(price.gte('111.21') && price.lte('195.15')).toBe(true);
      expect(price.decimalPlaces()).toBeLessThanOrEqual(2);
    }
  });

  it('moves by minutes like a market, not in one jump: no minute step above 3% of the day range on a quiet path', () => {
    const { replay, anchorAt } = crashReplay();
    let previous = replay.quoteAt('BTC', anchorAt).priceUsd;
    const rangeUsd = new PriceDecimal('7929.12').minus('4860.35');
    let largestStep = new PriceDecimal(0);
    for (let minute = 1; minute < 1440; minute += 1) {
      const price = replay.quoteAt('BTC', new Date(anchorAt.getTime() + minute * 60_000)).priceUsd;
      largestStep = PriceDecimal.max(largestStep, price.minus(previous).abs());
      previous = price;
    }
    expect(largestStep.div(rangeUsd).lt('0.03')).toBe(true);
  });

  it('is deterministic: two replays (two server processes) give the same price at the same instant', () => {
    const at = new Date('2026-01-01T13:37:00Z');
    expect(crashReplay().replay.quoteAt('BTC', at).priceUsd.toFixed()).toBe(
      crashReplay().replay.quoteAt('BTC', at).priceUsd.toFixed(),
    );
  });

  it('runs at the configured speed: 1 replayed day per 60 real minutes', () => {
    const { replay, anchorAt } = crashReplay(60 * 60_000);
    expect(replay.replayInstantMs(new Date(anchorAt.getTime() + 60 * 60_000))).toBe(CRASH_DAY_MS + DAY_MS);
    expect(replay.quoteAt('BTC', new Date(anchorAt.getTime() + 60 * 60_000)).priceUsd.toFixed(2)).toBe('5017.83'); // the Yahoo open of 2020-03-13
  });

  it('wraps to the first shared day after the last day of history', () => {
    const { replay } = crashReplay();
    const lastEndMs = Date.parse('2024-12-08T00:00:00Z');
    const firstSharedMs = Date.parse('2017-11-09T00:00:00Z');
    const atEnd = new Date(Date.parse('2026-01-01T00:00:00Z') + (lastEndMs - CRASH_DAY_MS));
    expect(replay.replayInstantMs(atEnd)).toBe(firstSharedMs);
    expect(replay.supports('USDT')).toBe(false);
  });
});
