import {
  CARD_REFUND_AFTER_HOURS,
  CARD_REFUND_FALLBACK_DAYS,
  type Card,
  type CardTransaction,
} from '@meridian/contracts/cards';

/** A card amount of the API ("1234.5", in `currency`) for display by the one money formatter: "€1,234.50". */
export { money } from '../../../lib/money.ts';

/**
 * The card number as shown: the first 4 and last 4 digits, the middle hidden
 * ("4242 •••• •••• 4242"). Built from the card's own digits, so a server text is never needed.
 */
export function maskedNumber(card: Pick<Card, 'first4' | 'last4'>): string {
  return `${card.first4} •••• •••• ${card.last4}`;
}

/** A full card number in groups of four, for the 60-second reveal. */
export function groupedNumber(pan: string): string {
  return pan.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "MM/YY" of an expiry. */
export function expiryText(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;
}

/** Whether the card can pay, top up and be locked: active (a lock is a separate switch). */
export function isUsable(card: Pick<Card, 'status'>): boolean {
  return card.status === 'ACTIVE';
}

/**
 * Whether a transaction line shows the merchant refund timing (a refund is credited after
 * 72 hours, or after 31 days when the merchant has not started refund or settlement): purchases
 * that took money (held or cleared). The figures come from the contract's constants.
 */
export function refundTiming(
  transaction: Pick<CardTransaction, 'kind' | 'status'>,
): { afterHours: number; fallbackDays: number } | null {
  if (transaction.kind !== 'PURCHASE') return null;
  if (transaction.status !== 'AUTHORIZED' && transaction.status !== 'CLEARED') return null;
  return { afterHours: CARD_REFUND_AFTER_HOURS, fallbackDays: CARD_REFUND_FALLBACK_DAYS };
}

/** Seconds left until `deadline` (ISO) at `nowMs`, never below 0, rounded up. */
export function secondsLeft(deadline: string, nowMs: number): number {
  return Math.max(0, Math.ceil((Date.parse(deadline) - nowMs) / 1000));
}
