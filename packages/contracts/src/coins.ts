/**
 * The coins of the home market table, in display order. Kept free of
 * zod so the home page can import it without the schema library (home-route budget).
 */
export const MARKET_COIN_CODES = ['BTC', 'ETH', 'USDT', 'USDC', 'USDE'] as const;
export type MarketCoinCode = (typeof MARKET_COIN_CODES)[number];
