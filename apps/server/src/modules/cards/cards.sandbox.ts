import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { CardDeclineReason, CardNetwork, CardWebhookAnswer, CardWebhookBody } from '@meridian/contracts/cards';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { SecretBox } from '../../platform/security/secret-box.ts';
import { generatePan } from './cards.bins.ts';
import { type IssuedCard, type IssuerProcessor, signCardWebhook } from './cards.processor.ts';
import { sandboxAuthorizations, sandboxCardVault } from './cards.tables.ts';

/** How many years a sandbox card is valid. */
const CARD_VALID_YEARS = 4;

/** Delivers a signed webhook body to Meridian and returns its answer (in-process in the sandbox). */
export type WebhookDelivery = (rawBody: string, signature: string) => Promise<CardWebhookAnswer>;

/** What a merchant (the `npm run card` CLI) asks the sandbox network to authorise. */
export interface SandboxAuthorizeInput {
  token: string;
  amount: string;
  currency: string;
  merchantName: string;
  mcc: string;
  isOnline: boolean;
  isThreeDs: boolean;
  /** The PIN typed at the terminal, checked by the processor; absent for card-not-present. */
  pin?: string | undefined;
  /** The expiry the customer typed (MM/YY); checked by the processor when given. */
  expiry?: string | undefined;
}

/**
 * The built-in sandbox issuer processor (docs/architecture.md "Outside world"): issues cards in real BIN
 * ranges with valid Luhn digits, keeps PAN, CVV and PIN sealed in its own table
 * (`sandbox_card_vault`, AES-256-GCM under CARD_VAULT_KEY), and plays the card network for the
 * merchant CLI: each authorisation, clearing, reversal and refund becomes a webhook body signed
 * with HMAC-SHA256 and delivered to Meridian's webhook handler (the same verification path as an
 * external processor's HTTP call).
 */
export class SandboxProcessor implements IssuerProcessor {
  private readonly vault: SecretBox;
  private deliver: WebhookDelivery | undefined;

  constructor(private readonly deps: { db: Db; vaultKey: string; webhookSecret: string; now: () => Date }) {
    this.vault = new SecretBox(deps.vaultKey, 'sandbox-card-vault');
  }

  /** Connect the sandbox to Meridian's webhook handler (done once the cards service exists). */
  connect(deliver: WebhookDelivery): void {
    this.deliver = deliver;
  }

  private panHash(pan: string): string {
    return createHmac('sha256', this.deps.vaultKey).update(`pan:${pan}`).digest('hex');
  }

  private expiry(): { expiryMonth: number; expiryYear: number } {
    const now = this.deps.now();
    return { expiryMonth: now.getUTCMonth() + 1, expiryYear: now.getUTCFullYear() + CARD_VALID_YEARS };
  }

  private async insertCard(
    network: CardNetwork,
    cardholderName: string,
    state: 'ISSUED' | 'STOCK',
    activationCode?: string,
  ): Promise<IssuedCard & { pan: string }> {
    const pan = generatePan(network);
    const cvv = String(randomInt(1000)).padStart(3, '0');
    const token = `sbx_card_${randomUUID()}`;
    const { expiryMonth, expiryYear } = this.expiry();
    await this.deps.db.insert(sandboxCardVault).values({
      token,
      network,
      panSealed: this.vault.seal(pan),
      panHash: this.panHash(pan),
      cvvSealed: this.vault.seal(cvv),
      expiryMonth,
      expiryYear,
      cardholderName,
      state,
      activationCodeHash: activationCode ? this.panHash(`code:${pan}:${activationCode}`) : null,
    });
    return {
      token,
      network,
      first4: pan.slice(0, 4),
      last4: pan.slice(-4),
      expiryMonth,
      expiryYear,
      cardholderName,
      pan,
    };
  }

  async createCard(input: { network: CardNetwork; cardholderName: string }): Promise<IssuedCard> {
    const { pan: _pan, ...issued } = await this.insertCard(input.network, input.cardholderName, 'ISSUED');
    return issued;
  }

  /**
   * Put a pre-activated physical card in stock (what a corporate customer receives in the post):
   * its number and a 6-digit activation code, shown once.
   */
  async stockCard(network: CardNetwork): Promise<{ pan: string; activationCode: string; token: string }> {
    const activationCode = String(randomInt(1_000_000)).padStart(6, '0');
    const card = await this.insertCard(network, 'CARDHOLDER', 'STOCK', activationCode);
    return { pan: card.pan, activationCode, token: card.token };
  }

  async claimStockCard(input: { pan: string; activationCode: string }): Promise<IssuedCard | null> {
    const [row] = await this.deps.db
      .select()
      .from(sandboxCardVault)
      .where(eq(sandboxCardVault.panHash, this.panHash(input.pan)));
    if (!row || row.state !== 'STOCK') return null;
    if (row.activationCodeHash !== this.panHash(`code:${input.pan}:${input.activationCode}`)) return null;
    const claimed = await this.deps.db
      .update(sandboxCardVault)
      .set({ state: 'ISSUED' })
      .where(eq(sandboxCardVault.token, row.token))
      .returning({ token: sandboxCardVault.token });
    if (claimed.length === 0) return null;
    return {
      token: row.token,
      network: row.network as CardNetwork,
      first4: input.pan.slice(0, 4),
      last4: input.pan.slice(-4),
      expiryMonth: row.expiryMonth,
      expiryYear: row.expiryYear,
      cardholderName: row.cardholderName,
    };
  }

