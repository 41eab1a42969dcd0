import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText, uuidString } from './limits.ts';
import { type MarketCoinCode, marketCoinCodeSchema } from './market.ts';
import { decimalAmountSchema, withAmountMinor } from './money.ts';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';

/** How long a firm quote holds (10 s). */
export const QUOTE_TTL_MS = 10_000;
/** Default maximum slippage of a flash exchange (0.5%). */
export const FLASH_SLIPPAGE_BPS_DEFAULT = 50;
/** Largest slippage a user may accept on a flash exchange (5%). */
export const FLASH_SLIPPAGE_BPS_MAX = 500;

/**
 * Which side the entered amount is on: `from` — the user gives exactly `amount`; `to` — the user
 * receives exactly `amount`.
 */
export const swapSideSchema = z.enum(['from', 'to']);
export type SwapSide = z.infer<typeof swapSideSchema>;

const pairFields = {
  from: marketCoinCodeSchema,
  to: marketCoinCodeSchema,
  amount: decimalAmountSchema,
  side: swapSideSchema.default('from'),
};
const distinctCoins = (value: { from: string; to: string }) => value.from !== value.to;
/** The coin the entered amount is in: `from` when the user gives it, `to` when they receive it. */
const amountCoin = (value: { from: MarketCoinCode; to: MarketCoinCode; side: SwapSide }) =>
  value.side === 'from' ? value.from : value.to;

/**
 * `GET /api/exchange/rate?from&to&amount&side`: ask for a firm quote. Parsed, the amount is
 * `amountMinor` of the side's coin (`withAmountMinor`).
 */
export const exchangeRateQuerySchema = withAmountMinor(
  z.object(pairFields).refine(distinctCoins, { error: 'validation.sameCoin', path: ['to'] }),
  amountCoin,
);
/** The quote query as a client sends it. */
export type ExchangeRateQuery = z.input<typeof exchangeRateQuerySchema>;
/** The quote query as the service receives it: `amountMinor` in place of `amount`. */
export type ParsedExchangeRateQuery = z.output<typeof exchangeRateQuerySchema>;

/**
 * A firm quote kept on the server. `rate` is units of `to` per one `from` after the spread
 * (`spreadBps`), a plain decimal string; `fromAmount`/`toAmount` are wire amounts with each coin's
 * precision (the user receives the rounded-down amount and pays the rounded-up one).
 */
export const exchangeQuoteSchema = z.object({
  quoteId: uuidString(),
  from: marketCoinCodeSchema,
  to: marketCoinCodeSchema,
  side: swapSideSchema,
  rate: z.string(),
  spreadBps: z.number().int(),
  fromAmount: z.string(),
  toAmount: z.string(),
  expiresAt: z.iso.datetime().max(INSTANT_LENGTH_MAX),
});
export type ExchangeQuote = z.infer<typeof exchangeQuoteSchema>;

/** `POST /api/exchange/swap`: execute a quote, exactly once. */
export const swapRequestSchema = z.object({ quoteId: uuidString() });
export type SwapRequest = z.infer<typeof swapRequestSchema>;

/** A swap that was executed (also a row of the swap history). */
export const swapRecordSchema = z.object({
  swapId: uuidString(),
  kind: z.enum(['SWAP', 'FLASH']),
  from: marketCoinCodeSchema,
  to: marketCoinCodeSchema,
  fromAmount: z.string(),
  toAmount: z.string(),
  rate: z.string(),
  executedAt: z.iso.datetime().max(INSTANT_LENGTH_MAX),
});
export type SwapRecord = z.infer<typeof swapRecordSchema>;

/**
 * `POST /api/exchange/flash`: convert at the live rate in one step. `expectedRate` is the rate the
 * user saw; the exchange is refused when the executable rate is more than `maxSlippageBps` worse.
 * `requestId` (a client-made UUID) makes a retry return the first result instead of swapping twice.
 */
export const flashExchangeRequestSchema = withAmountMinor(
  z
    .object({
      ...pairFields,
      expectedRate: decimalAmountSchema,
      maxSlippageBps: z.number().int().min(0).max(FLASH_SLIPPAGE_BPS_MAX).default(FLASH_SLIPPAGE_BPS_DEFAULT),
      requestId: uuidString(),
    })
    .refine(distinctCoins, { error: 'validation.sameCoin', path: ['to'] }),
  amountCoin,
);
/** The flash exchange as a client sends it. */
export type FlashExchangeRequest = z.input<typeof flashExchangeRequestSchema>;
/** The flash exchange as the service receives it: `amountMinor` in place of `amount`. */
export type ParsedFlashExchangeRequest = z.output<typeof flashExchangeRequestSchema>;

/**
 * `GET /api/exchange/swap/list`: the user's swaps, newest first, optionally for one coin (either
 * side) and executed within `createTime` — two ISO instants [from, to], repeated query parameter,
 * like the wallet history.
 */
export const swapListQuerySchema = pageQuerySchema.extend({
  coin: marketCoinCodeSchema.optional(),
  createTime: z
    .union([instantText(), boundedList(instantText(), 2)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(
      z.tuple([
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
      ]),
    )
    .optional(),
});
export type SwapListQuery = z.infer<typeof swapListQuerySchema>;
export const swapPageSchema = pageSchema(swapRecordSchema);

/**
 * Every exchange call (`exchange/rate`, `exchange/swap`; flash exchange and swap
 * history: docs/exchange.md) with its rules: the descriptors the server registers its routes from (see `endpoint.ts`).
 * Quoting needs a session; executing also needs basic identity verification.
 */
export const exchangeEndpoints = {
  quote: defineEndpoint({
    method: 'GET',
    path: '/exchange/rate',
    tag: 'exchange',
    summary: 'A firm quote for a swap, kept on the server for 10 seconds',
    auth: 'user',
    apiKeyScope: 'trade',
    query: exchangeRateQuerySchema,
    content: exchangeQuoteSchema,
    codes: ['AMOUNT_BELOW_MIN', 'AMOUNT_ABOVE_MAX', 'PRICE_UNAVAILABLE'],
  }),
  swap: defineEndpoint({
    method: 'POST',
    path: '/exchange/swap',
    tag: 'exchange',
    summary: 'Execute a quote, exactly once, through the ledger',
    auth: 'user',
    apiKeyScope: 'trade',
    kyc: 'basic',
    isIdempotent: true,
    body: swapRequestSchema,
    content: swapRecordSchema,
    codes: ['VERIFICATION_REQUIRED', 'NOT_FOUND', 'QUOTE_EXPIRED', 'CONFLICT', 'INSUFFICIENT_BALANCE'],
  }),
  flash: defineEndpoint({
    method: 'POST',
    path: '/exchange/flash',
    tag: 'exchange',
    summary: 'Convert at the live rate in one step, refused beyond the slippage limit',
    auth: 'user',
    kyc: 'basic',
    isIdempotent: true,
    idempotencyKeyField: 'requestId',
    body: flashExchangeRequestSchema,
    content: swapRecordSchema,
    codes: [
      'VERIFICATION_REQUIRED',
      'SLIPPAGE_EXCEEDED',
      'AMOUNT_BELOW_MIN',
      'AMOUNT_ABOVE_MAX',
      'PRICE_UNAVAILABLE',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
    ],
  }),
  listSwaps: defineEndpoint({
    method: 'GET',
    path: '/exchange/swap/list',
    tag: 'exchange',
    summary: "The user's swaps, newest first",
    auth: 'user',
    apiKeyScope: 'read',
    query: swapListQuerySchema,
    content: swapPageSchema,
  }),
};
