import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceUnavailableError } from '../../platform/prices/types.ts';
import { priceDays, priceHours, priceMinutes } from './market.tables.ts';

const NOW = Date.parse('2026-06-10T12:00:30Z');
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** No live prices: the history reads only the stored tables the test writes. */
const noPrices: PriceOracle = {
  sourceNames: ['none'],
  pegStatuses: () => [],
  price: async (symbol) => {
    throw new PriceUnavailableError(symbol, []);
  },
};

const bar = (coinCode: string, atMs: number, closeUsd: string) => ({
  coinCode,
  bucketAt: new Date(atMs),
  openUsd: closeUsd,
  highUsd: closeUsd,
  lowUsd: closeUsd,
  closeUsd,
  sampleCount: 1,
});

describe('GET /api/market/price/history (the loan page chart)', () => {
  let app: FastifyInstance;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://' });
    app = await buildApp({
      config,
      database,
      sessionSecret: 'test-secret-'.padEnd(48, 'x'),
      logger: false,
      clock: { now: () => new Date(NOW) },
      prices: noPrices,
    });
    await app.ready();
    dispose = async () => (await app.close(), await database.dispose());
    const hourStart = Math.floor(NOW / HOUR_MS) * HOUR_MS;
    const dayStart = Math.floor(NOW / DAY_MS) * DAY_MS;
    // Minutes: one every 5 minutes over the last 25 hours (the first hour is outside 24h), plus ETH.
    const minutes = [];
    for (let at = hourStart - 25 * HOUR_MS; at < NOW; at += 5 * MINUTE_MS)
      minutes.push({
        coinCode: 'BTC',
        bucketAt: new Date(at),
        priceUsd: `${60000 + (at - hourStart) / MINUTE_MS}.5`,
        source: 'test',
      });
    minutes.push({ coinCode: 'ETH', bucketAt: new Date(hourStart), priceUsd: '3000', source: 'test' });
    await database.db.insert(priceMinutes).values(minutes);
    // Hours: every hour over the last 40 days (older ones are outside 30d).
    const hours = [];
    for (let at = hourStart - 40 * DAY_MS; at < hourStart; at += HOUR_MS)
      hours.push(bar('BTC', at, `${50000 + (hourStart - at) / HOUR_MS}`));
    await database.db.insert(priceHours).values(hours);
    // Days: every day over the last 400 days.
    const days = [];
    for (let at = dayStart - 400 * DAY_MS; at < dayStart; at += DAY_MS)
      days.push(bar('BTC', at, `${40000 + (dayStart - at) / DAY_MS}.25`));
    await database.db.insert(priceDays).values(days);
  });
  afterAll(async () => dispose());

  const get = async (query: string, lang = 'en-US') =>
    (
      await app.inject({ method: 'GET', url: `/api/market/price/history${query}`, headers: { 'user-lang': lang } })
    ).json();

  it('answers 24h in 15-minute slots of the minute samples, the last price of each slot, oldest first', async () => {
    const body = await get('?range=24h');
    expect(body.statusCode).toBe(200);
    expect(body.content).toMatchObject({ coinCode: 'BTC', range: '24h', stepMinutes: 15 });
    const points: { time: string; priceUsd: string }[] = body.content.points;
    expect(points).toHaveLength(24 * 4 + 1);
    expect(points[0]!.time).toBe('2026-06-09T12:00:00.000Z');
    // 12:00–12:14 holds samples at 12:05 and 12:10 only (12:00 is not after the window start): the 12:10 one.
    expect(points[0]!.priceUsd).toBe(`${60000 - 24 * 60 + 10}.5`);
    expect(points.at(-1)).toEqual({ time: '2026-06-10T12:00:00.000Z', priceUsd: '60000.5' });
    expect(points.map((point) => point.time)).toEqual([...points.map((point) => point.time)].sort());
  });

  it('answers 7d hourly and 30d four-hourly from the hourly bars, 1y daily from the daily bars', async () => {
    const week = (await get('?range=7d')).content;
    expect(week.stepMinutes).toBe(60);
    expect(week.points).toHaveLength(7 * 24 - 1);
    expect(week.points.at(-1)).toEqual({ time: '2026-06-10T11:00:00.000Z', priceUsd: '50001' });
    const month = (await get('?range=30d&coinCode=BTC')).content;
    expect(month.stepMinutes).toBe(240);
    expect(month.points).toHaveLength(30 * 6);
    // The last four-hour slot (08:00–11:59) closes with the 11:00 bar.
    expect(month.points.at(-1)).toEqual({ time: '2026-06-10T08:00:00.000Z', priceUsd: '50001' });
    const year = (await get('?range=1y')).content;
    expect(year.stepMinutes).toBe(1440);
    expect(year.points).toHaveLength(364);
    expect(year.points.at(-1)).toEqual({ time: '2026-06-09T00:00:00.000Z', priceUsd: '40001.25' });
  });

  it('answers another coin by coinCode, and an empty list for a coin without history', async () => {
    expect((await get('?range=24h&coinCode=ETH')).content.points).toEqual([
      { time: '2026-06-10T12:00:00.000Z', priceUsd: '3000' },
    ]);
    expect((await get('?range=1y&coinCode=USDC')).content).toMatchObject({ coinCode: 'USDC', points: [] });
  });

  it('refuses a missing or unknown range with 120 naming range, in the caller language', async () => {
    for (const query of ['', '?range=2h', '?range=1Y']) {
      const body = await get(query);
      expect(body.statusCode).toBe(120);
      expect(body.content.fields).toEqual([{ field: 'range', message: 'Choose a range: 24h, 7d, 30d or 1y' }]);
    }
    const chinese = await get('?range=week', 'zh-HK');
    expect(chinese.content.fields).toEqual([{ field: 'range', message: '請選擇範圍：24h、7d、30d 或 1y' }]);
    expect((await get('?range=24h&coinCode=XYZ')).content.fields[0].field).toBe('coinCode');
  });
});
