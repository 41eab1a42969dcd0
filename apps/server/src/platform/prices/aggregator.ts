import { type Clock, systemClock } from '../clock/clock.ts';
import {
  type ExcludedSource,
  isHistoricalPriceSource,
  PriceDecimal,
  type PriceQuote,
  type PriceSource,
  PriceSourceError,
  type PriceSymbol,
  PriceUnavailableError,
  STABLECOIN_SYMBOLS,
} from './types.ts';

/** The platform's price of one coin. */
export interface AggregatedPrice {
  symbol: PriceSymbol;
  /** USD per one coin, exact. */
  priceUsd: PriceDecimal;
  /** The oldest observation that went into the price (the price is at least this fresh). */
  observedAt: Date;
  /**
   * 'median': median of the fresh, agreeing sources. 'peg': a stablecoin at 1 USD (inside its band,
   * or with no market observation). 'market': a stablecoin outside its band, priced at the market.
   */
  basis: 'median' | 'peg' | 'market';
  /** Sources whose price went into the median. */
  sources: string[];
  /** Sources left out, and why. */
  excluded: ExcludedSource[];
}

/** State of a stablecoin's peg as last observed. */
export interface PegStatus {
  symbol: PriceSymbol;
  /** The market median last observed, or null when no source prices the coin. */
  marketPriceUsd: string | null;
  /** |market − 1| in basis points, or null without an observation. */
  deviationBps: number | null;
  /** True while the market price is outside the band (the alarm is raised). */
  isAlarm: boolean;
  checkedAt: Date;
}

/** Something that logs like pino. */
export interface PriceLogger {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** Options of the aggregator (docs/architecture.md "Outside world"). */
export interface AggregatorOptions {
  /** A source whose observation is older than this is left out (30 s). */
  maxAgeMs?: number;
  /** A source further than this from the median is left out (200 bps = 2%). */
  deviationBpsMax?: number;
  /** Band around 1 USD within which a stablecoin is priced at the peg (100 bps = ±1%). */
  stablecoinBandBps?: number;
  /** Answers are reused for this long so that a burst of requests makes one round of calls (2 s). */
  cacheTtlMs?: number;
  clock?: Clock;
  logger?: PriceLogger;
  /** Called for every source failure, for metrics. */
  onSourceFailure?: (source: string, kind: string) => void;
}

/** What the rest of the server asks for prices. */
export interface PriceOracle {
  /**
   * The current USD price of `symbol`.
   * @throws PriceUnavailableError (business code 134) when no fresh source agrees.
   */
  price(symbol: PriceSymbol): Promise<AggregatedPrice>;
  /** The price at a past instant, when every source can tell it (the replay); undefined otherwise. */
  priceAt?(symbol: PriceSymbol, at: Date): AggregatedPrice;
  /** The last observed state of each stablecoin's peg. */
  pegStatuses(): PegStatus[];
  /** Names of the configured sources, in order. */
  readonly sourceNames: readonly string[];
}

const ONE = new PriceDecimal(1);
const BPS = 10_000;

/**
 * The median of `values`: the middle value, or the mean of the two middle values (exact: a
 * division by two of a terminating decimal terminates). Precondition: at least one value.
 */
export function medianOf(values: readonly PriceDecimal[]): PriceDecimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) throw new Error('median of nothing');
  return sorted.length % 2 === 1 ? sorted[middle]! : sorted[middle - 1]!.plus(sorted[middle]!).div(2);
}

/** |value − reference| / reference in basis points, rounded up (a borderline source is left out). */
export function deviationBps(value: PriceDecimal, reference: PriceDecimal): number {
  return value.minus(reference).abs().div(reference).times(BPS).ceil().toNumber();
}

