import type { AssetCode } from '@meridian/contracts/money';

/**
 * Account types (docs/architecture.md "Money"). User accounts can never go below zero; platform accounts may,
 * because they mirror the outside world: the hot wallet's balance is minus what custody holds for
 * users, so a deposit moves money from it to the user.
 */
export const USER_ACCOUNT_TYPES = [
  /** Spendable coins in the main (wallet) account. */
  'USER_AVAILABLE',
  /** Coins held for a pending withdrawal or order. */
  'USER_FROZEN',
  /** Current-fund shares (funds module): USD minor units, 1 share = 1 USD. */
  'USER_FUND',
  /** BTC pledged as loan collateral (loans module). */
  'USER_LOAN_COLLATERAL',
  /** Card balance (cards module). */
  'USER_CARD',
  /** Principal of the user's fixed-fund orders (funds module; each order's part is in `fund_holdings`). */
  'USER_FUND_FIXED',
  /** Current-fund shares held for a pending outgoing wire (redemption to USD), not redeemable again. */
  'USER_FUND_FROZEN',
] as const;

export const PLATFORM_ACCOUNT_TYPES = [
  /** Custody: what the platform's on-chain wallets hold. Goes negative as users deposit. */
  'PLATFORM_HOT_WALLET',
  /** Fees earned (withdrawal fees, trust fees, card fees). */
  'PLATFORM_FEES',
  /** Interest paid to users (funds). */
  'PLATFORM_INTEREST_EXPENSE',
  /**
   * Gas the hot wallet paid for its own transactions (withdrawals mined, reverted ones too), in ETH:
   * an expense, negative by what was paid (docs/chain.md "Gas").
   */
  'PLATFORM_CHAIN_GAS',
  /** The exchange desk's inventory of each asset (swaps). */
  'EXCHANGE_INVENTORY',
  /** Money whose destination is not yet known; must be cleared by an operator. */
  'SUSPENSE',
  /**
   * Play money of the demo seed: the source of the demo account's starting
   * balances, outside production only. Goes negative by what it handed out.
   */
  'PLATFORM_DEMO_FUNDING',
  /**
   * The other side of manual adjustments (a balanced entry proposed by one finance
   * operator and approved by another), e.g. a goodwill credit to a user. Goes negative by what it
   * handed out.
   */
  'PLATFORM_ADJUSTMENTS',
  /**
   * BTC of released trusts owed to their beneficiaries: a finance operator releases a
   * trust in claim after verifying the beneficiaries, and pays them off the platform with the
   * release's reference. Positive: what is still to be paid out.
   */
  'TRUST_PAYOUTS',
  /**
   * The funds' pool: per stablecoin, the coins users paid into funds (positive); in USD,
   * minus the shares issued against them. A subscription from USDT moves USDT user → pool and USD
   * pool → the user's current-fund shares.
   */
  'PLATFORM_FUND_POOL',
  /**
   * Fund interest accrued and not yet paid (a liability: negative by what users are owed). Daily
   * accrual moves interest expense → here; the monthly payout and maturities move it to users.
   */
  'PLATFORM_FUND_ACCRUED_INTEREST',
  /** Meridian's USD bank account (wires in and out). Goes negative as users wire money in. */
  'PLATFORM_BANK',
  /**
   * The loans' lending pool, per loan coin: principal lent moves pool → the borrower,
   * repaid principal moves back. Negative by the principal outstanding.
   */
  'PLATFORM_LOAN_POOL',
  /** Loan interest earned (term and overdue interest), per loan coin. */
  'PLATFORM_LOAN_INTEREST',
  /**
   * The liquidation desk: buys loan collateral (BTC in) at the liquidation price and pays
   * the loan coin that repays the debt (coin out).
   */
  'PLATFORM_LOAN_LIQUIDATION',
  /** Loan debt a full liquidation could not cover (the platform's loss, never a negative user balance). */
  'PLATFORM_LOAN_LOSS',
  /**
   * The card top-up desk: per stablecoin, the coins users paid for card top-ups
   * (positive); per card currency, minus what it credited to cards.
   */
  'PLATFORM_CARD_FUNDING',
  /**
   * What Meridian owes the card network for cleared purchases, net of refunds: positive
   * until the processor's settlement is paid off the platform.
   */
  'PLATFORM_CARD_SETTLEMENT',
  /**
   * Card suspense written off by finance: a clearing nobody can be charged for is the
   * platform's loss (negative), a refund nobody can be credited its gain (positive).
   */
  'PLATFORM_CARD_WRITE_OFF',
] as const;

/**
 * Accounts owned by a trust, one per trust (`ownerKind: 'trust'`, `ownerId` the trust's
 * id): never negative, like a user's, and not part of the settlor's wallet balances.
 */
