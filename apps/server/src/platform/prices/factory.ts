import { PriceAggregator, type PriceLogger, type PriceOracle } from './aggregator.ts';
import { BinanceSource } from './binance.ts';
import { CoinbaseSource } from './coinbase.ts';
import type { FetchFn } from './http.ts';
import { KrakenSource } from './kraken.ts';
import { findPriceDataDir, ReplaySource } from './replay.ts';
import { type Clock, systemClock } from '../clock/clock.ts';
import type { PriceSource, PriceSymbol } from './types.ts';

/** Names accepted in `PRICE_SOURCES`. */
export const PRICE_SOURCE_NAMES = ['replay', 'binance', 'coinbase', 'kraken'] as const;
export type PriceSourceName = (typeof PRICE_SOURCE_NAMES)[number];

/** Price settings, as `config.ts` reads them from the environment. */
export interface PriceSettings {
  sources: PriceSourceName[];
  maxAgeMs: number;
  deviationBpsMax: number;
  stablecoinBandBps: number;
  httpTimeoutMs: number;
  replay: { dataDir: string | undefined; startDate: Date; anchorAt: Date; realMsPerDay: number };
}

/** What `createPriceOracle` needs besides the settings. */
export interface PriceOracleDeps {
  clock?: Clock;
  logger?: PriceLogger;
  fetchFn?: FetchFn;
  onSourceFailure?: (source: string, kind: string) => void;
}

/** Build one configured source. */
function createSource(name: PriceSourceName, settings: PriceSettings, deps: PriceOracleDeps): PriceSource {
  const clock = deps.clock ?? systemClock;
  const http = { timeoutMs: settings.httpTimeoutMs, clock, ...(deps.fetchFn ? { fetchFn: deps.fetchFn } : {}) };
  switch (name) {
    case 'replay':
      return new ReplaySource({ ...settings.replay, dataDir: findPriceDataDir(settings.replay.dataDir), clock });
    case 'binance':
      return new BinanceSource(http);
    case 'coinbase':
      return new CoinbaseSource(http);
    case 'kraken':
      return new KrakenSource(http);
  }
}

/** The aggregator over the sources named in the settings (`PRICE_SOURCES`). */
export function createPriceOracle(settings: PriceSettings, deps: PriceOracleDeps = {}): PriceOracle {
  const sources = settings.sources.map((name) => createSource(name, settings, deps));
  return new PriceAggregator(sources, {
    maxAgeMs: settings.maxAgeMs,
    deviationBpsMax: settings.deviationBpsMax,
    stablecoinBandBps: settings.stablecoinBandBps,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onSourceFailure ? { onSourceFailure: deps.onSourceFailure } : {}),
  });
}

/**
 * Whether any exchange source answers for `probeSymbol` (a start-up check). `main.ts` falls back to
 * the replay outside production when none does, so a machine without internet still shows prices.
 */
export async function anyExchangeReachable(
  settings: PriceSettings,
  deps: PriceOracleDeps = {},
  probeSymbol: PriceSymbol = 'BTC',
): Promise<boolean> {
  const exchanges = settings.sources
    .filter((name) => name !== 'replay')
    .map((name) => createSource(name, settings, deps));
  const results = await Promise.allSettled(exchanges.map((source) => source.quote(probeSymbol)));
  return results.some((result) => result.status === 'fulfilled');
}