/**
 * Aggregates several sources into the platform price: the median of the fresh sources, leaving out
 * a source that failed, one older than `maxAgeMs`, and one further than `deviationBpsMax` from the
 * median of the fresh ones (then the median of those kept). With none left it refuses
 * (`PriceUnavailableError`) rather than use a stale price. When sources disagree so much that none
 * is within the limit of their median, it refuses too.
 *
 * Stablecoins (USDT, USDC, USDE) track USD: priced at 1 while the market median stays within
 * `stablecoinBandBps` of 1 (or when no source prices the coin); outside the band an alarm is raised
 * (logged at error level, exposed through `pegStatuses` and the metrics) and the coin is priced at
 * the market, so a depegged coin is never bought at par.
 */
export class PriceAggregator implements PriceOracle {
  readonly sourceNames: readonly string[];
  private readonly maxAgeMs: number;
  private readonly deviationBpsMax: number;
  private readonly stablecoinBandBps: number;
  private readonly cacheTtlMs: number;
  private readonly clock: Clock;
  private readonly cache = new Map<PriceSymbol, { at: number; answer: Promise<AggregatedPrice> }>();
  private readonly pegs = new Map<PriceSymbol, PegStatus>();

  constructor(
    private readonly sources: readonly PriceSource[],
    private readonly options: AggregatorOptions = {},
  ) {
    this.sourceNames = sources.map((source) => source.name);
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
    this.deviationBpsMax = options.deviationBpsMax ?? 200;
    this.stablecoinBandBps = options.stablecoinBandBps ?? 100;
    this.cacheTtlMs = options.cacheTtlMs ?? 2_000;
    this.clock = options.clock ?? systemClock;
    if (sources.length > 0 && sources.every(isHistoricalPriceSource)) {
      this.priceAt = (symbol, at) => this.historicalPrice(symbol, at);
    }
  }

  priceAt?: (symbol: PriceSymbol, at: Date) => AggregatedPrice;

  async price(symbol: PriceSymbol): Promise<AggregatedPrice> {
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(symbol);
    if (cached && nowMs - cached.at < this.cacheTtlMs) return cached.answer;
    const answer = this.aggregate(symbol);
    this.cache.set(symbol, { at: nowMs, answer });
    // A refusal is not cached: the next caller asks the sources again.
    answer.catch(() => {
      if (this.cache.get(symbol)?.answer === answer) this.cache.delete(symbol);
    });
    return answer;
  }

  pegStatuses(): PegStatus[] {
    return [...this.pegs.values()];
  }

  private async aggregate(symbol: PriceSymbol): Promise<AggregatedPrice> {
    const supporting = this.sources.filter((source) => source.supports(symbol));
    const settled = await Promise.allSettled(supporting.map((source) => source.quote(symbol)));
    const quotes: PriceQuote[] = [];
    const excluded: ExcludedSource[] = [];
    settled.forEach((result, index) => {
      const source = supporting[index]!.name;
      if (result.status === 'fulfilled') {
        quotes.push(result.value);
        return;
      }
      const kind = result.reason instanceof PriceSourceError ? result.reason.kind : 'error';
      this.options.onSourceFailure?.(source, kind);
      excluded.push({
        source,
        reason: 'error',
        detail: result.reason instanceof Error ? result.reason.message : String(result.reason),
      });
    });
    return this.combine(symbol, quotes, excluded, supporting.length);
  }