export const TRUST_ACCOUNT_TYPES = [
  /** The BTC a trust holds: entrusted net of the fee, minus withdrawals and releases. */
  'TRUST_HOLDING',
] as const;

export type TrustAccountType = (typeof TRUST_ACCOUNT_TYPES)[number];

/**
 * Accounts owned by a card, one pair per card in its currency (`ownerKind: 'card'`,
 * `ownerId` the card's id): never negative. Part of the card holder's money, not of the wallet.
 */
export const CARD_ACCOUNT_TYPES = [
  /** The card's spendable balance. */
  'CARD_AVAILABLE',
  /** Amounts held by approved authorisations until clearing or reversal. */
  'CARD_HELD',
] as const;
export type CardAccountType = (typeof CARD_ACCOUNT_TYPES)[number];
export type UserAccountType = (typeof USER_ACCOUNT_TYPES)[number];
export type PlatformAccountType = (typeof PLATFORM_ACCOUNT_TYPES)[number];
export type AccountType = UserAccountType | PlatformAccountType | TrustAccountType | CardAccountType;

/** The owner id of platform accounts (shard 0). */
export const PLATFORM_OWNER_ID = 'platform';
/** Shards a platform account may be split into (`platform`, `platform:1` … `platform:63`). */
export const PLATFORM_SHARDS_MAX = 64;
/** A platform owner id: `platform`, or `platform:<shard>` for shards 1 to PLATFORM_SHARDS_MAX − 1. */
export type PlatformOwnerId = typeof PLATFORM_OWNER_ID | `${typeof PLATFORM_OWNER_ID}:${number}`;

/** Whether `ownerId` names a platform account (`platform` or `platform:<1–63>`). */
export function isPlatformOwnerId(ownerId: string): ownerId is PlatformOwnerId {
  if (ownerId === PLATFORM_OWNER_ID) return true;
  const match = /^platform:([1-9]\d?)$/.exec(ownerId);
  return match !== null && Number(match[1]) < PLATFORM_SHARDS_MAX;
}

/** Names one ledger account; the account row is created by the first entry that touches it. */
export type AccountRef =
  | { ownerKind: 'user'; ownerId: string; type: UserAccountType; asset: AssetCode }
  | { ownerKind: 'platform'; ownerId: PlatformOwnerId; type: PlatformAccountType; asset: AssetCode }
  | { ownerKind: 'trust'; ownerId: string; type: TrustAccountType; asset: AssetCode }
  | { ownerKind: 'card'; ownerId: string; type: CardAccountType; asset: AssetCode };

/** The account of card `cardId` of `type` in `asset` (never negative). */
export function cardAccount(cardId: number, type: CardAccountType, asset: AssetCode): AccountRef {
  return { ownerKind: 'card', ownerId: String(cardId), type, asset };
}

/** The holding account of trust `trustId` in `asset` (never negative). */
export function trustAccount(trustId: number, asset: AssetCode): AccountRef {
  return { ownerKind: 'trust', ownerId: String(trustId), type: 'TRUST_HOLDING', asset };
}

/** A user's account of `type` in `asset`. */
export function userAccount(userId: string, type: UserAccountType, asset: AssetCode): AccountRef {
  return { ownerKind: 'user', ownerId: userId, type, asset };
}

/**
 * The platform's account of `type` in `asset`, or one of its shards. A platform account that every
 * entry of a busy flow touches (the exchange inventory in every swap) is split into shards so that
 * concurrent entries lock different rows; its balance is the sum over its shards. Shard 0 is the
 * unsharded account.
 * @param shard 0 to PLATFORM_SHARDS_MAX − 1.
 * @throws RangeError for any other shard (a programmer error).
 */
export function platformAccount(type: PlatformAccountType, asset: AssetCode, shard = 0): AccountRef {
  if (!(Number.isInteger(shard) && shard >= 0 && shard < PLATFORM_SHARDS_MAX))
    throw new RangeError(`platform account shard ${shard} is not 0–${PLATFORM_SHARDS_MAX - 1}`);
  return {
    ownerKind: 'platform',
    ownerId: shard === 0 ? PLATFORM_OWNER_ID : `${PLATFORM_OWNER_ID}:${shard}`,
    type,
    asset,
  };
}

