import assert from 'node:assert/strict';
import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import type {
  AccountRef,
  AccountType,
  Entry,
  EntryKind,
  PlatformAccountType,
  UserAccountType,
} from './ledger.types.ts';
import { loadEntry } from './ledger.entries.ts';

/** One account's balance. */
export interface AccountBalance {
  type: AccountType;
  asset: AssetCode;
  balanceMinor: bigint;
}

/** Every ledger account of a user with its balance (zero balances included), by type then asset. */
export async function userBalances(db: DbOrTx, userId: string): Promise<AccountBalance[]> {
  const rows = await db
    .select({ type: ledgerAccounts.type, asset: ledgerAccounts.asset, balanceMinor: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(sql`${ledgerAccounts.ownerKind} = 'user' AND ${ledgerAccounts.ownerId} = ${userId}`)
    .orderBy(asc(ledgerAccounts.type), asc(ledgerAccounts.asset));
  return rows.map((row) => ({
    type: row.type as AccountType,
    asset: row.asset as AssetCode,
    balanceMinor: row.balanceMinor,
  }));
}

/** The balance of one account in minor units; 0 when the account was never touched. */
export async function accountBalance(db: DbOrTx, ref: AccountRef): Promise<bigint> {
  const [row] = await db
    .select({ balanceMinor: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(
      sql`${ledgerAccounts.ownerKind} = ${ref.ownerKind} AND ${ledgerAccounts.ownerId} = ${ref.ownerId} AND ${ledgerAccounts.type} = ${ref.type} AND ${ledgerAccounts.asset} = ${ref.asset}`,
    );
  return row?.balanceMinor ?? 0n;
}

/**
 * A platform account's balance in minor units summed over its shards (`platform`, `platform:1` …;
 * see `platformAccount`): the exchange desk's whole inventory of an asset, say. 0 when untouched.
 */
export async function platformBalance(db: DbOrTx, type: PlatformAccountType, asset: AssetCode): Promise<bigint> {
  const [row] = await db
    .select({ balanceMinor: sql<string>`coalesce(sum(${ledgerAccounts.balanceMinor}), 0)::text` })
    .from(ledgerAccounts)
    .where(
      sql`${ledgerAccounts.ownerKind} = 'platform' AND ${ledgerAccounts.type} = ${type} AND ${ledgerAccounts.asset} = ${asset}`,
    );
  return BigInt(row?.balanceMinor ?? '0');
}

/** Per asset: what the platform owes users and what its custody wallets hold, in minor units. */
export interface LiabilityLine {
  asset: string;
  /**
   * The sum of every user account's balance in the asset (available, frozen, funds, collateral,
   * card), every trust's holding, every card's balance and held amounts, and what released trusts
   * still owe their beneficiaries.
   */
  liabilitiesMinor: bigint;
  /**
   * What the platform's custody (hot wallet) accounts hold: minus their balance summed over shards
   * (PLATFORM_HOT_WALLET goes negative by what users deposited, ledger.types).
   */
  holdingsMinor: bigint;
}

/**
 * Liabilities against holdings per asset (back-office dashboard), every asset that has a
 * user or hot-wallet account, by asset code.
 */
export async function liabilitiesAndHoldings(db: DbOrTx): Promise<LiabilityLine[]> {
  const rows = await queryRows(
    db,
    sql`SELECT asset,
          coalesce(sum(balance_minor) FILTER (WHERE owner_kind IN ('user', 'trust', 'card') OR type = 'TRUST_PAYOUTS'), 0)::text AS liabilities,
          coalesce(-sum(balance_minor) FILTER (WHERE owner_kind = 'platform' AND type = 'PLATFORM_HOT_WALLET'), 0)::text AS holdings
        FROM ${ledgerAccounts}
        WHERE owner_kind IN ('user', 'trust', 'card') OR type IN ('PLATFORM_HOT_WALLET', 'TRUST_PAYOUTS')
        GROUP BY asset ORDER BY asset`,
  );
  return rows.map((row) => ({
    asset: String(row.asset),
    liabilitiesMinor: BigInt(String(row.liabilities)),
    holdingsMinor: BigInt(String(row.holdings)),
  }));
}

/**
 * The balance of one owner's accounts in one asset: a user's own accounts, or a trust's or a card's
 * (held for a user: the settlor's trust, the holder's card).
 */
export interface OwnerLiability {
  ownerKind: 'user' | 'trust' | 'card';
  /** A user's uuid, or a trust's or card's id as text. */
  ownerId: string;
  asset: string;
  balanceMinor: bigint;
}

/**
 * Every owner's liability per asset: the balances of all ledger accounts owned by a user, a trust or
 * a card, summed per (owner, asset), zero sums included, by owner kind, owner id, then asset. Read in
 * the caller's transaction, so a snapshot sees one consistent ledger (proof of liabilities, issue
 * 21); the caller maps trusts and cards to their users.
 */
export async function ownerLiabilitiesByAsset(db: DbOrTx): Promise<OwnerLiability[]> {
  const rows = await queryRows(
    db,
    sql`SELECT owner_kind, owner_id, asset, sum(balance_minor)::text AS balance FROM ${ledgerAccounts}
        WHERE owner_kind IN ('user', 'trust', 'card')
        GROUP BY owner_kind, owner_id, asset ORDER BY owner_kind, owner_id, asset`,
  );
  return rows.map((row) => ({
    ownerKind: String(row.owner_kind) as OwnerLiability['ownerKind'],
    ownerId: String(row.owner_id),
    asset: String(row.asset),
    balanceMinor: BigInt(String(row.balance)),
  }));
}

/**
 * The user's non-zero balances: what stands in the way of closing the account (identity's account
 * deletion calls this and refuses while the list is not empty).
 */
export async function userHoldings(db: DbOrTx, userId: string): Promise<AccountBalance[]> {
  return (await userBalances(db, userId)).filter((b) => b.balanceMinor !== 0n);
}

/** One posting on a user's account with what its entry says, for histories. */
export interface UserPostingItem {
  entryId: number;
  kind: EntryKind;
  asset: AssetCode;
  /** Signed minor units: positive credited the account, negative debited it. */
  amountMinor: bigint;
  reference: string;
  createdAt: Date;
}

/** Filter of `userPostingsPage`. */
export interface UserPostingsFilter {
  type: UserAccountType;
  kind: EntryKind;
  /** Credits (amount > 0) or debits (amount < 0) of the account. */
  side: 'credit' | 'debit';
  asset?: AssetCode;
  /** Inclusive bounds on the entry's time. */
  createdFrom?: Date;
  createdTo?: Date;
  /** Rows per page, at most 500. */
  limit: number;
  offset: number;
}

/**
 * A page of the postings on a user's accounts of `filter.type`, newest entry first: the wallet
 * record reads swap legs from here (EXCHANGE_SWAP credits are `exchange_in`, debits `exchange_out`).
 * @returns the page's rows and how many match in all.
 */
export async function userPostingsPage(
  db: DbOrTx,
  userId: string,
  filter: UserPostingsFilter,
): Promise<{ items: UserPostingItem[]; totalCount: number }> {
  assert.ok(filter.limit > 0 && filter.limit <= 500, 'at most 500 rows per page');
  const conditions: SQL[] = [
    sql`${ledgerAccounts.ownerKind} = 'user'`,
    eq(ledgerAccounts.ownerId, userId),
    eq(ledgerAccounts.type, filter.type),
    eq(ledgerEntries.kind, filter.kind),
    filter.side === 'credit' ? sql`${ledgerPostings.amountMinor} > 0` : sql`${ledgerPostings.amountMinor} < 0`,
  ];
  if (filter.asset) conditions.push(eq(ledgerAccounts.asset, filter.asset));
  if (filter.createdFrom) conditions.push(gte(ledgerEntries.createdAt, filter.createdFrom));
  if (filter.createdTo) conditions.push(lte(ledgerEntries.createdAt, filter.createdTo));
  const where = and(...conditions);
  const [total] = await db
    .select({ n: count() })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(where);
  const rows = await db
    .select({
      entryId: ledgerEntries.id,
      kind: ledgerEntries.kind,
      asset: ledgerAccounts.asset,
      amountMinor: ledgerPostings.amountMinor,
      reference: ledgerEntries.reference,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
    .where(where)
    .orderBy(desc(ledgerEntries.id), desc(ledgerPostings.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return {
    items: rows.map((row) => ({ ...row, kind: row.kind as EntryKind, asset: row.asset as AssetCode })),
    totalCount: Number(total?.n ?? 0),
  };
}

/** Entries by id with their postings (for history pages and operators). At most 500 ids. */
export async function entriesByIds(db: DbOrTx, ids: number[]): Promise<Entry[]> {
  assert.ok(ids.length <= 500, 'at most 500 entries per call');
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(inArray(ledgerEntries.id, ids))
    .orderBy(asc(ledgerEntries.id));
  return Promise.all(rows.map((row) => loadEntry(db, row)));
}

/**
 * An account-deletion guard for the identity module (`identity.addHoldingsChecker`): one reason per
 * non-zero balance, e.g. "USDT 12.500000 (USER_AVAILABLE)"; [] when the user holds nothing.
 */
export function ledgerHoldingsChecker(db: DbOrTx): {
  reasonsToRefuseClosure(userId: string, locale: string): Promise<string[]>;
} {
  return {
    reasonsToRefuseClosure: async (userId) =>
      (await userHoldings(db, userId)).map((b) => `${b.asset} ${toDecimalString(b.balanceMinor, b.asset)} (${b.type})`),
  };
}
