import type { AssetCode } from '@meridian/contracts/money';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import type { AccountType, EntryKind } from './ledger.types.ts';

/** An owner of ledger accounts: a user, a card or a trust (never the platform). */
export interface StatementOwner {
  ownerKind: 'user' | 'card' | 'trust';
  ownerId: string;
}

/** A ledger account as a statement lists it. */
export interface StatementLedgerAccount {
  id: number;
  ownerKind: StatementOwner['ownerKind'];
  ownerId: string;
  type: AccountType;
  asset: AssetCode;
}

/** One posting on an account with what its entry says (statements). */
export interface StatementPosting {
  entryId: number;
  kind: EntryKind;
  reference: string;
  createdAt: Date;
  /** Signed minor units of the account's asset: positive credited the account. */
  amountMinor: bigint;
  /**
   * What the platform's fee accounts (PLATFORM_FEES) received in the same entry and asset, minor
   * units (0n when none): the withdrawal fee, the trust's entrustment fee, the card fee.
   */
  feeMinor: bigint;
}

/** An account's activity over a range of time. */
export interface StatementActivity {
  /** The sum of the account's postings before the range's start (minor units). */
  openingMinor: bigint;
  /** The postings inside the range, oldest first (entry id order). */
  postings: StatementPosting[];
}

/** Postings one `statementActivity` call returns at most (STYLE: bound every read). */
export const STATEMENT_POSTINGS_MAX = 20_000;

/**
 * Every ledger account of the given owners (a user's own, their cards', their trusts'), by owner,
 * type and asset; accounts are created by their first entry, so an owner with none has none.
 */
export async function statementAccounts(
  db: DbOrTx,
  owners: readonly StatementOwner[],
): Promise<StatementLedgerAccount[]> {
  if (owners.length === 0) return [];
  const pairs = sql.join(
    owners.map((owner) => sql`(${owner.ownerKind}, ${owner.ownerId})`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`SELECT id, owner_kind, owner_id, type, asset FROM ${ledgerAccounts}
        WHERE (owner_kind, owner_id) IN (${pairs})
        ORDER BY owner_kind DESC, owner_id, type, asset`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    ownerKind: String(row.owner_kind) as StatementOwner['ownerKind'],
    ownerId: String(row.owner_id),
    type: String(row.type) as AccountType,
    asset: String(row.asset) as AssetCode,
  }));
}

/**
 * One account's activity in `[fromAt, toAt)`: the opening balance (the sum of every posting of an
 * entry created before `fromAt`) and each posting of the range with its entry's kind, reference and
 * the fee the platform took in the same entry and asset. Both come from the postings alone, so the
 * closing balance of one range is the opening of the next range that starts where it ends.
 * @throws RangeError when the range holds more than `STATEMENT_POSTINGS_MAX` postings.
 */
export async function statementActivity(
  db: DbOrTx,
  accountId: number,
  fromAt: Date,
  toAt: Date,
): Promise<StatementActivity> {
  const [opening] = await queryRows(
    db,
    sql`SELECT coalesce(sum(p.amount_minor), 0)::text AS opening
        FROM ${ledgerPostings} p JOIN ${ledgerEntries} e ON e.id = p.entry_id
        WHERE p.account_id = ${accountId} AND e.created_at < ${fromAt.toISOString()}::timestamptz`,
  );
  const rows = await queryRows(
    db,
    sql`SELECT e.id AS entry_id, e.kind, e.reference, floor(extract(epoch from e.created_at) * 1000)::bigint::text AS at_ms, p.amount_minor::text AS amount,
          coalesce((SELECT sum(fp.amount_minor) FROM ${ledgerPostings} fp JOIN ${ledgerAccounts} fa ON fa.id = fp.account_id
                     WHERE fp.entry_id = e.id AND fa.type = 'PLATFORM_FEES' AND fa.asset = a.asset AND fp.amount_minor > 0), 0)::text AS fee
        FROM ${ledgerPostings} p
        JOIN ${ledgerEntries} e ON e.id = p.entry_id
        JOIN ${ledgerAccounts} a ON a.id = p.account_id
        WHERE p.account_id = ${accountId}
          AND e.created_at >= ${fromAt.toISOString()}::timestamptz AND e.created_at < ${toAt.toISOString()}::timestamptz
        ORDER BY e.created_at, e.id, p.id
        LIMIT ${STATEMENT_POSTINGS_MAX + 1}`,
  );
  if (rows.length > STATEMENT_POSTINGS_MAX)
    throw new RangeError(`account ${accountId} has more than ${STATEMENT_POSTINGS_MAX} postings in the range`);
  return {
    openingMinor: BigInt(String(opening?.opening ?? '0')),
    postings: rows.map((row) => ({
      entryId: Number(row.entry_id),
      kind: String(row.kind) as EntryKind,
      reference: String(row.reference),
      createdAt: new Date(Number(row.at_ms)),
      amountMinor: BigInt(String(row.amount)),
      feeMinor: BigInt(String(row.fee)),
    })),
  };
}

/** A fee the platform's fee accounts (PLATFORM_FEES) received in one entry, per asset. */
export interface StatementEntryFeeMinor {
  entryId: number;
  asset: AssetCode;
  /** Minor units of `asset`, positive. */
  feeMinor: bigint;
}

