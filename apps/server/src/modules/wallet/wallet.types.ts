import type { AssetCode } from '@meridian/contracts/money';
import type { OpsDeposit } from '@meridian/contracts/back-office';
import type { WalletRecord, WithdrawStatus } from '@meridian/contracts/wallet';
import type { HDKey } from '@scure/bip32';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { SettleAnswer } from '../../platform/db/idempotency.ts';
import type { Chain } from './wallet.addresses.ts';
import type { AddressScreeningProvider } from '../../platform/screening/address-screening.ts';
import type { deposits } from './wallet.tables.ts';

/**
 * One incoming transfer as a deposit source saw it (custody webhook, chain watcher). Amounts in
 * minor units of `coin`; `outputIndex` is the output (Bitcoin), the log index (ERC-20) or -1 (a
 * transaction's own ETH value).
 */
export interface ObservedDeposit {
  network: string;
  coin: AssetCode;
  address: string;
  txHash: string;
  outputIndex: number;
  amountMinor: bigint;
  confirmations: number;
  fromAddress?: string | undefined;
  /** Confirmations needed to credit; default: the network's `confirmations_required`. */
  confirmationsRequired?: number | undefined;
  /** The block is final (the node's `finalized` tag): credit whatever the count. */
  isFinal?: boolean | undefined;
}

/** What `recordDepositInTx` did: the row as it stands, and whether this call credited it. */
export interface RecordedDeposit {
  row: typeof deposits.$inferSelect;
  userId: string;
  coinCode: AssetCode;
  /** Decimal string in the coin's precision. */
  amount: string;
  isCreditedNow: boolean;
}

/** USD per one coin as an exact decimal string, or null when no price is available now. */
export interface UsdPriceSource {
  usdPerCoin(coinCode: AssetCode): Promise<string | null>;
}

/** What the wallet needs from the identity module (its service satisfies this). */
export interface WalletIdentity {
  /** Until when withdrawals are held after a security change, or null. */
  withdrawalHoldUntil(userId: string): Promise<Date | null>;
  /** The active account with this email (custody address look-up for the deposit CLI). */
  findUserIdByEmail(email: string): Promise<string | null>;
  /**
   * The user's identity level 0–3 (the withdrawal limits are per level), read in `db` —
   * the caller's transaction when it holds one (on PGlite a read outside it would wait for it).
   */
  kycLevelOf(userId: string, db?: DbOrTx): Promise<number>;
  /**
   * Refuse money movement of a frozen account, read on `db` (the caller's transaction
   * when given). @throws DomainError ACCOUNT_FROZEN (152).
   */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
}

/** Messages the wallet sends to users (wired to the notices module). Failures never undo money. */
export interface WalletNotifier {
  depositCredited(userId: string, coinCode: AssetCode, amount: string): Promise<void>;
  /**
   * `depositCredited` for many credits at once (a chain block's): one message per credit, each in its
   * reader's language, written a few hundred to a statement. Order is kept.
   */
  depositsCredited(credits: readonly { userId: string; coinCode: AssetCode; amount: string }[]): Promise<void>;
  /** A withdrawal moved to `status` (1 processing, 2 success, 3 failure, 4 cancel). */
  withdrawalStatusChanged(userId: string, coinCode: AssetCode, amount: string, status: WithdrawStatus): Promise<void>;
  addressAdded(userId: string, label: string, network: string, address: string): Promise<void>;
}

/** What `createWalletService` needs besides the database. */
export interface WalletServiceOptions {
  /** The history's reads, which may lag (the replica when one is configured, `Database.reads`). Default: the primary. */
  reads?: Db;
  /** Account-level extended public keys per chain (watch-only). */
  xpubs: Record<Chain, HDKey>;
  identity: WalletIdentity;
  prices: UsdPriceSource;
  notifier?: WalletNotifier;
  /** Withdraw only to address-book entries older than 24 hours (off by default). */
  isWhitelistMode: boolean;
  /**
   * USD as a decimal string (LARGE_WITHDRAWAL_USD, default "10000"): an OUTER withdrawal whose USD
   * value at request time is over it needs a second finance operator's approval (`approveWithdrawal`)
   * before a different operator processes it.
   */
  largeWithdrawalUsd?: string;
  /** Log refused webhooks and failed notifications. */
  log: { warn(detail: object, message: string): void; info(detail: object, message: string): void };
  /**
   * Address screening (KYT): withdrawal destinations and address-book entries on a
   * sanctions list are refused, a deposit from a listed source is frozen for review, and each hit
   * is stored as a screening alert (and logged). None: no screening.
   */
  screening?: AddressScreeningProvider;
  /** What the user's BTC trusts hold (the trust module), shown as the overview's TrustAccount; none: no line. */
  trustHoldings?: TrustHoldings;
  /** What the user's current loans pledge and owe (the loans module), shown as the overview's LoanAccount; none: no line. */
  loanHoldings?: LoanHoldings;
  /** What the user's cards hold (the cards module), added to the overview's CardAccount; none: ledger only. */
  cardHoldings?: CardHoldings;
  /** The app's clock. */
  clock: () => Date;
}

