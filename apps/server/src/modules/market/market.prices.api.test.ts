import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type AggregatedPrice, PriceAggregator, type PriceOracle } from '../../platform/prices/aggregator.ts';
import { findPriceDataDir, ReplaySource } from '../../platform/prices/replay.ts';
import { PriceDecimal, type PriceSymbol, PriceUnavailableError } from '../../platform/prices/types.ts';
import { MARKET_TABLE_TTL_MS } from './market.prices.ts';
import { priceDays, priceHours, priceMinutes } from './market.tables.ts';
import { type ManualClock, manualClock } from '../../platform/clock/clock.ts';

/** An oracle whose prices the test sets; a coin without a price is refused like the real aggregator does. */
function scriptedOracle(clock: ManualClock) {
  const prices = new Map<PriceSymbol, string>();
  const oracle: PriceOracle = {
    sourceNames: ['scripted'],
    pegStatuses: () => [],
    price: async (symbol): Promise<AggregatedPrice> => {
      const price = prices.get(symbol);
      if (price === undefined) throw new PriceUnavailableError(symbol, []);
      return {
        symbol,
        priceUsd: new PriceDecimal(price),
        observedAt: clock.now(),
        basis: 'median',
        sources: ['scripted'],
        excluded: [],
      };
    },
  };
  return { oracle, prices };
}

async function createPriceApp(clock: ManualClock, prices?: PriceOracle) {
  const database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://' });
  const app = await buildApp({
    config,
    database,
    sessionSecret: 'test-secret-'.padEnd(48, 'x'),
    logger: false,
    clock,
    ...(prices ? { prices } : {}),
  });
  app.get('/api/probe/usd-price', async () => ({
    statusCode: 200,
    content: (await app.market.prices.usdPrice('BTC')).priceUsd.toFixed(),
    message: 'Success',
  }));
  await app.ready();
  return { app, database, close: async () => (await app.close(), await database.dispose()) };
}

const getTable = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/api/market/price' })).json();

describe('GET /api/market/price on the replay (the embedded default)', () => {
  const clock = manualClock('2026-01-02T12:00:30Z');
  let t: Awaited<ReturnType<typeof createPriceApp>>;
  beforeAll(async () => {
    t = await createPriceApp(clock);
  });
  afterAll(async () => t.close());

  it('answers every coin even before the first sample, with the live price only', async () => {
    const body = await getTable(t.app);
    expect(body.statusCode).toBe(200);
    expect(body.content.map((row: { coinCode: string }) => row.coinCode)).toEqual([
      'BTC',
      'ETH',
      'USDT',
      'USDC',
      'USDE',
    ]);
    expect(body.content[2]).toEqual({
      coinCode: 'USDT',
      currentPrice: '1.00',
      changePercent: '0.00',
      lineCode: [1],
      observedAt: '2026-01-02T12:00:30.000Z',
    });
  });

  it('backfills the last 24 h from the replay on the first sample, so the trend line and the 24 h change are real', async () => {
    const outcomes = await t.app.scheduler.tick();
    expect(outcomes['market.sample-prices']).toBe('ran');
    const minutes = await t.database.db
      .select()
      .from(priceMinutes)
      .where(eq(priceMinutes.coinCode, 'BTC'))
      .orderBy(asc(priceMinutes.bucketAt));
    expect(minutes).toHaveLength(1441); // 1440 backfilled minutes and the sampled one
    expect(minutes[0]!.bucketAt.toISOString()).toBe('2026-01-01T12:00:00.000Z');
    clock.advance(MARKET_TABLE_TTL_MS); // past the table's cache of the first answer

    const replay = new ReplaySource({
      dataDir: findPriceDataDir(),
      startDate: new Date('2020-01-01T00:00:00Z'),
      anchorAt: new Date('2026-01-01T00:00:00Z'),
      realMsPerDay: 86_400_000,
    });
    const current = replay.quoteAt('BTC', clock.now()).priceUsd;
    const dayAgo = replay.quoteAt('BTC', new Date('2026-01-01T12:01:00Z')).priceUsd;
    const btc = (await getTable(t.app)).content[0];
    expect(btc.currentPrice).toBe(current.toFixed(2));
    expect(btc.changePercent).toBe(
      current.minus(dayAgo).div(dayAgo).times(100).toDecimalPlaces(2, PriceDecimal.ROUND_HALF_EVEN).toFixed(2),
    );
    expect(btc.lineCode).toHaveLength(98); // 97 quarter-hour slots in (now − 24 h, now] and the live price
    expect(btc.lineCode.at(-1)).toBe(Number(current.toFixed()));
    // 2020-01-01/02 on Yahoo: BTC between 6854.07 and 7254.33; the whole line stays in that range.
    expect(Math.min(...btc.lineCode)).toBeGreaterThanOrEqual(6854.07);
    expect(Math.max(...btc.lineCode)).toBeLessThanOrEqual(7254.33);
  });

  it('rolled the backfilled complete hours up on the first run, and a second instance in the same minute samples nothing', async () => {
    const hours = await t.database.db.select().from(priceHours).where(eq(priceHours.coinCode, 'ETH'));
    expect(hours).toHaveLength(24);
    expect(hours.every((hour) => hour.sampleCount === 60)).toBe(true);
    const outcomes = await t.app.scheduler.tick();
    expect(outcomes['market.sample-prices']).toBeUndefined();
  });

  it('reuses the table for 5 s per process, then answers fresh', async () => {
    const first = (await getTable(t.app)).content[0].observedAt;
    clock.advance(4_000);
    expect((await getTable(t.app)).content[0].observedAt).toBe(first);
    clock.advance(1_000);
    expect((await getTable(t.app)).content[0].observedAt).not.toBe(first);
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/market/price'].get).toBeDefined();
  });
});