/**
 * Every fee the platform took in the given entries: their postings crediting PLATFORM_FEES, summed
 * per entry and asset (any asset, not only the user's posting's: a liquidation's fee is paid in the
 * loan coin out of the collateral's proceeds). Entry id order.
 */
export async function statementEntryFees(db: DbOrTx, entryIds: readonly number[]): Promise<StatementEntryFeeMinor[]> {
  const fees: StatementEntryFeeMinor[] = [];
  // Bounded IN lists: a statement holds at most a few thousand entries.
  for (let start = 0; start < entryIds.length; start += 1_000) {
    const ids = sql.join(
      entryIds.slice(start, start + 1_000).map((id) => sql`${id}`),
      sql`, `,
    );
    const rows = await queryRows(
      db,
      sql`SELECT p.entry_id, a.asset, sum(p.amount_minor)::text AS fee
          FROM ${ledgerPostings} p JOIN ${ledgerAccounts} a ON a.id = p.account_id
          WHERE p.entry_id IN (${ids}) AND a.type = 'PLATFORM_FEES' AND p.amount_minor > 0
          GROUP BY p.entry_id, a.asset ORDER BY p.entry_id, a.asset`,
    );
    for (const row of rows)
      fees.push({
        entryId: Number(row.entry_id),
        asset: String(row.asset) as AssetCode,
        feeMinor: BigInt(String(row.fee)),
      });
  }
  return fees;
}

/** One loan entry (borrow, repay, liquidation) as the statement's loan section reads it, minor units of `coin`. */
export interface StatementLoanEntry {
  entryId: number;
  kind: 'LOAN_BORROW' | 'LOAN_REPAY' | 'LOAN_LIQUIDATION';
  /** The loan's reference (`loan:7`). */
  reference: string;
  createdAt: Date;
  /** The loan coin: the asset of the entry's PLATFORM_LOAN_POOL posting. */
  coin: AssetCode;
  /** The pool's postings summed: negative lent (borrow), positive principal repaid. */
  poolMinor: bigint;
  /** PLATFORM_LOAN_INTEREST received (term and overdue interest paid). */
  interestMinor: bigint;
  /** PLATFORM_FEES received in the loan coin (early-repayment and liquidation fees). */
  feeMinor: bigint;
}

/**
 * The user's loan entries created before `toAt`, oldest first: every LOAN_BORROW, LOAN_REPAY and
 * LOAN_LIQUIDATION entry that posts to one of the user's accounts and to the lending pool, with what
 * it moved on the platform's pool, interest and fee accounts in the loan coin. A loan's principal
 * outstanding is minus the sum of its pool postings (docs/statements.md "Loans").
 * @throws RangeError beyond `STATEMENT_POSTINGS_MAX` entries.
 */
export async function statementLoanEntries(db: DbOrTx, userId: string, toAt: Date): Promise<StatementLoanEntry[]> {
  const rows = await queryRows(
    db,
    sql`SELECT e.id, e.kind, e.reference, floor(extract(epoch from e.created_at) * 1000)::bigint::text AS at_ms,
          min(a.asset) FILTER (WHERE a.type = 'PLATFORM_LOAN_POOL') AS coin,
          coalesce(sum(p.amount_minor) FILTER (WHERE a.type = 'PLATFORM_LOAN_POOL'), 0)::text AS pool,
          coalesce(sum(p.amount_minor) FILTER (WHERE a.type = 'PLATFORM_LOAN_INTEREST'), 0)::text AS interest,
          coalesce(sum(p.amount_minor) FILTER (WHERE a.type = 'PLATFORM_FEES' AND p.amount_minor > 0
            AND a.asset = (SELECT pa.asset FROM ${ledgerPostings} pp JOIN ${ledgerAccounts} pa ON pa.id = pp.account_id
                           WHERE pp.entry_id = e.id AND pa.type = 'PLATFORM_LOAN_POOL' LIMIT 1)), 0)::text AS fee
        FROM ${ledgerEntries} e
        JOIN ${ledgerPostings} p ON p.entry_id = e.id
        JOIN ${ledgerAccounts} a ON a.id = p.account_id
        WHERE e.kind IN ('LOAN_BORROW', 'LOAN_REPAY', 'LOAN_LIQUIDATION')
          AND e.created_at < ${toAt.toISOString()}::timestamptz
          AND EXISTS (SELECT 1 FROM ${ledgerPostings} up JOIN ${ledgerAccounts} ua ON ua.id = up.account_id
                      WHERE up.entry_id = e.id AND ua.owner_kind = 'user' AND ua.owner_id = ${userId})
        GROUP BY e.id, e.kind, e.reference, e.created_at
        ORDER BY e.created_at, e.id
        LIMIT ${STATEMENT_POSTINGS_MAX + 1}`,
  );
  if (rows.length > STATEMENT_POSTINGS_MAX)
    throw new RangeError(`user ${userId} has more than ${STATEMENT_POSTINGS_MAX} loan entries`);
  return rows
    .filter((row) => row.coin !== null)
    .map((row) => ({
      entryId: Number(row.id),
      kind: String(row.kind) as StatementLoanEntry['kind'],
      reference: String(row.reference),
      createdAt: new Date(Number(row.at_ms)),
      coin: String(row.coin) as AssetCode,
      poolMinor: BigInt(String(row.pool)),
      interestMinor: BigInt(String(row.interest)),
      feeMinor: BigInt(String(row.fee)),
    }));
}
