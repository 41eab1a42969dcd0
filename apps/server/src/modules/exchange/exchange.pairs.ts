import type { MarketCoinCode } from '@meridian/contracts/market';

/** Stablecoins swap among themselves at a tight spread; anything involving BTC or ETH at a wider one. */
const STABLECOINS: readonly MarketCoinCode[] = ['USDT', 'USDC', 'USDE'];
export const SPREAD_BPS_STABLE = 10;
export const SPREAD_BPS_DEFAULT = 50;

/**
 * Order limits per `from` coin in minor units (BTC/ETH 8 decimals, stablecoins 6), about 10 USD to
 * 1,000,000 USD: refused below the minimum (132) and above the maximum (133).
 */
export const ORDER_LIMITS_MINOR: Record<MarketCoinCode, { minMinor: bigint; maxMinor: bigint }> = {
  BTC: { minMinor: 10_000n, maxMinor: 1_000_000_000n }, // 0.0001 .. 10 BTC
  ETH: { minMinor: 500_000n, maxMinor: 30_000_000_000n }, // 0.005 .. 300 ETH
  USDT: { minMinor: 10_000_000n, maxMinor: 1_000_000_000_000n }, // 10 .. 1,000,000
  USDC: { minMinor: 10_000_000n, maxMinor: 1_000_000_000_000n },
  USDE: { minMinor: 10_000_000n, maxMinor: 1_000_000_000_000n },
};

/** The default spread of a pair in basis points. */
export function defaultSpreadBps(from: MarketCoinCode, to: MarketCoinCode): number {
  return STABLECOINS.includes(from) && STABLECOINS.includes(to) ? SPREAD_BPS_STABLE : SPREAD_BPS_DEFAULT;
}

/** The key of a pair in `exchange_pairs`. */
export function pairKey(from: MarketCoinCode, to: MarketCoinCode): string {
  return `${from}/${to}`;
}