describe('price history: sampling, roll-ups and retention', () => {
  const clock = manualClock('2026-03-01T00:00:00Z');
  const { oracle, prices } = scriptedOracle(clock);
  let t: Awaited<ReturnType<typeof createPriceApp>>;
  beforeAll(async () => {
    t = await createPriceApp(clock, oracle);
  });
  afterAll(async () => t.close());

  it('samples each minute through the scheduler, keeping the exact decimals, once per minute', async () => {
    prices.set('BTC', '60000.00000001');
    for (let minute = 0; minute < 120; minute += 1) {
      // Prices rise by 1 USD a minute in the first hour and fall by 2 USD a minute in the second.
      prices.set('ETH', minute < 60 ? String(2000 + minute) : String(2059 - 2 * (minute - 59)));
      await t.app.scheduler.tick();
      if (minute < 3) await t.app.scheduler.tick(); // a second tick in the same minute changes nothing
      clock.advance(60_000);
    }
    const btc = await t.database.db.select().from(priceMinutes).where(eq(priceMinutes.coinCode, 'BTC'));
    expect(btc).toHaveLength(120);
    expect(btc[0]!.priceUsd).toBe('60000.00000001');
    expect(btc[0]!.source).toBe('median:scripted');
    // Stablecoins are refused by this oracle: nothing stored, the others still sampled.
    expect(await t.database.db.select().from(priceMinutes).where(eq(priceMinutes.coinCode, 'USDT'))).toHaveLength(0);
  });

  it('rolls minutes up into hourly open/high/low/close with set-based SQL, idempotently', async () => {
    // The hourly job ran at 01:00 (hour 00 complete) and ran again at 02:00 when the clock got there.
    await t.app.market.prices.rollUpHours(t.database.db, clock.now());
    await t.app.market.prices.rollUpHours(t.database.db, clock.now());
    const eth = await t.database.db
      .select()
      .from(priceHours)
      .where(eq(priceHours.coinCode, 'ETH'))
      .orderBy(asc(priceHours.bucketAt));
    expect(
      eth.map((h) => [h.bucketAt.toISOString(), h.openUsd, h.highUsd, h.lowUsd, h.closeUsd, h.sampleCount]),
    ).toEqual([
      ['2026-03-01T00:00:00.000Z', '2000', '2059', '2000', '2059', 60],
      ['2026-03-01T01:00:00.000Z', '2057', '2057', '1939', '1939', 60],
    ]);
  });

  it('rolls complete hours up into UTC days', async () => {
    clock.set('2026-03-02T00:00:30Z');
    expect(await t.app.market.prices.rollUpDays(t.database.db, clock.now())).toBe(2);
    const [eth] = await t.database.db.select().from(priceDays).where(eq(priceDays.coinCode, 'ETH'));
    expect(eth).toMatchObject({ openUsd: '2000', highUsd: '2059', lowUsd: '1939', closeUsd: '1939', sampleCount: 120 });
    expect(eth!.bucketAt.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('computes the 24 h change against the first sample of the window and leaves out coins without any price', async () => {
    clock.set('2026-03-01T23:59:30Z');
    prices.set('ETH', '1000');
    const rows = (await getTable(t.app)).content;
    expect(rows.map((row: { coinCode: string }) => row.coinCode)).toEqual(['BTC', 'ETH']);
    // The window (2026-02-28 23:59:30, now] starts with the 00:00 sample, ETH 2000: 2000 → 1000 is −50%.
    expect(rows[1]).toMatchObject({ currentPrice: '1000.00', changePercent: '-50.00' });
    expect(rows[0]).toMatchObject({ currentPrice: '60000.00000001', changePercent: '0.00' });
  });

  it('shows the last sample when the live price is refused (display), while pricing refuses with 134', async () => {
    clock.set('2026-03-01T23:59:40Z'); // past the table's 5 s cache
    prices.delete('BTC');
    const btc = (await getTable(t.app)).content[0];
    expect(btc).toMatchObject({
      coinCode: 'BTC',
      currentPrice: '60000.00000001',
      observedAt: '2026-03-01T01:59:00.000Z',
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/probe/usd-price',
      headers: { 'User-Lang': 'zh-HK' },
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ statusCode: 134, content: null, message: '暫時無法取得價格，請稍後再試' });
    prices.set('BTC', '61000');
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/usd-price' })).json().content).toBe('61000');
  });

  it('deletes minutes after 48 h and hours after 90 days, keeping days forever', async () => {
    const insertOld = async (coinCode: string, at: string) => {
      const bucketAt = new Date(at);
      await t.database.db
        .insert(priceHours)
        .values({ coinCode, bucketAt, openUsd: '1', highUsd: '1', lowUsd: '1', closeUsd: '1', sampleCount: 60 });
      await t.database.db
        .insert(priceDays)
        .values({ coinCode, bucketAt, openUsd: '1', highUsd: '1', lowUsd: '1', closeUsd: '1', sampleCount: 1440 });
    };
    await insertOld('BTC', '2025-11-01T00:00:00Z'); // 120 days before the clock below
    clock.set('2026-03-03T01:00:00Z'); // 48 h after the end of the first hour of samples
    const deleted = await t.app.market.prices.applyRetention(t.database.db, clock.now());
    expect(deleted).toEqual({ minutes: 2 * 60, hours: 1 });
    const minutes = await t.database.db.select().from(priceMinutes).orderBy(asc(priceMinutes.bucketAt));
    expect(minutes[0]!.bucketAt.toISOString()).toBe('2026-03-01T01:00:00.000Z');
    expect(
      await t.database.db
        .select()
        .from(priceDays)
        .where(eq(priceDays.bucketAt, new Date('2025-11-01T00:00:00Z'))),
    ).toHaveLength(1);
  });
});

describe('the aggregator refuses rather than serve a stale replay', () => {
  it('leaves a replay quote older than 30 s out and refuses with PRICE_UNAVAILABLE', async () => {
    const clock = manualClock('2026-01-02T12:00:30Z');
    const replay = new ReplaySource({
      dataDir: findPriceDataDir(),
      startDate: new Date('2020-01-01T00:00:00Z'),
      anchorAt: new Date('2026-01-01T00:00:00Z'),
      realMsPerDay: 86_400_000,
    });
    const stale = {
      name: 'replay',
      supports: () => true,
      quote: async (symbol: PriceSymbol) => replay.quoteAt(symbol, new Date(clock.now().getTime() - 31_000)),
    };
    await expect(new PriceAggregator([stale], { clock }).price('BTC')).rejects.toMatchObject({
      code: 'PRICE_UNAVAILABLE',
    });
  });
});
