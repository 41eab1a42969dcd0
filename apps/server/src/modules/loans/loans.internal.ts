import { LOAN_STATUS, type LoanCoin, type LoanOrder, type LoanStatus } from '@meridian/contracts/loans';
import { toDecimalString } from '@meridian/contracts/money';
import type Decimal from 'decimal.js';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { type AccountRef, platformAccount, type PostingInput, userAccount } from '../ledger/ledger.types.ts';
import {
  assertLoanTransition,
  bpsToPct,
  dailyRatePct,
  debtOf,
  isOpenLoan,
  LoanDecimal,
  ltvOf,
  ltvPctText,
  type PaymentSplit,
  priceAtLtv,
  priceText,
} from './loans.rules.ts';
import { loanCoins, loanProtections, loans, loanSettings, loanTerms } from './loans.tables.ts';

export type LoanRow = typeof loans.$inferSelect;
export type SettingsRow = typeof loanSettings.$inferSelect;

/** A BTC price as the loans module uses it: exact, with when and from which sources. */
export interface LoanPrice {
  priceUsd: Decimal;
  observedAt: Date;
  sources: string[];
}

/** What the loans module needs from other modules and the platform. */
export interface LoansDeps {
  db: Db;
  /** The markets module's median price of BTC. @throws DomainError PRICE_UNAVAILABLE. */
  btcPrice(): Promise<LoanPrice>;
  /** ACCOUNT_FROZEN (152) for a frozen account. */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
  /** In-app messages (notices module), in the caller's transaction. */
  notifyMany(inputs: NotifyInput[], tx: DbOrTx): Promise<unknown>;
  /**
   * The funds module's current fund, for REPAY protection rules that take the loan coin from it
   * (`FundsService.redeemForLoanProtection`): redeems shares into the wallet in the engine's
   * transaction and answers the coin's minor units credited (0 when nothing moved). Absent: such
   * rules do not act.
   */
  redeemCurrentFund?(tx: Tx, userId: string, coin: LoanCoin, coinMinor: bigint, reference: string): Promise<bigint>;
  now(): Date;
  log: {
    info(detail: object, message: string): void;
    warn(detail: object, message: string): void;
    error(detail: object, message: string): void;
  };
}

/** The sensitive-action check of a money-moving call (`platform/http/auth.ts`); NO_FACTORS for jobs. */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}
export const NO_FACTORS: FactorCheck = { check: async () => {}, consume: async () => {}, answeredByReplay: () => {} };

/** Loans the engine handles per batch, and batches per price event (10,000 loans per run at most). */
export const ENGINE_BATCH_ROWS = 250;
export const ENGINE_BATCHES_MAX = 40;

/** Micro units (loan coins) per USD cent. */
export const MICRO_PER_CENT = 10_000n;

/** The collateral coin. */
export const COLLATERAL = 'BTC' as const;

export const btcText = (minor: bigint) => toDecimalString(minor, 'BTC');
export const coinText = (minor: bigint, coin: string) => toDecimalString(minor, coin as LoanCoin);

/** The settings row. @throws Error when the module has not been seeded (start). */
export async function loadSettings(db: DbOrTx): Promise<SettingsRow> {
  const [row] = await db.select().from(loanSettings).where(eq(loanSettings.id, 1));
  if (!row) throw new Error('loan settings are not seeded');
  return row;
}

export async function loadTerm(db: DbOrTx, termDays: number) {
  const [row] = await db.select().from(loanTerms).where(eq(loanTerms.termDays, termDays));
  if (!row || !row.isEnabled) throw new DomainError('NOT_FOUND');
  return row;
}

export async function loadTerms(db: DbOrTx) {
  return db.select().from(loanTerms).orderBy(asc(loanTerms.termDays));
}

/** A borrowable coin. @throws DomainError LOAN_COIN_DISABLED when it is switched off or unknown. */
export async function loadCoin(db: DbOrTx, coin: string, forUpdate = false) {
  const query = db.select().from(loanCoins).where(eq(loanCoins.coin, coin));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row || !row.isEnabled) throw new DomainError('LOAN_COIN_DISABLED', { coin });
  return row;
}

/**
 * One of the user's loans; `forUpdate` locks its row (every change of debt or collateral holds it,
 * so two repayments or a removal and the engine never act on the same loan at once).
 * @throws DomainError NOT_FOUND for an unknown id or another user's loan.
 */
