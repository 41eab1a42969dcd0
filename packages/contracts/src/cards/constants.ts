import { z } from 'zod';
import { SHORT_TEXT_LENGTH_MAX } from '../limits.ts';
import { type AssetCode } from '../money.ts';

// ---------------------------------------------------------------- constants

/**
 * Physical cards one user may apply for or bind, not counting cancelled or returned ones (3):
 * the default of the back office's card settings, which the cards module reads (`card/config`).
 */
export const PHYSICAL_CARDS_PER_USER_MAX = 3;
/** Production fee of a physical card in USDT (10 USDT), as a wire amount: the settings' default (changed with four eyes). */
export const CARD_PRODUCTION_FEE_USDT = '10';
/** Wrong PIN entries in a row that block a card (5). */
export const CARD_PIN_TRIES_MAX = 5;
/** How long a PIN block lasts unless an operator lifts it (24 h). */
export const CARD_PIN_BLOCK_HOURS = 24;
/** How long a 3-D Secure (or "ask me above X") push confirmation stays valid (5 minutes). */
export const CARD_CONFIRMATION_TTL_MS = 5 * 60 * 1000;
/** How long a top-up quote holds its locked rate (30 s). */
export const CARD_TOPUP_QUOTE_TTL_MS = 30_000;
/** How long revealed card details may stay on screen (the reveal closes after 60 s). */
export const CARD_REVEAL_TTL_MS = 60_000;
/** Merchant refund timing: after 72 hours, or 31 days if the merchant has not started refund or settlement. */
export const CARD_REFUND_AFTER_HOURS = 72;
export const CARD_REFUND_FALLBACK_DAYS = 31;

/** Card networks (Mastercard or Visa). */
export const CARD_NETWORKS = ['VISA', 'MASTERCARD'] as const;
export const cardNetworkSchema = z.enum(CARD_NETWORKS);
export type CardNetwork = z.infer<typeof cardNetworkSchema>;

/** Card kinds (physical and virtual). */
export const CARD_KINDS = ['VIRTUAL', 'PHYSICAL'] as const;
export const cardKindSchema = z.enum(CARD_KINDS);
export type CardKind = z.infer<typeof cardKindSchema>;

/** Card currencies (USD native, EUR, JPY, GBP). */
export const CARD_CURRENCIES = ['USD', 'EUR', 'JPY', 'GBP'] as const satisfies readonly AssetCode[];
export const cardCurrencySchema = z.enum(CARD_CURRENCIES);
export type CardCurrency = z.infer<typeof cardCurrencySchema>;

/**
 * Stablecoins a card is topped up from (USDT, USDE, USDC; "EURE to EUR is 1:1"). EURE is
 * Monerium's EUR e-money token: it tops up a EUR card at exactly 1:1 (no rate, no quote risk) and
 * other cards through the rate table as EUR.
 */
export const CARD_TOPUP_COINS = ['USDT', 'USDC', 'USDE', 'EURE'] as const satisfies readonly AssetCode[];
export const cardTopUpCoinSchema = z.enum(CARD_TOPUP_COINS);
export type CardTopUpCoin = z.infer<typeof cardTopUpCoinSchema>;

/**
 * Card statuses: UNDER_REVIEW (applied physical card), PROCESSING (being produced),
 * SHIPPED, ACTIVE (usable; virtual cards start here), FROZEN (by operators), CANCELLED, EXPIRED,
 * RETURNED (undeliverable). A user's lock is a separate switch (`isLocked`), not a status.
 */
export const CARD_STATUSES = [
  'UNDER_REVIEW',
  'PROCESSING',
  'SHIPPED',
  'ACTIVE',
  'FROZEN',
  'CANCELLED',
  'EXPIRED',
  'RETURNED',
] as const;
export const cardStatusSchema = z.enum(CARD_STATUSES);
export type CardStatus = z.infer<typeof cardStatusSchema>;

/**
 * Why an authorisation was declined (the card FAQ: wrong PIN or expiry date, exceeded PIN tries, 3DS
 * problems, automated security declines; and insufficient funds, locked, limit exceeded).
 */
export const CARD_DECLINE_REASONS = [
  'INSUFFICIENT_FUNDS',
  'CARD_LOCKED',
  'CARD_NOT_ACTIVE',
  'WRONG_PIN',
  'PIN_TRIES_EXCEEDED',
  'WRONG_EXPIRY',
  'THREE_DS_FAILED',
  'LIMIT_EXCEEDED',
  'MERCHANT_CATEGORY_BLOCKED',
  'CURRENCY_NOT_SUPPORTED',
  'SUSPECTED_FRAUD',
] as const;
export const cardDeclineReasonSchema = z.enum(CARD_DECLINE_REASONS);
export type CardDeclineReason = z.infer<typeof cardDeclineReasonSchema>;

/**
 * Kinds of a card transaction: PURCHASE (an authorisation, then its clearing), REFUND (a merchant
 * credit), TOPUP (from a stablecoin), FEE (the production fee is charged to the wallet, listed here too).
 */
export const CARD_TRANSACTION_KINDS = ['PURCHASE', 'REFUND', 'TOPUP', 'FEE'] as const;
export const cardTransactionKindSchema = z.enum(CARD_TRANSACTION_KINDS);
export type CardTransactionKind = z.infer<typeof cardTransactionKindSchema>;

/**
 * Transaction statuses: PENDING_CONFIRMATION (waiting for the user's 3-D Secure / "ask me above X"
 * push, 5 minutes), AUTHORIZED (amount held), CLEARED (posted), REVERSED (hold released), DECLINED
 * (with `declineReason`), COMPLETED (top-ups, fees, refunds).
 */
export const CARD_TRANSACTION_STATUSES = [
  'PENDING_CONFIRMATION',
  'AUTHORIZED',
  'CLEARED',
  'REVERSED',
  'DECLINED',
  'COMPLETED',
] as const;
export const cardTransactionStatusSchema = z.enum(CARD_TRANSACTION_STATUSES);
export type CardTransactionStatus = z.infer<typeof cardTransactionStatusSchema>;

/** A merchant category code: four digits (ISO 18245). */
export const mccSchema = z
  .string()
  .max(4, { abort: true })
  .regex(/^\d{4}$/, { error: 'validation.cardMcc' });
/** A card PIN: four digits. */
export const cardPinSchema = z
  .string()
  .max(4, { abort: true })
  .regex(/^\d{4}$/, { error: 'validation.cardPin' });

/** A card number as a user types it (13–19 digits, spaces allowed). */
export const cardNumberInputSchema = z
  .string()
  .max(SHORT_TEXT_LENGTH_MAX)
  .transform((text) => text.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .max(19, { abort: true })
      .regex(/^\d{13,19}$/, { error: 'validation.cardNumber' }),
  );