/** What an entry records; a free list so that other modules can add theirs here. */
export const ENTRY_KINDS = [
  'DEPOSIT',
  'WITHDRAWAL_FREEZE',
  'WITHDRAWAL_RETURN',
  'WITHDRAWAL_SETTLE',
  'INTERNAL_TRANSFER',
  'EXCHANGE_SWAP',
  'FUND_SUBSCRIBE',
  'FUND_REDEEM',
  'FUND_INTEREST',
  /** Funds: a day's accrued interest of a batch of holdings (expense → accrued interest). */
  'FUND_ACCRUAL',
  /** Funds: a fixed order's principal and interest rolled into the current fund at maturity. */
  'FUND_MATURITY',
  /** Funds: a USD wire received (bank → current shares, or → suspense). */
  'FUND_WIRE_IN',
  /** Funds: a redemption to USD frozen, sent or returned. */
  'FUND_WIRE_OUT',
  /** Wallet → trust holding (net) + platform fees (the 2 % entrustment fee; docs/trust.md). */
  'TRUST_ENTRUST',
  /** Trust holding → wallet (revocable trusts, no fee). */
  'TRUST_WITHDRAW',
  /** Trust holding → TRUST_PAYOUTS, when an operator releases a trust in claim. */
  'TRUST_RELEASE',
  'LOAN_BORROW',
  'LOAN_REPAY',
  'LOAN_COLLATERAL',
  'LOAN_LIQUIDATION',
  'CARD',
  /** A card application: the 10 USDT production fee wallet → PLATFORM_FEES. */
  'CARD_FEE',
  /** Wallet stablecoin → PLATFORM_CARD_FUNDING, and PLATFORM_CARD_FUNDING → the card (its currency); docs/cards.md. */
  'CARD_TOPUP',
  /** An approved authorisation: card available → card held. */
  'CARD_HOLD',
  /** Clearing: the hold (and any difference from the available balance) → PLATFORM_CARD_SETTLEMENT. */
  'CARD_CLEARING',
  /** A reversal: card held → card available. */
  'CARD_RELEASE',
  /** A merchant refund: PLATFORM_CARD_SETTLEMENT → card available. */
  'CARD_REFUND',
  /** A clearing for an unknown authorisation: SUSPENSE → PLATFORM_CARD_SETTLEMENT (an operator resolves it). */
  'CARD_SUSPENSE',
  /**
   * Finance resolves a suspense item: assigned to the card its token names (a clearing
   * charges the card's available balance, a refund credits it) or written off to PLATFORM_CARD_WRITE_OFF.
   */
  'CARD_SUSPENSE_RESOLVED',
  'ADJUSTMENT',
  'REVERSAL',
  /**
   * A credited chain deposit whose block left the canonical chain: what is left of it in the
   * user's available balance → USER_FROZEN, until finance decides (docs/chain.md).
   */
  'CHAIN_REORG_HOLD',
  /** Finance resolves a reorganisation alarm, the transfer being on the new branch: USER_FROZEN → USER_AVAILABLE. */
  'CHAIN_REORG_RELEASE',
  /** Finance resolves a reorganisation alarm, the transfer being gone: USER_FROZEN → PLATFORM_HOT_WALLET. */
  'CHAIN_REORG_RECOVER',
  /** Gas of a mined hot-wallet transaction: PLATFORM_CHAIN_GAS → PLATFORM_HOT_WALLET (ETH), once per tx hash. */
  'CHAIN_GAS',
  /** The demo seed's starting balances (PLATFORM_DEMO_FUNDING → the demo user), never in production. */
  'DEMO_FUNDING',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** One signed movement: positive credits `account`, negative debits it. Minor units of `account.asset`. */
export interface PostingInput {
  account: AccountRef;
  amountMinor: bigint;
}

/** What `postEntry` records. */
export interface EntryInput {
  kind: EntryKind;
  /** What the entry is about (`withdrawal:42`, `deposit:7`); shown to operators, not unique. */
  reference: string;
  /**
   * Unique per intended movement, chosen by the caller so that a retry carries the same key
   * (`deposit:7:credit`). 1–200 characters.
   */
  idempotencyKey: string;
  /** Two or more postings summing to zero per asset. */
  postings: PostingInput[];
  /** Small string facts for operators (txHash, address). Part of the request hash. */
  metadata?: Record<string, string>;
}

/** A posting as stored. */
export interface Posting {
  accountId: number;
  asset: AssetCode;
  amountMinor: bigint;
}

/** An entry as stored, with its postings. */
export interface Entry {
  id: number;
  kind: EntryKind;
  reference: string;
  idempotencyKey: string;
  requestHash: string;
  reversesEntryId: number | null;
  metadata: Record<string, string>;
  createdAt: Date;
  postings: Posting[];
}

/** The result of `postEntry`: the entry, and whether it was a replay that moved nothing. */
export interface PostResult {
  entry: Entry;
  isReplay: boolean;
}

/** Transfer `amountMinor` (> 0) from `from` to `to` as two postings; both accounts share the asset. */
export function transfer(from: AccountRef, to: AccountRef, amountMinor: bigint): PostingInput[] {
  return [
    { account: from, amountMinor: -amountMinor },
    { account: to, amountMinor },
  ];
}
