import type { Locale } from '@meridian/contracts/locale';
import type { FundStablecoin } from '@meridian/contracts/funds';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { ProductRow } from './funds.internal.ts';
import type { fundOrders } from './funds.tables.ts';

/** A row of `fund_orders`. */
type FundOrderRow = typeof fundOrders.$inferSelect;

/**
 * A bank account of the payments module, as funds needs it:
 * its id and a description kept on an outgoing wire for the operator who sends it. The payments
 * module owns bank accounts; funds reads them through `BankAccountLookup` only.
 */
export interface FundBankAccount {
  /** The payments module's id of the account. */
  id: number;
  /** Holder, bank, SWIFT/BIC, IBAN or account number, country … as payments describes them. */
  [field: string]: unknown;
}

/**
 * How funds finds a user's bound bank account: `paymentsService.findBankAccount(userId,
 * bankAccountId, tx?)` of the payments module, wired in `app.ts`. Null when the user has no such
 * account (a USD subscription or redemption naming it is refused with FUND_BANK_ACCOUNT_NOT_FOUND).
 */
export interface BankAccountLookup {
  findBankAccount(userId: string, bankAccountId: number, tx?: DbOrTx): Promise<FundBankAccount | null>;
}

/** Whether a stablecoin is taken at 1:1 now (the price pipeline's band, docs/prices.md). */
export interface StablecoinPar {
  /**
   * True while the coin is priced at its peg (`basis: 'peg'`), false outside its band.
   * @throws DomainError PRICE_UNAVAILABLE (134) when no price can be made.
   */
  isAtPar(coin: FundStablecoin): Promise<boolean>;
}

/** What funds needs of identity: refuse a frozen account's money movement. */
export interface FundsIdentity {
  /** @throws DomainError ACCOUNT_FROZEN (152). */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
}

/**
 * Messages funds sends users (wired to the notices service). A failure to send never undoes money.
 * `db`: the caller's transaction when it holds one (on the embedded database a second connection
 * would wait for it).
 */
export interface FundsNotifier {
  /** A fixed order matured: principal and interest moved into the current fund. */
  fixedMatured(
    userId: string,
    productName: Record<Locale, string>,
    principal: string,
    interest: string,
    db?: DbOrTx,
  ): Promise<void>;
  /**
   * A subscription or redemption order was placed: its one message, written in the order's
   * transaction `db` so a refused or rolled-back order has none (docs/notices.md "Money events").
   */
  orderPlaced(order: FundOrderRow, product: ProductRow, db: DbOrTx): Promise<void>;
  /** A USD subscription's wire arrived and its shares were credited. */
  wireCredited(userId: string, amount: string, db?: DbOrTx): Promise<void>;
  /** A redemption's outgoing wire was sent, or failed and its shares came back. */
  wireDecided(userId: string, amount: string, isSent: boolean, db?: DbOrTx): Promise<void>;
}

/**
 * The sensitive-action check of a request (`sensitiveActionOf(request)`): the
 * service calls `check()` after every other check passed, `consume(tx)` as the last step of its
 * transaction, and `answeredByReplay()` when it answers a stored idempotent result.
 */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}

/** For callers that are not HTTP requests (CLI, tests, jobs): no factor to check. */
export const NO_FACTORS: FactorCheck = {
  check: async () => {},
  consume: async () => {},
  answeredByReplay: () => {},
};
