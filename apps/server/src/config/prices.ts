import { z } from 'zod';
import { PRICE_SOURCE_NAMES, type PriceSettings, type PriceSourceName } from '../platform/prices/factory.ts';
import { emptyToUndefined, type NodeEnv } from './env-rules.ts';

/**
 * `PRICE_SOURCES`: `replay` alone, or a comma-separated list of exchanges (mixing real and replayed
 * prices is refused). Unset means `replay`, except in production, where it must be chosen.
 */
const priceSourcesSchema = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== ''),
    )
    .pipe(
      z
        .array(z.enum(PRICE_SOURCE_NAMES))
        .min(1)
        .refine((names) => !names.includes('replay') || names.length === 1, {
          error: 'replay cannot be combined with exchange sources',
        })
        .refine((names) => new Set(names).size === names.length, { error: 'lists a source twice' }),
    )
    .optional(),
);

/** Market prices: the sources, their limits and the replay of history. */
export const pricesEnvSchema = z.object({
  /** Where prices come from: `replay` (embedded default) or exchanges, e.g. `binance,coinbase,kraken`. */
  PRICE_SOURCES: priceSourcesSchema,
  /** A source observation older than this is left out of the median. */
  PRICE_MAX_AGE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** A source further than this from the median is left out (basis points; 200 = 2%). */
  PRICE_DEVIATION_BPS_MAX: z.coerce.number().int().min(1).max(5000).default(200),
  /** Stablecoin band around 1 USD; outside it the alarm is raised (basis points; 100 = ±1%). */
  PRICE_STABLECOIN_BAND_BPS: z.coerce.number().int().min(1).max(5000).default(100),
  /** Timeout of one exchange request. */
  PRICE_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  /** Directory of the replayed history files; default apps/server/data/prices. */
  PRICE_REPLAY_DATA_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The replayed day at PRICE_REPLAY_ANCHOR_AT. */
  PRICE_REPLAY_START: z.iso.date().default('2020-01-01'),
  /** The real instant at which the replay is at PRICE_REPLAY_START; fixed so that restarts and instances agree. */
  PRICE_REPLAY_ANCHOR_AT: z.iso.datetime({ offset: true }).default('2026-01-01T00:00:00Z'),
  /** Real minutes per replayed day: 1440 replays at the real pace, 60 plays one day per hour. */
  PRICE_REPLAY_DAY_MINUTES: z.coerce.number().min(0.1).max(525_600).default(1440),
});

/** The price variables after parsing. */
export type PricesEnv = z.infer<typeof pricesEnvSchema>;

/** The price variables' rules across variables. */
export function checkPricesEnv(env: PricesEnv & { NODE_ENV: NodeEnv }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.PRICE_SOURCES) {
    // Production must say where prices come from: replayed history is never a silent default there.
    ctx.addIssue({
      code: 'custom',
      path: ['PRICE_SOURCES'],
      message: 'is required in production (binance,coinbase,kraken, or replay for a demo)',
    });
  }
}

/** Price sources and their limits (platform/prices) from PRICE_*. */
export function pricesConfig(e: PricesEnv): PriceSettings {
  return {
    sources: (e.PRICE_SOURCES ?? ['replay']) as PriceSourceName[],
    maxAgeMs: e.PRICE_MAX_AGE_MS,
    deviationBpsMax: e.PRICE_DEVIATION_BPS_MAX,
    stablecoinBandBps: e.PRICE_STABLECOIN_BAND_BPS,
    httpTimeoutMs: e.PRICE_HTTP_TIMEOUT_MS,
    replay: {
      dataDir: e.PRICE_REPLAY_DATA_DIR,
      startDate: new Date(`${e.PRICE_REPLAY_START}T00:00:00Z`),
      anchorAt: new Date(e.PRICE_REPLAY_ANCHOR_AT),
      realMsPerDay: Math.round(e.PRICE_REPLAY_DAY_MINUTES * 60_000),
    },
  };
}