  /** The aggregate of already-fetched quotes (the rules, without I/O; also used for history). */
  combine(
    symbol: PriceSymbol,
    quotes: readonly PriceQuote[],
    excludedBefore: readonly ExcludedSource[],
    supportingCount: number,
  ): AggregatedPrice {
    const now = this.clock.now();
    const excluded = [...excludedBefore];
    const fresh = quotes.filter((quote) => {
      const ageMs = now.getTime() - quote.observedAt.getTime();
      if (ageMs <= this.maxAgeMs) return true;
      excluded.push({ source: quote.source, reason: 'stale', detail: `observed ${ageMs} ms ago` });
      return false;
    });
    const isStablecoin = STABLECOIN_SYMBOLS.includes(symbol);
    if (fresh.length === 0) {
      if (isStablecoin && supportingCount === 0) return this.peg(symbol, null, now, [], excluded);
      if (isStablecoin) {
        // Market sources are configured but none answered: the peg stands, and the log says why.
        this.options.logger?.warn({ symbol, excluded }, 'stablecoin peg unverified: no fresh market price');
        return this.peg(symbol, null, now, [], excluded);
      }
      throw new PriceUnavailableError(symbol, excluded);
    }
    const firstMedian = medianOf(fresh.map((quote) => quote.priceUsd));
    const agreeing = fresh.filter((quote) => {
      const bps = deviationBps(quote.priceUsd, firstMedian);
      if (bps <= this.deviationBpsMax) return true;
      excluded.push({
        source: quote.source,
        reason: 'deviation',
        detail: `${bps} bps from the median ${firstMedian.toFixed()}`,
      });
      return false;
    });
    if (agreeing.length === 0) {
      this.options.logger?.error({ symbol, excluded }, 'price sources disagree; refusing to price');
      throw new PriceUnavailableError(symbol, excluded);
    }
    const priceUsd = medianOf(agreeing.map((quote) => quote.priceUsd));
    const observedAt = new Date(Math.min(...agreeing.map((quote) => quote.observedAt.getTime())));
    const sources = agreeing.map((quote) => quote.source);
    if (isStablecoin) return this.peg(symbol, priceUsd, observedAt, sources, excluded);
    return { symbol, priceUsd, observedAt, basis: 'median', sources, excluded };
  }

  /** Price a stablecoin against its peg, raising or clearing the band alarm. */
  private peg(
    symbol: PriceSymbol,
    market: PriceDecimal | null,
    observedAt: Date,
    sources: string[],
    excluded: ExcludedSource[],
  ): AggregatedPrice {
    const now = this.clock.now();
    if (market === null) {
      const previous = this.pegs.get(symbol);
      this.pegs.set(symbol, {
        symbol,
        marketPriceUsd: null,
        deviationBps: null,
        isAlarm: previous?.isAlarm ?? false,
        checkedAt: now,
      });
      return { symbol, priceUsd: ONE, observedAt, basis: 'peg', sources, excluded };
    }
    const bps = deviationBps(market, ONE);
    const isAlarm = bps > this.stablecoinBandBps;
    const wasAlarm = this.pegs.get(symbol)?.isAlarm ?? false;
    this.pegs.set(symbol, { symbol, marketPriceUsd: market.toFixed(), deviationBps: bps, isAlarm, checkedAt: now });
    if (isAlarm) {
      this.options.logger?.error(
        { symbol, marketPriceUsd: market.toFixed(), deviationBps: bps, bandBps: this.stablecoinBandBps },
        'stablecoin outside its band',
      );
      return { symbol, priceUsd: market, observedAt, basis: 'market', sources, excluded };
    }
    if (wasAlarm)
      this.options.logger?.warn(
        { symbol, marketPriceUsd: market.toFixed(), deviationBps: bps },
        'stablecoin back inside its band',
      );
    return { symbol, priceUsd: ONE, observedAt, basis: 'peg', sources, excluded };
  }

  private historicalPrice(symbol: PriceSymbol, at: Date): AggregatedPrice {
    const supporting = this.sources.filter((source) => source.supports(symbol)).filter(isHistoricalPriceSource);
    if (supporting.length === 0 && STABLECOIN_SYMBOLS.includes(symbol)) {
      return { symbol, priceUsd: ONE, observedAt: at, basis: 'peg', sources: [], excluded: [] };
    }
    if (supporting.length === 0) throw new PriceUnavailableError(symbol, []);
    const quotes = supporting.map((source) => source.quoteAt(symbol, at));
    const priceUsd = medianOf(quotes.map((quote) => quote.priceUsd));
    return {
      symbol,
      priceUsd,
      observedAt: at,
      basis: 'median',
      sources: quotes.map((quote) => quote.source),
      excluded: [],
    };
  }
}
