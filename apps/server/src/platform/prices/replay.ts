import { type Clock, systemClock } from '../clock/clock.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type HistoricalPriceSource,
  PriceDecimal,
  type PriceQuote,
  PriceSourceError,
  type PriceSymbol,
} from './types.ts';

/** One replayed day of a Yahoo daily file, prices in USD rounded to cents. */
export interface DailyBar {
  /** 00:00 UTC of the day, epoch milliseconds. */
  dayStartMs: number;
  open: PriceDecimal;
  high: PriceDecimal;
  low: PriceDecimal;
  close: PriceDecimal;
}

export const DAY_MS = 86_400_000;

/** The bundled history per coin (Yahoo Finance daily files; see apps/server/data/prices/README.md). */
export const REPLAY_FILES: Partial<Record<PriceSymbol, string>> = {
  BTC: 'btc_usd_daily_yahoo_2014-2024.csv',
  ETH: 'eth_usd_daily_yahoo_2017-2024.csv',
};

const YAHOO_DATE_PATTERN = /^(\d{4}-\d{2}-\d{2}) 00:00:00\+00:00$/;

/**
 * Yahoo writes prices as float32 values printed in full ("7929.1162109375" for 7929.12). Rounding
 * to cents recovers the published price; the float text is never used in arithmetic.
 */
function yahooPrice(text: string | undefined, line: number): PriceDecimal {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) throw new Error(`line ${line}: "${text}" is not a price`);
  return new PriceDecimal(text).toDecimalPlaces(2, PriceDecimal.ROUND_HALF_EVEN);
}

/**
 * Parse a Yahoo daily CSV (`Date,Open,High,Low,Close,Volume,Dividends,Stock Splits`, dates like
 * `2014-09-17 00:00:00+00:00`, ascending). High and low are widened where cent rounding left them
 * inside open or close, so every bar satisfies low ≤ open, close ≤ high.
 * @throws Error naming the line of a malformed row.
 */
export function parseYahooDailyCsv(text: string): DailyBar[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = lines[0]?.split(',');
  if (!header || header[0] !== 'Date' || header[1] !== 'Open' || header[4] !== 'Close')
    throw new Error('not a Yahoo daily CSV');
  const bars: DailyBar[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const cells = lines[index]!.split(',');
    const date = YAHOO_DATE_PATTERN.exec(cells[0] ?? '');
    if (!date) throw new Error(`line ${index + 1}: unexpected date "${cells[0]}"`);
    const open = yahooPrice(cells[1], index + 1);
    const close = yahooPrice(cells[4], index + 1);
    const high = PriceDecimal.max(yahooPrice(cells[2], index + 1), open, close);
    const low = PriceDecimal.min(yahooPrice(cells[3], index + 1), open, close);
    const dayStartMs = Date.parse(`${date[1]}T00:00:00Z`);
    const previous = bars.at(-1);
    if (previous && dayStartMs !== previous.dayStartMs + DAY_MS)
      throw new Error(`line ${index + 1}: days must follow each other`);
    bars.push({ dayStartMs, open, high, low, close });
  }
  if (bars.length === 0) throw new Error('the file holds no day');
  return bars;
}

/**
 * Find the directory of the bundled price files: `PRICE_REPLAY_DATA_DIR` when given, else
 * `apps/server/data/prices` (found by walking up from this file, so it works from the sources and
 * from `dist/main.js`). Nothing outside the repository is read.
 * @throws Error when none holds the BTC file.
 */
export function findPriceDataDir(configured?: string, start: string = dirname(fileURLToPath(import.meta.url))): string {
  const wanted = REPLAY_FILES.BTC!;
  if (configured) {
    if (existsSync(join(configured, wanted))) return resolve(configured);
    throw new Error(`PRICE_REPLAY_DATA_DIR ${configured} does not hold ${wanted}`);
  }
  let dir = start;
  for (let depth = 0; depth < 8; depth += 1) {
    for (const candidate of [join(dir, 'data', 'prices'), join(dir, 'apps', 'server', 'data', 'prices')]) {
      if (existsSync(join(candidate, wanted))) return resolve(candidate);
    }
    dir = dirname(dir);
  }
  throw new Error(`no price history (${wanted}) found above ${start}; set PRICE_REPLAY_DATA_DIR`);
}

const parsedFiles = new Map<string, DailyBar[]>();

/** Parse a history file once per process (each test app builds its own replay). */
function loadBars(path: string): DailyBar[] {
  let bars = parsedFiles.get(path);
  if (!bars) {
    bars = parseYahooDailyCsv(readFileSync(path, 'utf8'));
    parsedFiles.set(path, bars);
  }
  return bars;
}

/** Options of the replay. */
export interface ReplayOptions {
  /** Directory holding the files of `REPLAY_FILES`. */
  dataDir: string;
  /** The replayed day at `anchorAt` (its 00:00 UTC). */
  startDate: Date;
  /**
   * The real instant at which the replay is at `startDate` 00:00. A fixed instant (not the process
   * start) keeps every server process, and every restart, on the same replayed prices.
   */
  anchorAt: Date;
  /** Real milliseconds per replayed day: 86 400 000 replays at the real pace, 3 600 000 one day per hour. */
  realMsPerDay: number;
  clock?: Clock;
}

/** Intraday points per day between which the path's wiggle is interpolated (every 15 replayed minutes). */
const WIGGLE_POINTS_PER_DAY = 96;
/** The wiggle's reach as a share of the day's range; clamping keeps the path inside high and low. */
const WIGGLE_SHARE = new PriceDecimal('0.04');

