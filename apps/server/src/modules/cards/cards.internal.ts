import {
  CARD_CURRENCIES,
  CARD_PRODUCTION_FEE_USDT,
  CARD_REFUND_AFTER_HOURS,
  CARD_REFUND_FALLBACK_DAYS,
  type Card,
  type CardCurrency,
  type CardDeclineReason,
  type CardKind,
  type CardNetwork,
  type CardStatus,
  type CardTransaction,
  type CardTransactionKind,
  type CardTransactionStatus,
  type CardTopUpCoin,
  PHYSICAL_CARDS_PER_USER_MAX,
} from '@meridian/contracts/cards';
import type { LocalizedText } from '@meridian/contracts/locale';
import {
  ASSET_PRECISION,
  type AssetCode,
  isAssetCode,
  parseAmountMinor,
  toDecimalString,
} from '@meridian/contracts/money';
import Decimal from 'decimal.js';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { cardAccount } from '../ledger/ledger.types.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import type { IssuerProcessor } from './cards.processor.ts';
import { type CardDefaultLimitsRow, cardSettings, type cardTransactions, cards } from './cards.tables.ts';
import type { SettingsWorkflow } from '../admin/admin.types.ts';

/** What the cards module needs from other modules and the platform (by their services). */
export interface CardsDeps {
  db: Db;
  processor: IssuerProcessor;
  /** HMAC key of the processor's webhooks. */
  webhookSecret: string;
  identity: {
    /** ACCOUNT_FROZEN (152) for a frozen account: it moves no money. */
    assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
  };
  /** Whether the user's PRO account is approved (the corporate module; employee cards, `cards.corporate.ts`). */
  corporate: { isApprovedPro(userId: string): Promise<boolean> };
  /** Whether a stablecoin is inside its 1:1 band now (the price pipeline, docs/prices.md). */
  isAtPar(coin: CardTopUpCoin): Promise<boolean>;
  /** An in-app message with push (3-D Secure confirmations, applications, top-ups), in the caller's transaction. */
  notify(input: CardMessageInput, tx: DbOrTx): Promise<unknown>;
  /**
   * Rewrite the user's messages linked to `links` once their question is answered
   * (`NoticeService.resolveMessages`), in the caller's transaction: a decided 3-D Secure confirmation.
   */
  resolveMessages(
    userId: string,
    links: readonly string[],
    resolution: { key: string; title: LocalizedText; body: LocalizedText; link: string | null },
    tx: DbOrTx,
  ): Promise<unknown>;
  /** Applied settings changes of a kind (the admin module's settings workflow): the rate table's history. */
  settingsHistory: Pick<SettingsWorkflow, 'appliedHistory'>;
  now(): Date;
  log: { info(detail: object, message: string): void; warn(detail: object, message: string): void };
}

/** A message of the cards module: what the notices module takes. */
export type CardMessageInput = NotifyInput;

/** How a payment waiting for confirmation ended: approved and held, declined, or lapsed unanswered. */
export type CardConfirmationOutcome = 'APPROVED' | 'DECLINED' | 'EXPIRED';

/** The security check of a sensitive call (platform/http/auth `SensitiveAction`); `NO_FACTORS` outside HTTP. */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}
export const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

export type CardRow = typeof cards.$inferSelect;
export type CardTransactionRow = typeof cardTransactions.$inferSelect;

/** The settings row's id. */
export const SETTINGS_ID = 1;

/**
 * Default limits of a new card (per transaction, day, month; changed per card only through
 * a limit-change request), the settings' starting values as decimal strings of each currency: 5,000 /
 * 10,000 / 50,000 of USD, EUR or GBP; 750,000 / 1,500,000 / 7,500,000 JPY. Operators change them in
 * the back office (`card_settings.default_limits`).
 */
export const DEFAULT_LIMITS: Record<CardCurrency, CardDefaultLimitsRow> = {
  USD: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
  EUR: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
  GBP: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
  JPY: { perTransaction: '750000', daily: '1500000', monthly: '7500000' },
};

