import { z } from 'zod';
import { INSTANT_LENGTH_MAX } from '../limits.ts';
import { assetCodeSchema, decimalAmountSchema, withAmountMinor } from '../money.ts';

/**
 * The custody webhook (`POST custody/webhook`), signed with HMAC-SHA256 of the raw body in the
 * `X-Custody-Signature: sha256=<hex>` header. `sentAt` (ISO) must be within 5 minutes; `deliveryId`
 * is accepted once.
 */
export const custodyDepositEventSchema = withAmountMinor(
  z.object({
    type: z.literal('deposit'),
    network: z.string().min(1).max(32),
    coin: assetCodeSchema,
    address: z.string().min(1).max(128),
    txHash: z.string().min(1).max(128),
    outputIndex: z.number().int().min(0).max(1_000_000),
    amount: decimalAmountSchema,
    confirmations: z.number().int().min(0).max(1_000_000),
    /**
     * The address the coins came from (deposit-source screening), when custody knows it;
     * for a transaction with several inputs, any one of them (custody sends one report per input
     * address it wants screened). Optional: older reports have none.
     */
    fromAddress: z.string().min(1).max(128).optional(),
  }),
  (event) => event.coin,
);
export const custodyWithdrawalEventSchema = z.object({
  type: z.literal('withdrawal'),
  withdrawalId: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
  result: z.enum(['success', 'failure']),
  txHash: z.string().min(1).max(128).optional(),
  reason: z.string().max(500).optional(),
});
export const custodyWebhookBodySchema = z.object({
  deliveryId: z.string().min(1).max(128),
  sentAt: z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
  event: z.discriminatedUnion('type', [custodyDepositEventSchema, custodyWithdrawalEventSchema]),
});
/** The webhook body as custody sends it. */
export type CustodyWebhookBody = z.input<typeof custodyWebhookBodySchema>;
/** The webhook body as the service receives it: a deposit's `amountMinor` in place of `amount`. */
export type ParsedCustodyWebhookBody = z.output<typeof custodyWebhookBodySchema>;
/** Header carrying the webhook signature. */
export const HEADER_CUSTODY_SIGNATURE = 'X-Custody-Signature';
/** How far `sentAt` may be from the server's clock. */
export const CUSTODY_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** What the webhook answers: the deposit's state, or that the delivery was a duplicate. */
export const custodyWebhookContentSchema = z.object({
  isDuplicateDelivery: z.boolean(),
  depositId: z.string().nullable(),
  status: z.string().nullable(),
});

/**
 * Withdrawal limits by identity level, in USD: per rolling 24 hours and per calendar
 * month in Hong Kong time. Amounts are decimal strings with 2 decimals.
 */
export const withdrawLimitWindowSchema = z.object({
  /** The limit of the window. */
  limitUsd: z.string(),
  /** The USD value (at request time) of the withdrawals in the window that are not cancelled or failed. */
  usedUsd: z.string(),
  /** limitUsd − usedUsd, never below 0. */
  leftUsd: z.string(),
});
/** `GET wallet/withdraw/limits`: the caller's level and what is left of each window. */
export const withdrawLimitsContentSchema = z.object({
  level: z.number().int(),
  per24h: withdrawLimitWindowSchema,
  perMonth: withdrawLimitWindowSchema,
});
export type WithdrawLimitsContent = z.infer<typeof withdrawLimitsContentSchema>;
/** The window a withdrawal over the limit is refused for (`WITHDRAW_LIMIT_EXCEEDED` content). */
export const WITHDRAW_LIMIT_WINDOWS = ['24h', 'month'] as const;
export type WithdrawLimitWindow = (typeof WITHDRAW_LIMIT_WINDOWS)[number];
