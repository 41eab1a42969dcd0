import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CardDeclineReason, CardNetwork } from '@meridian/contracts/cards';

/**
 * The issuer-processor adapter (docs/architecture.md "Outside world"), in the shape real
 * processors offer (Marqeta, Lithic): cards are created and managed by token; full card details only
 * through a short-lived reveal; the PIN is set at the processor and checked there; authorisations
 * come as signed webhooks that Meridian answers (just-in-time funding), followed by clearing,
 * reversal and refund events. The built-in sandbox (`cards.sandbox.ts`) is the embedded default.
 */
export interface IssuerProcessor {
  /** Issue a card: the token and what Meridian may keep (first 4, last 4, expiry). */
  createCard(input: { network: CardNetwork; cardholderName: string }): Promise<IssuedCard>;
  /**
   * Claim a pre-activated physical card by its number and activation code for `cardholderName`;
   * null when they do not match a card in stock.
   */
  claimStockCard(input: { pan: string; activationCode: string }): Promise<IssuedCard | null>;
  /** The full details, for the reveal only (never stored by Meridian). */
  revealCard(token: string): Promise<{ pan: string; cvv: string; expiryMonth: number; expiryYear: number }>;
  /** Set or change the PIN (kept only at the processor). */
  setPin(token: string, pin: string): Promise<void>;
  /** Mirror the user's lock at the processor. */
  setLocked(token: string, isLocked: boolean): Promise<void>;
  /** Tell the processor the final answer of an authorisation that waited for the user's confirmation. */
  completeAuthorization(
    authorizationId: string,
    answer: { decision: 'APPROVED' | 'DECLINED'; declineReason: CardDeclineReason | null },
  ): Promise<void>;
}

/** What the processor answers when it issues a card. */
export interface IssuedCard {
  token: string;
  network: CardNetwork;
  first4: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  cardholderName: string;
}

/** The signature header value of a processor webhook body: `sha256=<hex HMAC-SHA256>`. */
export function signCardWebhook(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Whether `header` is the signature of `rawBody` under `secret` (constant-time). */
export function isCardWebhookSignatureValid(secret: string, rawBody: string, header: string | undefined): boolean {
  const expected = Buffer.from(signCardWebhook(secret, rawBody));
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