export async function loadOwnLoan(db: DbOrTx, userId: string, loanId: number, forUpdate = false): Promise<LoanRow> {
  const query = db
    .select()
    .from(loans)
    .where(and(eq(loans.id, loanId), eq(loans.userId, userId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw new DomainError('NOT_FOUND');
  return row;
}

/** @throws DomainError LOAN_NOT_REPAYABLE unless the loan is open (3 or 4). */
export function assertOpen(loan: LoanRow): void {
  if (!isOpenLoan(loan.status)) throw new DomainError('LOAN_NOT_REPAYABLE');
}

/** The loan's liquidation price for its debt and collateral (text for the column), or null once closed. */
export function liquidationPriceOf(
  debtMinor: bigint,
  collateralMinor: bigint,
  settings: SettingsRow,
  isOpen: boolean,
): string | null {
  if (!isOpen) return null;
  const price = priceAtLtv(debtMinor, collateralMinor, settings.liquidationLtvBps);
  return price === null ? null : price.toFixed();
}

/**
 * A status change, asserted against the transition table (`LOAN_TRANSITIONS`); returns `to`.
 * @throws AssertionError for a transition the table does not allow.
 */
export function transition(from: number, to: LoanStatus): LoanStatus {
  assertLoanTransition(from, to);
  return to;
}

/** The loan as the API shows it; LTV at `price` when given and the loan is open. */
export function toOrder(row: LoanRow, settings: SettingsRow, price: Decimal | null, hasProtection: boolean): LoanOrder {
  const coin = row.loanCoin;
  const debt = debtOf(row);
  const isOpen = isOpenLoan(row.status);
  const liquidationPrice = isOpen ? priceAtLtv(debt, row.collateralMinor, settings.liquidationLtvBps) : null;
  const marginCallPrice = isOpen ? priceAtLtv(debt, row.collateralMinor, settings.marginCallLtvBps) : null;
  return {
    orderId: String(row.id),
    status: row.status as LoanStatus,
    collateralCoin: COLLATERAL,
    collateralAmount: btcText(row.collateralMinor),
    loanCoin: coin as LoanCoin,
    principal: coinText(row.principalMinor, coin),
    outstandingPrincipal: coinText(row.outstandingPrincipalMinor, coin),
    termDays: row.termDays,
    annualRatePct: bpsToPct(row.annualRateBps),
    dailyRatePct: dailyRatePct(row.annualRateBps),
    interest: coinText(row.interestMinor, coin),
    overdueInterest: coinText(row.overdueInterestMinor, coin),
    feesPaid: coinText(row.feesPaidMinor, coin),
    repaidPrincipal: coinText(row.principalMinor - row.outstandingPrincipalMinor, coin),
    repaidInterest: coinText(row.interestPaidMinor + row.overdueInterestPaidMinor, coin),
    debt: coinText(isOpen ? debt : 0n, coin),
    ltvPct: isOpen && price ? ltvPctText(ltvOf(debt, row.collateralMinor, price)) : null,
    marginCallLtvPct: bpsToPct(settings.marginCallLtvBps),
    liquidationLtvPct: bpsToPct(settings.liquidationLtvBps),
    liquidationPrice: liquidationPrice ? priceText(liquidationPrice) : null,
    marginCallPrice: marginCallPrice ? priceText(marginCallPrice) : null,
    borrowTime: row.borrowedAt.toISOString(),
    repaymentDate: row.repaymentDate,
    closeTime: row.closedAt?.toISOString() ?? null,
    hasProtection,
    marginCallDeadline:
      isOpen && row.marginCallAt
        ? new Date(row.marginCallAt.getTime() + settings.cureWindowMinutes * 60_000).toISOString()
        : null,
  };
}

/** Loan ids among `ids` with an enabled protection rule. */
export async function protectedLoanIds(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ loanId: loanProtections.loanId })
    .from(loanProtections)
    .where(and(inArray(loanProtections.loanId, ids), eq(loanProtections.isEnabled, true)));
  return new Set(rows.map((row) => row.loanId));
}

/**
 * Postings of `split` paid from `payer` in the loan coin: principal back to the pool, term and
 * overdue interest to interest earned, the early-repayment fee to the platform's fees.
 */
export function paymentPostings(payer: AccountRef, coin: LoanCoin, split: PaymentSplit): PostingInput[] {
  const interest = split.interestMinor + split.overdueInterestMinor;
  return mergePostings([
    { account: payer, amountMinor: -split.totalMinor },
    { account: platformAccount('PLATFORM_LOAN_POOL', coin), amountMinor: split.principalMinor },
    { account: platformAccount('PLATFORM_LOAN_INTEREST', coin), amountMinor: interest },
    { account: platformAccount('PLATFORM_FEES', coin), amountMinor: split.feeMinor },
  ]);
}

/** Postings with zero amounts dropped and repeated accounts summed (the ledger wants each once, none zero). */
export function mergePostings(postings: PostingInput[]): PostingInput[] {
  const byKey = new Map<string, PostingInput>();
  for (const posting of postings) {
    const { ownerKind, ownerId, type, asset } = posting.account;
    const key = `${ownerKind}|${ownerId}|${type}|${asset}`;
    const seen = byKey.get(key);
    byKey.set(key, { account: posting.account, amountMinor: (seen?.amountMinor ?? 0n) + posting.amountMinor });
  }
  return [...byKey.values()].filter((posting) => posting.amountMinor !== 0n);
}

/** The user's collateral account, wallet BTC and wallet loan coin. */
export const collateralAccount = (userId: string) => userAccount(userId, 'USER_LOAN_COLLATERAL', COLLATERAL);
export const walletBtc = (userId: string) => userAccount(userId, 'USER_AVAILABLE', COLLATERAL);
export const walletCoin = (userId: string, coin: LoanCoin) => userAccount(userId, 'USER_AVAILABLE', coin);

/** The status a full repayment gets on Hong Kong day `today`: before → 6, on → 7, after → 8. */
export function repaidStatusOn(today: string, repaymentDate: string): LoanStatus {
  if (today < repaymentDate) return LOAN_STATUS.EARLY_REPAID;
  if (today === repaymentDate) return LOAN_STATUS.REPAID;
  return LOAN_STATUS.OVERDUE_REPAID;
}

/** LTV text (2 decimals, rounded up) of a debt and collateral at a price. */
export function ltvText(debtMinor: bigint, collateralMinor: bigint, price: Decimal): string {
  return ltvPctText(ltvOf(debtMinor, collateralMinor, price));
}

export { LoanDecimal };