/** The limits a new card in `currency` starts with, minor units, from the settings row (defaults where absent). */
export function defaultLimitsMinor(
  settings: Pick<CardSettingsRow, 'defaultLimits'>,
  currency: CardCurrency,
): { perTransaction: bigint; daily: bigint; monthly: bigint } {
  const limits = settings.defaultLimits[currency] ?? DEFAULT_LIMITS[currency];
  return {
    perTransaction: parseAmountMinor(limits.perTransaction, currency),
    daily: parseAmountMinor(limits.daily, currency),
    monthly: parseAmountMinor(limits.monthly, currency),
  };
}

/**
 * The default rate table (units of each card currency per 1 USD), seeded into `card_settings` and
 * changed there by operators: a configured table in place of live FX sources (docs/cards.md).
 */
export const DEFAULT_FX_RATES: Record<CardCurrency, string> = { USD: '1', EUR: '0.92', GBP: '0.79', JPY: '150' };

/** The default promotion: no virtual-card fee until the end of June 2027. */
export const DEFAULT_PROMOTION_ENDS_AT = new Date('2027-06-30T16:00:00Z');

export const money = (minor: bigint, asset: AssetCode): string => toDecimalString(minor, asset);

export function maskNumber(first4: string, last4: string): string {
  return `${first4} •••• •••• ${last4}`;
}

export const availableAccount = (row: Pick<CardRow, 'id' | 'currency'>) =>
  cardAccount(row.id, 'CARD_AVAILABLE', row.currency as CardCurrency);
export const heldAccount = (row: Pick<CardRow, 'id' | 'currency'>) =>
  cardAccount(row.id, 'CARD_HELD', row.currency as CardCurrency);