/** 32-bit FNV-1a of a text: a cheap deterministic stand-in for randomness, the same in every process. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A deterministic fraction in [min, max] drawn from `key`, with 4 decimals, as an exact decimal. */
function drawFraction(key: string, min: string, max: string): PriceDecimal {
  const unit = new PriceDecimal(hash32(key) % 10_001).div(10_000);
  return new PriceDecimal(min).plus(new PriceDecimal(max).minus(min).times(unit));
}

/**
 * A price source that replays real daily history (BTC and ETH from Yahoo Finance) so that prices
 * move as real markets did. Within a day the path runs open → first extreme → second extreme →
 * close (low first on a rising day, high first on a falling one) at times drawn per day, with a
 * small deterministic wiggle, and always stays within that day's low and high. Replay time runs
 * at `realMsPerDay` real milliseconds per replayed day from `startDate` at `anchorAt`, and wraps
 * to the first day both coins share after the last one. Stablecoins are not replayed.
 */
export class ReplaySource implements HistoricalPriceSource {
  readonly name = 'replay';
  private readonly bars = new Map<PriceSymbol, DailyBar[]>();
  private readonly firstDayMs: number;
  private readonly endDayMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: ReplayOptions) {
    if (!(options.realMsPerDay > 0)) throw new Error('realMsPerDay must be positive');
    this.clock = options.clock ?? systemClock;
    for (const [symbol, file] of Object.entries(REPLAY_FILES) as [PriceSymbol, string][]) {
      this.bars.set(symbol, loadBars(join(options.dataDir, file)));
    }
    const all = [...this.bars.values()];
    this.firstDayMs = Math.max(...all.map((bars) => bars[0]!.dayStartMs));
    this.endDayMs = Math.min(...all.map((bars) => bars.at(-1)!.dayStartMs)) + DAY_MS;
  }

  supports(symbol: PriceSymbol): boolean {
    return this.bars.has(symbol);
  }

  async quote(symbol: PriceSymbol): Promise<PriceQuote> {
    return this.quoteAt(symbol, this.clock.now());
  }

  /** The replayed price at the real instant `at`. @throws PriceSourceError 'unsupported' for a coin without history. */
  quoteAt(symbol: PriceSymbol, at: Date): PriceQuote {
    return {
      symbol,
      priceUsd: this.priceAtReplayInstant(symbol, this.replayInstantMs(at)),
      observedAt: at,
      source: this.name,
    };
  }

  /** The replayed instant (epoch ms in the history) at the real instant `at`, wrapped into the shared range. */
  replayInstantMs(at: Date): number {
    const elapsedRealMs = at.getTime() - this.options.anchorAt.getTime();
    const raw = this.options.startDate.getTime() + Math.floor((elapsedRealMs * DAY_MS) / this.options.realMsPerDay);
    const span = this.endDayMs - this.firstDayMs;
    return this.firstDayMs + ((((raw - this.firstDayMs) % span) + span) % span);
  }

  /** The bar of the replayed day holding `replayMs`. */
  barAt(symbol: PriceSymbol, replayMs: number): DailyBar {
    const bars = this.bars.get(symbol);
    if (!bars) throw new PriceSourceError(this.name, 'unsupported', `no history for ${symbol}`);
    const index = Math.floor((replayMs - bars[0]!.dayStartMs) / DAY_MS);
    const bar = bars[index];
    if (!bar)
      throw new PriceSourceError(
        this.name,
        'unsupported',
        `no history for ${symbol} on ${new Date(replayMs).toISOString()}`,
      );
    return bar;
  }

  /** The price on the intraday path at the replayed instant `replayMs`, in cents, within the day's low and high. */
  priceAtReplayInstant(symbol: PriceSymbol, replayMs: number): PriceDecimal {
    const bar = this.barAt(symbol, replayMs);
    const dayKey = `${symbol}:${bar.dayStartMs}`;
    const t = new PriceDecimal(replayMs - bar.dayStartMs).div(DAY_MS);
    const isRising = bar.close.gte(bar.open);
    const waypoints: [PriceDecimal, PriceDecimal][] = [
      [new PriceDecimal(0), bar.open],
      [drawFraction(`${dayKey}:a`, '0.15', '0.45'), isRising ? bar.low : bar.high],
      [drawFraction(`${dayKey}:b`, '0.55', '0.85'), isRising ? bar.high : bar.low],
      [new PriceDecimal(1), bar.close],
    ];
    let base = bar.close;
    let distanceToWaypoint = new PriceDecimal(1);
    for (let index = 0; index < waypoints.length - 1; index += 1) {
      const [t0, p0] = waypoints[index]!;
      const [t1, p1] = waypoints[index + 1]!;
      if (t.gte(t0) && t.lte(t1)) {
        const weight = t1.eq(t0) ? new PriceDecimal(0) : t.minus(t0).div(t1.minus(t0));
        base = p0.plus(p1.minus(p0).times(weight));
        distanceToWaypoint = PriceDecimal.min(t.minus(t0), t1.minus(t));
        break;
      }
    }
    // The wiggle fades out near each waypoint (within 1/50 of a day) so open, extremes and close are hit exactly.
    const taper = PriceDecimal.min(1, distanceToWaypoint.times(50));
    const position = t.times(WIGGLE_POINTS_PER_DAY);
    const k = position.floor().toNumber();
    const within = position.minus(k);
    const point = (n: number) => new PriceDecimal((hash32(`${dayKey}:w${n}`) % 2001) - 1000).div(1000);
    const wiggle = point(k).plus(
      point(k + 1)
        .minus(point(k))
        .times(within),
    );
    const amplitude = bar.high.minus(bar.low).times(WIGGLE_SHARE);
    const price = base.plus(wiggle.times(amplitude).times(taper));
    return PriceDecimal.min(bar.high, PriceDecimal.max(bar.low, price)).toDecimalPlaces(
      2,
      PriceDecimal.ROUND_HALF_EVEN,
    );
  }
}