  private async vaultRow(token: string) {
    const [row] = await this.deps.db.select().from(sandboxCardVault).where(eq(sandboxCardVault.token, token));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  async revealCard(token: string): Promise<{ pan: string; cvv: string; expiryMonth: number; expiryYear: number }> {
    const row = await this.vaultRow(token);
    return {
      pan: this.vault.open(row.panSealed),
      cvv: this.vault.open(row.cvvSealed),
      expiryMonth: row.expiryMonth,
      expiryYear: row.expiryYear,
    };
  }

  async setPin(token: string, pin: string): Promise<void> {
    await this.vaultRow(token);
    await this.deps.db
      .update(sandboxCardVault)
      .set({ pinSealed: this.vault.seal(pin) })
      .where(eq(sandboxCardVault.token, token));
  }

  async setLocked(token: string, isLocked: boolean): Promise<void> {
    await this.deps.db.update(sandboxCardVault).set({ isLocked }).where(eq(sandboxCardVault.token, token));
  }

  async completeAuthorization(
    authorizationId: string,
    answer: { decision: 'APPROVED' | 'DECLINED'; declineReason: CardDeclineReason | null },
  ): Promise<void> {
    await this.deps.db
      .update(sandboxAuthorizations)
      .set({ status: answer.decision, declineReason: answer.declineReason, updatedAt: this.deps.now() })
      .where(eq(sandboxAuthorizations.id, authorizationId));
  }

  // ------------------------------------------------------------------ the network side (merchant CLI)

  /** Sign `event` as a webhook body and deliver it to Meridian. */
  private async send(event: CardWebhookBody['event']): Promise<CardWebhookAnswer> {
    if (!this.deliver) throw new Error('sandbox processor is not connected to the webhook handler');
    const body: CardWebhookBody = { deliveryId: randomUUID(), sentAt: this.deps.now().toISOString(), event };
    const raw = JSON.stringify(body);
    return this.deliver(raw, signCardWebhook(this.deps.webhookSecret, raw));
  }

  /**
   * A merchant's authorisation: the PIN and expiry are checked here (the processor's job), then
   * Meridian decides. Returns the authorisation id and Meridian's answer.
   */
  async authorize(input: SandboxAuthorizeInput): Promise<{ authorizationId: string } & CardWebhookAnswer> {
    const row = await this.vaultRow(input.token);
    let pinResult: 'NOT_PRESENT' | 'CORRECT' | 'WRONG' = 'NOT_PRESENT';
    if (input.pin !== undefined)
      pinResult = row.pinSealed !== null && this.vault.open(row.pinSealed) === input.pin ? 'CORRECT' : 'WRONG';
    const expected = `${String(row.expiryMonth).padStart(2, '0')}/${String(row.expiryYear % 100).padStart(2, '0')}`;
    const isExpiryCorrect = input.expiry === undefined || input.expiry === expected;
    const authorizationId = `sbx_auth_${randomBytes(12).toString('hex')}`;
    await this.deps.db.insert(sandboxAuthorizations).values({
      id: authorizationId,
      token: input.token,
      amount: input.amount,
      currency: input.currency,
      merchantName: input.merchantName,
      mcc: input.mcc,
      status: 'PENDING',
    });
    const answer = await this.send({
      type: 'authorization',
      authorizationId,
      cardToken: input.token,
      amount: input.amount,
      currency: input.currency,
      merchantName: input.merchantName,
      mcc: input.mcc,
      isOnline: input.isOnline,
      isThreeDs: input.isThreeDs,
      pinResult,
      isExpiryCorrect,
    });
    await this.deps.db
      .update(sandboxAuthorizations)
      .set({ status: answer.decision, declineReason: answer.declineReason, updatedAt: this.deps.now() })
      .where(eq(sandboxAuthorizations.id, authorizationId));
    return { authorizationId, ...answer };
  }

  /** The sandbox's record of an authorisation (the CLI polls it while a 3-D Secure confirmation waits). */
  async authorization(authorizationId: string) {
    const [row] = await this.deps.db
      .select()
      .from(sandboxAuthorizations)
      .where(eq(sandboxAuthorizations.id, authorizationId));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  /** Clear an authorisation, at its amount or another final one (`amount` in `currency`). */
  async clear(authorizationId: string, amount?: string, currency?: string): Promise<CardWebhookAnswer> {
    const auth = await this.authorization(authorizationId).catch(() => null);
    const answer = await this.send({
      type: 'clearing',
      authorizationId,
      cardToken: auth?.token ?? 'unknown',
      amount: amount ?? auth?.amount ?? '0',
      currency: currency ?? auth?.currency ?? 'USD',
    });
    if (auth) await this.setStatus(authorizationId, 'CLEARED');
    return answer;
  }

  /** Reverse (cancel) an authorisation: the hold is released. */
  async reverse(authorizationId: string): Promise<CardWebhookAnswer> {
    const auth = await this.authorization(authorizationId);
    const answer = await this.send({ type: 'reversal', authorizationId, cardToken: auth.token });
    await this.setStatus(authorizationId, 'REVERSED');
    return answer;
  }

  /** A merchant refund of `amount` on the card of `authorizationId`. */
  async refund(authorizationId: string, amount: string, currency?: string): Promise<CardWebhookAnswer> {
    const auth = await this.authorization(authorizationId);
    return this.send({
      type: 'refund',
      refundId: `sbx_refund_${randomBytes(12).toString('hex')}`,
      authorizationId,
      cardToken: auth.token,
      amount,
      currency: currency ?? auth.currency,
      merchantName: auth.merchantName,
    });
  }

  private async setStatus(authorizationId: string, status: string): Promise<void> {
    await this.deps.db
      .update(sandboxAuthorizations)
      .set({ status, updatedAt: this.deps.now() })
      .where(eq(sandboxAuthorizations.id, authorizationId));
  }
}
