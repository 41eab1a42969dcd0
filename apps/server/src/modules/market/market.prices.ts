import {
  MARKET_COIN_CODES,
  type MarketCoinCode,
  type MarketCoinRow,
  type PriceHistoryContent,
  type PriceHistoryRange,
} from '@meridian/contracts/market';
import { and, asc, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { AggregatedPrice, PriceLogger, PriceOracle } from '../../platform/prices/aggregator.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal, PriceUnavailableError } from '../../platform/prices/types.ts';
import { priceDays, priceHours, priceMinutes } from './market.tables.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The trend line's resolution: one point per this many minutes of the last 24 hours (96 points). */
const LINE_STEP_MINUTES = 15;

/**
 * Where each range of `GET market/price/history` reads: the table (minutes kept 48 h, hours 90
 * days, days forever), how far back, and the slot width in minutes.
 */
export const PRICE_HISTORY_SOURCES: Record<
  PriceHistoryRange,
  { table: 'minutes' | 'hours' | 'days'; spanMs: number; stepMinutes: number }
> = {
  '24h': { table: 'minutes', spanMs: DAY_MS, stepMinutes: 15 },
  '7d': { table: 'hours', spanMs: 7 * DAY_MS, stepMinutes: 60 },
  '30d': { table: 'hours', spanMs: 30 * DAY_MS, stepMinutes: 240 },
  '1y': { table: 'days', spanMs: 365 * DAY_MS, stepMinutes: 1440 },
};
/** Rows written per INSERT when backfilling, to keep statements bounded. */
const BACKFILL_BATCH_ROWS = 500;
/** Rows deleted per retention statement; the hourly job catches up over several runs if ever behind. */
const RETENTION_BATCH_ROWS = 50_000;
/**
 * The market table is reused this long per process: the home page is the most visited call, and
 * the table's queries scan a day of samples. Clients refresh every 15 s.
 */
export const MARKET_TABLE_TTL_MS = 5_000;

/** A coin's USD price as the rest of the server uses it (exchange, wallet valuation, loans). */
export interface UsdPrice {
  coinCode: MarketCoinCode;
  /** USD per one coin, exact. */
  priceUsd: PriceDecimal;
  /** The oldest observation behind the price. */
  observedAt: Date;
  /** 'median' of exchange sources, 'peg' (stablecoin at 1 USD) or 'market' (stablecoin outside its band). */
  basis: AggregatedPrice['basis'];
  /** The sources whose observations went into the median (a loan liquidation receipt names them). */
  sources: string[];
}

/** Retention of the price history. */
export interface PriceRetention {
  /** Minute samples are kept this long (48 h). */
  minuteMs: number;
  /** Hourly bars are kept this long (90 days). Daily bars are kept forever. */
  hourMs: number;
}

export const DEFAULT_PRICE_RETENTION: PriceRetention = { minuteMs: 48 * HOUR_MS, hourMs: 90 * DAY_MS };

/** Options of the price history. */
export interface MarketPricesOptions {
  clock: Clock;
  retention?: PriceRetention;
  logger?: PriceLogger;
}

/** "At least 2 decimals, or the price's own", as a plain decimal string. */
export function formatPriceUsd(price: PriceDecimal): string {
  return price.decimalPlaces() < 2 ? price.toFixed(2) : price.toFixed();
}

/** Change from `reference` to `current` in percent with 2 decimals (half-even), "0.00" without a reference. */
export function changePercent(current: PriceDecimal, reference: PriceDecimal | undefined): string {
  if (!reference || reference.isZero()) return '0.00';
  const percent = current.minus(reference).div(reference).times(100).toDecimalPlaces(2, PriceDecimal.ROUND_HALF_EVEN);
  return percent.isZero() ? '0.00' : percent.toFixed(2);
}

function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** Postgres timestamptz text or Date (drivers differ on raw queries) to epoch ms. */
function toMs(value: unknown): number {
  return value instanceof Date ? value.getTime() : Date.parse(String(value));
}

/**
 * Prices of the market coins: the live USD price (for the exchange and valuations), the price
 * history sampled per minute and rolled up per hour and day with bounded retention, and the home
 * market table. Periodic work is exposed as scheduler jobs (`jobs()`), each idempotent per period
 * through the unique (coin, bucket) keys.
 */
export class MarketPrices {
  private readonly retention: PriceRetention;
  private hasBackfilled = false;
  private tableCache: { atMs: number; rows: Promise<MarketCoinRow[]> } | undefined;

  constructor(
    private readonly db: Db,
    private readonly oracle: PriceOracle,
    private readonly options: MarketPricesOptions,
  ) {
    this.retention = options.retention ?? DEFAULT_PRICE_RETENTION;
  }

  /**
   * The current USD price of `coinCode` for pricing money movements: the median of fresh, agreeing
   * sources (or a stablecoin's peg), never a stored or stale price.
   * @throws DomainError PRICE_UNAVAILABLE (code 134, HTTP 503) when no fresh source agrees.
   */
  async usdPrice(coinCode: MarketCoinCode): Promise<UsdPrice> {
    const price = await this.oracle.price(coinCode);
    return {
      coinCode,
      priceUsd: price.priceUsd,
      observedAt: price.observedAt,
      basis: price.basis,
      sources: price.sources,
    };
  }

  /**
   * The home market table (`market/price`): every coin with its current price, 24-hour
   * change and trend line. A coin whose live price is refused falls back to its last sample (this
   * is display, not pricing); a coin with neither is left out. Reused for `MARKET_TABLE_TTL_MS`.
   */
  async marketTable(): Promise<MarketCoinRow[]> {
    const nowMs = this.options.clock.now().getTime();
    if (this.tableCache && nowMs - this.tableCache.atMs >= 0 && nowMs - this.tableCache.atMs < MARKET_TABLE_TTL_MS)
      return this.tableCache.rows;
    const rows = this.buildMarketTable();
    this.tableCache = { atMs: nowMs, rows };
    rows.catch(() => {
      if (this.tableCache?.rows === rows) this.tableCache = undefined;
    });
    return rows;
  }

  private async buildMarketTable(): Promise<MarketCoinRow[]> {
    const now = this.options.clock.now();
    const since = new Date(now.getTime() - DAY_MS);
    const [live, lines, references, latest] = await Promise.all([
      Promise.allSettled(MARKET_COIN_CODES.map((coin) => this.oracle.price(coin))),
      this.trendLines(since),
      this.firstSamplesSince(since),
      this.latestSamples(),
    ]);
    const rows: MarketCoinRow[] = [];
    MARKET_COIN_CODES.forEach((coinCode, index) => {
      const result = live[index]!;
      const current =
        result.status === 'fulfilled'
          ? { priceUsd: result.value.priceUsd, observedAt: result.value.observedAt }
          : latest.get(coinCode);
      if (result.status === 'rejected' && !(result.reason instanceof PriceUnavailableError)) {
        this.options.logger?.warn({ err: result.reason, coinCode }, 'market table: live price failed');
      }
      if (!current) return;
      const line = lines.get(coinCode) ?? [];
      rows.push({
        coinCode,
        currentPrice: formatPriceUsd(current.priceUsd),
        changePercent: changePercent(current.priceUsd, references.get(coinCode)),
        lineCode: [...line, Number(current.priceUsd.toFixed())],
        observedAt: current.observedAt.toISOString(),
      });
    });
    return rows;
  }

  /** Last 24 h per coin, one close per 15-minute slot, oldest first (for drawing only). */
  private async trendLines(since: Date): Promise<Map<MarketCoinCode, number[]>> {
    const result = await this.db.execute(sql`
      SELECT coin_code, slot, (array_agg(price_usd ORDER BY bucket_at DESC))[1]::text AS close_usd
      FROM (
        SELECT coin_code, bucket_at, price_usd,
               date_bin(${`${LINE_STEP_MINUTES} minutes`}::interval, bucket_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS slot
        FROM ${priceMinutes}
        WHERE bucket_at > ${since.toISOString()}::timestamptz
      ) samples
      GROUP BY coin_code, slot
      ORDER BY coin_code, slot`);
    const lines = new Map<MarketCoinCode, number[]>();
    for (const row of rowsOf<{ coin_code: MarketCoinCode; close_usd: string }>(result)) {
      const line = lines.get(row.coin_code) ?? [];
      line.push(Number(row.close_usd));
      lines.set(row.coin_code, line);
    }
    return lines;
  }

  /** Each coin's first sample at or after `since`: the reference of the 24-hour change. */
  private async firstSamplesSince(since: Date): Promise<Map<MarketCoinCode, PriceDecimal>> {
    const result = await this.db.execute(sql`
      SELECT DISTINCT ON (coin_code) coin_code, price_usd::text AS price_usd
      FROM ${priceMinutes}
      WHERE bucket_at >= ${since.toISOString()}::timestamptz
      ORDER BY coin_code, bucket_at ASC`);
    return new Map(
      rowsOf<{ coin_code: MarketCoinCode; price_usd: string }>(result).map((row) => [
        row.coin_code,
        new PriceDecimal(row.price_usd),
      ]),
    );
  }

  /** Each coin's newest sample (the display fallback when the live price is refused). */
  private async latestSamples(): Promise<Map<MarketCoinCode, { priceUsd: PriceDecimal; observedAt: Date }>> {
    const result = await this.db.execute(sql`
      SELECT DISTINCT ON (coin_code) coin_code, bucket_at, price_usd::text AS price_usd
      FROM ${priceMinutes}
      ORDER BY coin_code, bucket_at DESC`);
    return new Map(
      rowsOf<{ coin_code: MarketCoinCode; bucket_at: unknown; price_usd: string }>(result).map((row) => [
        row.coin_code,
        { priceUsd: new PriceDecimal(row.price_usd), observedAt: new Date(toMs(row.bucket_at)) },
      ]),
    );
  }

  /** The live price of every market coin, each answer or refusal kept (network work, outside any transaction). */
  fetchAllPrices(): Promise<PromiseSettledResult<AggregatedPrice>[]> {
    return Promise.allSettled(MARKET_COIN_CODES.map((coin) => this.oracle.price(coin)));
  }

  /**
   * Store one price per coin for the minute starting at `bucketAt` (prices from `fetched`, or asked
   * now); existing rows are kept, so a re-run is harmless. A coin that cannot be priced is skipped and logged.
   * @returns the number of rows written.
   */
  async sampleMinute(tx: DbOrTx, bucketAt: Date, fetched?: PromiseSettledResult<AggregatedPrice>[]): Promise<number> {
    const results = fetched ?? (await this.fetchAllPrices());
    const values = results.flatMap((result, index) => {
      if (result.status === 'rejected') {
        this.options.logger?.warn({ err: result.reason, coinCode: MARKET_COIN_CODES[index] }, 'price sample skipped');
        return [];
      }
      const price = result.value;
      return [
        {
          coinCode: price.symbol,
          bucketAt,
          priceUsd: price.priceUsd.toFixed(),
          source: `${price.basis}:${price.sources.join('+')}`,
        },
      ];
    });
    if (values.length === 0) return 0;
    const inserted = await tx
      .insert(priceMinutes)
      .values(values)
      .onConflictDoNothing()
      .returning({ coinCode: priceMinutes.coinCode });
    return inserted.length;
  }

  /**
   * Fill the last 24 hours of minute samples from the oracle's history (the replay) for every coin
   * that has fewer than a full day, then roll the hours and days up, so the market table is never
   * empty on a fresh start. Without a history (exchange sources) it does nothing: real prices start
   * with the first sample rather than being made up.
   * @returns the number of rows written.
   */
  async backfill(tx: DbOrTx, now: Date): Promise<number> {
    const priceAt = this.oracle.priceAt?.bind(this.oracle);
    if (!priceAt) return 0;
    const lastMinuteMs = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
    const firstMinuteMs = lastMinuteMs - (DAY_MS - MINUTE_MS);
    const counts = await tx
      .select({ coinCode: priceMinutes.coinCode, samples: count() })
      .from(priceMinutes)
      .where(
        and(
          gte(priceMinutes.bucketAt, new Date(firstMinuteMs)),
          lt(priceMinutes.bucketAt, new Date(lastMinuteMs + MINUTE_MS)),
        ),
      )
      .groupBy(priceMinutes.coinCode);
    const full = new Set(counts.filter((row) => row.samples >= DAY_MS / MINUTE_MS).map((row) => row.coinCode));
    let written = 0;
    for (const coinCode of MARKET_COIN_CODES.filter((coin) => !full.has(coin))) {
      for (
        let batchStartMs = firstMinuteMs;
        batchStartMs <= lastMinuteMs;
        batchStartMs += BACKFILL_BATCH_ROWS * MINUTE_MS
      ) {
        const values = [];
        for (
          let minuteMs = batchStartMs;
          minuteMs <= lastMinuteMs && minuteMs < batchStartMs + BACKFILL_BATCH_ROWS * MINUTE_MS;
          minuteMs += MINUTE_MS
        ) {
          const price = priceAt(coinCode, new Date(minuteMs));
          values.push({
            coinCode,
            bucketAt: new Date(minuteMs),
            priceUsd: price.priceUsd.toFixed(),
            source: `${price.basis}:${price.sources.join('+')}`,
          });
        }
        const inserted = await tx
          .insert(priceMinutes)
          .values(values)
          .onConflictDoNothing()
          .returning({ coinCode: priceMinutes.coinCode });
        written += inserted.length;
      }
    }
    if (written > 0) {
      await this.rollUpHours(tx, now);
      await this.rollUpDays(tx, now);
    }
    return written;
  }

  /**
   * Roll every complete hour that still has minute samples up into `price_hours` (open, high, low,
   * close, count) in one set-based statement; re-running recomputes the same bars.
   * @returns the number of hourly bars written.
   */
  async rollUpHours(tx: DbOrTx, now: Date): Promise<number> {
    const toMs = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const fromMs = toMs - this.retention.minuteMs;
    const result = await tx.execute(sql`
      INSERT INTO ${priceHours} (coin_code, bucket_at, open_usd, high_usd, low_usd, close_usd, sample_count)
      SELECT coin_code,
             date_bin('1 hour'::interval, bucket_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
             (array_agg(price_usd ORDER BY bucket_at ASC))[1],
             max(price_usd), min(price_usd),
             (array_agg(price_usd ORDER BY bucket_at DESC))[1],
             count(*)
      FROM ${priceMinutes}
      WHERE bucket_at >= ${new Date(fromMs).toISOString()}::timestamptz AND bucket_at < ${new Date(toMs).toISOString()}::timestamptz
      GROUP BY 1, 2
      ON CONFLICT (coin_code, bucket_at) DO UPDATE SET
        open_usd = excluded.open_usd, high_usd = excluded.high_usd, low_usd = excluded.low_usd,
        close_usd = excluded.close_usd, sample_count = excluded.sample_count
      RETURNING 1`);
    return rowsOf(result).length;
  }

  /**
   * Roll the last 3 complete UTC days up from the hourly bars into `price_days` in one set-based
   * statement (3 days, so a late hour still reaches its day); re-running recomputes the same bars.
   * @returns the number of daily bars written.
   */
  async rollUpDays(tx: DbOrTx, now: Date): Promise<number> {
    const toMs = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const fromMs = toMs - 3 * DAY_MS;
    const result = await tx.execute(sql`
      INSERT INTO ${priceDays} (coin_code, bucket_at, open_usd, high_usd, low_usd, close_usd, sample_count)
      SELECT coin_code,
             date_bin('1 day'::interval, bucket_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
             (array_agg(open_usd ORDER BY bucket_at ASC))[1],
             max(high_usd), min(low_usd),
             (array_agg(close_usd ORDER BY bucket_at DESC))[1],
             sum(sample_count)
      FROM ${priceHours}
      WHERE bucket_at >= ${new Date(fromMs).toISOString()}::timestamptz AND bucket_at < ${new Date(toMs).toISOString()}::timestamptz
      GROUP BY 1, 2
      ON CONFLICT (coin_code, bucket_at) DO UPDATE SET
        open_usd = excluded.open_usd, high_usd = excluded.high_usd, low_usd = excluded.low_usd,
        close_usd = excluded.close_usd, sample_count = excluded.sample_count
      RETURNING 1`);
    return rowsOf(result).length;
  }

  /**
   * Delete minute samples older than the minute retention and hourly bars older than the hour
   * retention, at most `RETENTION_BATCH_ROWS` of each per run. Daily bars are kept forever.
   * @returns how many rows of each were deleted.
   */
  async applyRetention(tx: DbOrTx, now: Date): Promise<{ minutes: number; hours: number }> {
    const prune = async (table: typeof priceMinutes | typeof priceHours, cutoff: Date) => {
      const result = await tx.execute(sql`
        DELETE FROM ${table} WHERE (coin_code, bucket_at) IN (
          SELECT coin_code, bucket_at FROM ${table} WHERE bucket_at < ${cutoff.toISOString()}::timestamptz LIMIT ${RETENTION_BATCH_ROWS}
        ) RETURNING 1`);
      return rowsOf(result).length;
    };
    return {
      minutes: await prune(priceMinutes, new Date(now.getTime() - this.retention.minuteMs)),
      hours: await prune(priceHours, new Date(now.getTime() - this.retention.hourMs)),
    };
  }

  /**
   * The stored daily closes (UTC days, `price_days`) of every market coin from the last day before
   * `fromDay` to `toDay` inclusive, oldest first per coin: what account statements value balances
   * with. Days without a bar are absent; the caller carries the last close forward.
   * @param fromDay, toDay UTC days `YYYY-MM-DD`.
   */
  async dailyClosesUsd(
    fromDay: string,
    toDay: string,
  ): Promise<Map<MarketCoinCode, { day: string; closeUsd: PriceDecimal }[]>> {
    const rows = await this.db
      .select({ coinCode: priceDays.coinCode, bucketAt: priceDays.bucketAt, closeUsd: priceDays.closeUsd })
      .from(priceDays)
      .where(
        and(
          gte(priceDays.bucketAt, new Date(Date.parse(`${fromDay}T00:00:00Z`) - 31 * DAY_MS)),
          lt(priceDays.bucketAt, new Date(Date.parse(`${toDay}T00:00:00Z`) + DAY_MS)),
        ),
      )
      .orderBy(asc(priceDays.coinCode), asc(priceDays.bucketAt))
      .limit(MARKET_COIN_CODES.length * 400);
    const closes = new Map<MarketCoinCode, { day: string; closeUsd: PriceDecimal }[]>();
    for (const row of rows) {
      const coin = row.coinCode as MarketCoinCode;
      const list = closes.get(coin) ?? [];
      list.push({ day: row.bucketAt.toISOString().slice(0, 10), closeUsd: new PriceDecimal(row.closeUsd) });
      closes.set(coin, list);
    }
    return closes;
  }

  /** Hourly bars of a coin from `since`, oldest first (operators and tests). */
  async hourlyBars(coinCode: MarketCoinCode, since: Date) {
    return this.db
      .select()
      .from(priceHours)
      .where(and(eq(priceHours.coinCode, coinCode), gte(priceHours.bucketAt, since)))
      .orderBy(asc(priceHours.bucketAt))
      .limit(24 * 90);
  }

  /**
   * `GET market/price/history` (the loan page's chart): the stored USD prices of `coinCode` over
   * `range` up to now, oldest first, the last price of each slot — 24h: 15-minute slots of
   * `price_minutes`; 7d: hourly and 30d: 4-hourly closes of `price_hours`; 1y: daily closes of
   * `price_days` (see `PRICE_HISTORY_SOURCES`). Slots without a sample are absent; at most
   * 400 points. Display only: prices are the stored decimals as text.
   */
  async history(coinCode: MarketCoinCode, range: PriceHistoryRange): Promise<PriceHistoryContent> {
    const source = PRICE_HISTORY_SOURCES[range];
    const now = this.options.clock.now();
    const since = new Date(now.getTime() - source.spanMs);
    const table = source.table === 'minutes' ? priceMinutes : source.table === 'hours' ? priceHours : priceDays;
    const price = 'priceUsd' in table ? table.priceUsd : table.closeUsd;
    const result = await this.db.execute(sql`
      SELECT slot, (array_agg(price ORDER BY bucket_at DESC))[1]::text AS price_usd
      FROM (
        SELECT ${table.bucketAt} AS bucket_at, ${price} AS price,
               date_bin(${`${source.stepMinutes} minutes`}::interval, ${table.bucketAt}, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS slot
        FROM ${table}
        WHERE ${table.coinCode} = ${coinCode}
          AND ${table.bucketAt} > ${since.toISOString()}::timestamptz
          AND ${table.bucketAt} <= ${now.toISOString()}::timestamptz
      ) samples
      GROUP BY slot
      ORDER BY slot
      LIMIT 400`);
    return {
      coinCode,
      range,
      stepMinutes: source.stepMinutes,
      points: rowsOf<{ slot: Date | string; price_usd: string }>(result).map((row) => ({
        time: new Date(row.slot).toISOString(),
        priceUsd: row.price_usd,
      })),
    };
  }

  /**
   * The scheduler jobs of the price history: sample every minute (backfilling once per process
   * first), roll up hours hourly and days daily, apply retention hourly.
   */
  jobs(): [JobDefinition<PromiseSettledResult<AggregatedPrice>[]>, ...JobDefinition[]] {
    return [
      {
        name: 'market.sample-prices',
        periodMs: MINUTE_MS,
        // The exchanges are asked before the transaction opens, so it never waits on the network.
        prepare: () => this.fetchAllPrices(),
        run: async ({ tx, periodStartAt, now }, fetched) => {
          if (!this.hasBackfilled) await this.backfill(tx, now);
          await this.sampleMinute(tx, periodStartAt, fetched);
          this.hasBackfilled = true;
        },
      },
      {
        name: 'market.roll-up-hours',
        periodMs: HOUR_MS,
        run: async ({ tx, now }) => void (await this.rollUpHours(tx, now)),
      },
      {
        name: 'market.roll-up-days',
        periodMs: DAY_MS,
        run: async ({ tx, now }) => void (await this.rollUpDays(tx, now)),
      },
      {
        name: 'market.retention',
        periodMs: HOUR_MS,
        run: async ({ tx, now }) => void (await this.applyRetention(tx, now)),
      },
    ];
  }
}