/** The loans module's part in the account overview. */
export interface LoanHoldings {
  /** BTC pledged (satoshi) and debt per loan coin (minor units) over the user's current loans. */
  holdingsOf(userId: string): Promise<{ collateralMinor: bigint; debts: { coin: AssetCode; debtMinor: bigint }[] }>;
}

/** The cards module's part in the account overview: card balances in their currencies. */
export interface CardHoldings extends TrustHoldings {
  /** USD per one unit of a card currency (the cards' rate table), decimal string; null when unknown. */
  usdPerUnit(asset: AssetCode): Promise<string | null>;
}

/** The trust module's part in the account overview. */
export interface TrustHoldings {
  /** Minor units held per asset, summed over the user's trusts that still hold something. */
  heldMinorByAsset(userId: string): Promise<Map<AssetCode, bigint>>;
}

/** A withdrawal as the operator API shows it (`opsWithdrawalSchema` of the contracts). */
export interface OpsWithdrawal extends WalletRecord {
  userId: string;
  failureReason: string | null;
  operatorEmail: string | null;
  /** USD value of the amount at request time, a decimal string with 2 decimals ("25000.00"); null on old rows. */
  usdValue: string | null;
  /** True when it is over LARGE_WITHDRAWAL_USD: a second operator approves it before another processes it. */
  needsSecondApproval: boolean;
  /** The operator (email) who gave that approval, once given. */
  approvedBy: string | null;
}

/** A review queue's size and its oldest item (back-office dashboard). */
export interface OperatorQueueSize {
  size: number;
  oldestAt: Date | null;
}

/** A day's deposits or withdrawals of one asset: how many, and the amount in minor units. */
export interface WalletFlowTotal {
  kind: 'deposits' | 'withdrawals';
  asset: string;
  count: number;
  amountMinor: bigint;
}

/** One deposit or withdrawal in a user's history as the back office lists it; amount in minor units of `asset`. */
export interface WalletActivityItem {
  at: Date;
  kind: 'deposit' | 'internalDeposit' | 'withdrawal' | 'internalWithdrawal';
  asset: string;
  amountMinor: bigint;
  /** Deposits: pending, credited, frozen; withdrawals: waiting, processing, success, failure, cancel. */
  status: string;
}

/**
 * A deposit as the back office lists it (`WalletService.listDepositsForOperators`): the contracts'
 * `OpsDeposit` without the owner's email, which the identity module knows. `amount` is a decimal
 * string in the coin's units.
 */
export type OpsDepositRow = Omit<OpsDeposit, 'userEmail'>;

/**
 * A network's operator settings: the coin's and the network's switches, the withdrawal
 * limits and fee in minor units of the coin (bigint, never a JS number), and the confirmations a
 * deposit needs.
 */
export interface NetworkSettings {
  coinCode: AssetCode;
  network: string;
  isCoinEnabled: boolean;
  isDepositEnabled: boolean;
  isWithdrawEnabled: boolean;
  withdrawMinMinor: bigint;
  withdrawMaxMinor: bigint;
  withdrawFeeMinor: bigint;
  confirmationsRequired: number;
}

/** The fields of `NetworkSettings` an operator may change; undefined = unchanged. */
export type NetworkSettingsPatch = Partial<
  Pick<
    NetworkSettings,
    | 'isDepositEnabled'
    | 'isWithdrawEnabled'
    | 'withdrawMinMinor'
    | 'withdrawMaxMinor'
    | 'withdrawFeeMinor'
    | 'confirmationsRequired'
  >
>;

/**
 * The sensitive-action check a service runs last (the request's `SensitiveAction`): `check()` checks the factors after
 * every other check passed; `consume(tx)` uses the one-time codes up as the last step of the action's transaction, so
 * they are used only if it commits; `answeredByReplay()` declares a stored idempotent answer, for which no factor is
 * checked.
 */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
  answeredByReplay(): void;
}

/** How a withdrawal was asked for. */
export interface WithdrawalOptions {
  /**
   * Signed with a developer API key: the address must be an entry of the user's address
   * book (`validation.apiKeyAddressBookOnly` on `address` otherwise).
   */
  isAddressBookOnly?: boolean;
  /**
   * Stores the answer in the withdrawal's own transaction (the idempotency store's `SettleAnswer`,
   * docs/api.md "Idempotency"), so a server killed after the commit still replays it.
   */
  settleAnswer?: SettleAnswer;
}

/** A PENDING deposit the chain watcher saw again: its confirmations now, and whether it may be credited. */
export interface PendingConfirmation {
  depositId: number;
  /** Confirmations now (kept at the highest reported). */
  confirmations: number;
  /** Confirmations it needs (as recorded with it). */
  confirmationsRequired: number;
  /** Its block is final: credited whatever the count. */
  isFinal: boolean;
  /** False: only its confirmations are raised (e.g. its coin is not watched any more). */
  mayCredit: boolean;
}