/** A card as the holder sees it, with its balances read through `db`. */
export async function toCard(db: DbOrTx, row: CardRow, now: Date): Promise<Card> {
  const [availableMinor, heldMinor] = await Promise.all([
    accountBalance(db, availableAccount(row)),
    accountBalance(db, heldAccount(row)),
  ]);
  const currency = row.currency as CardCurrency;
  return {
    id: row.id,
    kind: row.kind as CardKind,
    network: row.network as CardNetwork,
    currency,
    status: row.status as CardStatus,
    isLocked: row.isLocked,
    first4: row.first4,
    last4: row.last4,
    maskedNumber: maskNumber(row.first4, row.last4),
    expiryMonth: row.expiryMonth,
    expiryYear: row.expiryYear,
    cardholderName: row.cardholderName,
    employeeName: row.employeeName,
    balance: money(availableMinor, currency),
    held: money(heldMinor, currency),
    pinBlockedUntil: row.pinBlockedUntil && row.pinBlockedUntil > now ? row.pinBlockedUntil.toISOString() : null,
    isPinSet: row.isPinSet,
    isBound: row.isBound,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toTransaction(row: CardTransactionRow, currency: CardCurrency): CardTransaction {
  const isSettledPurchase = row.kind === 'PURCHASE' && (row.status === 'AUTHORIZED' || row.status === 'CLEARED');
  return {
    id: row.id,
    kind: row.kind as CardTransactionKind,
    status: row.status as CardTransactionStatus,
    amount: money(row.amountMinor, currency),
    currency,
    originalAmount: row.originalAmount,
    originalCurrency: row.originalCurrency,
    merchantName: row.merchantName,
    mcc: row.mcc,
    declineReason: row.declineReason as CardDeclineReason | null,
    sourceCoin: row.sourceCoin,
    sourceAmount:
      row.sourceCoin && row.sourceAmountMinor !== null && isAssetCode(row.sourceCoin)
        ? money(row.sourceAmountMinor, row.sourceCoin)
        : null,
    confirmBy: row.status === 'PENDING_CONFIRMATION' ? (row.confirmBy?.toISOString() ?? null) : null,
    refundAfter: isSettledPurchase
      ? new Date(row.createdAt.getTime() + CARD_REFUND_AFTER_HOURS * 3_600_000).toISOString()
      : null,
    refundFallbackAt: isSettledPurchase
      ? new Date(row.createdAt.getTime() + CARD_REFUND_FALLBACK_DAYS * 86_400_000).toISOString()
      : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The card settings row (`card_settings`, id 1). */
export type CardSettingsRow = typeof cardSettings.$inferSelect;

/** The settings a fresh installation starts with (10 USDT, 3 physical cards). */
export const DEFAULT_SETTINGS: Omit<CardSettingsRow, 'updatedAt'> = {
  id: SETTINGS_ID,
  virtualFeeUsdtMinor: 10_000_000n,
  physicalFeeUsdtMinor: parseAmountMinor(CARD_PRODUCTION_FEE_USDT, 'USDT'),
  physicalCardsMax: PHYSICAL_CARDS_PER_USER_MAX,
  isPromotionEnabled: true,
  promotionStartsAt: null,
  promotionEndsAt: DEFAULT_PROMOTION_ENDS_AT,
  virtualCurrencies: [...CARD_CURRENCIES],
  topUpMinMinor: 10_000_000n,
  topUpMaxMinor: 100_000_000_000n,
  defaultLimits: DEFAULT_LIMITS,
  fxRates: DEFAULT_FX_RATES,
};

/** The settings row (seeded at start; the defaults when absent), read through `db` (the caller's transaction when given). */
export async function readSettings(db: DbOrTx): Promise<CardSettingsRow> {
  const [row] = await db.select().from(cardSettings).where(eq(cardSettings.id, SETTINGS_ID));
  return row ?? { ...DEFAULT_SETTINGS, updatedAt: new Date(0) };
}

/** Whether the dated promotion (no virtual-card fee) is on at `now`: its switch on and `now` inside its instants. */
export function isPromotionOn(
  settings: { isPromotionEnabled: boolean; promotionStartsAt: Date | null; promotionEndsAt: Date | null },
  now: Date,
): boolean {
  if (!settings.isPromotionEnabled || settings.promotionEndsAt === null) return false;
  return (settings.promotionStartsAt === null || settings.promotionStartsAt <= now) && now < settings.promotionEndsAt;
}

/**
 * Convert `minor` of `from` into `to` with the rate table (units per 1 USD): exact decimal, rounded
 * UP for what the user owes (a purchase) or DOWN for what they receive (a refund). Null when a
 * currency is not in the table.
 */
export function convertMinor(
  minor: bigint,
  from: string,
  to: CardCurrency,
  rates: Record<string, string>,
  rounding: 'up' | 'down',
): bigint | null {
  if (from === to) return minor;
  const fromRate = rates[from];
  const toRate = rates[to];
  if (!fromRate || !toRate || !isAssetCode(from)) return null;
  const value = new Decimal(minor.toString())
    .div(new Decimal(10).pow(ASSET_PRECISION[from]))
    .div(fromRate)
    .mul(toRate)
    .mul(new Decimal(10).pow(ASSET_PRECISION[to]));
  return BigInt(value.toDecimalPlaces(0, rounding === 'up' ? Decimal.ROUND_UP : Decimal.ROUND_DOWN).toFixed());
}

/** A processor's decimal amount in `currency` as minor units; null when unreadable or not an asset. */
export function readProcessorAmount(amount: string, currency: string): bigint | null {
  if (!isAssetCode(currency)) return null;
  try {
    return parseAmountMinor(amount, currency);
  } catch {
    return null;
  }
}

/** The user's card `cardId`, read through `dbOrTx`. @throws DomainError NOT_FOUND when it is not theirs. */
export async function ownCard(dbOrTx: DbOrTx, userId: string, cardId: number): Promise<CardRow> {
  const [row] = await dbOrTx
    .select()
    .from(cards)
    .where(and(eq(cards.id, cardId), eq(cards.userId, userId)));
  if (!row) throw new DomainError('NOT_FOUND');
  return row;
}
