import assert from 'node:assert/strict';
import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import type { AccountRef, EntryInput, EntryKind, Posting, PostingInput, PostResult } from './ledger.types.ts';
import {
  accountKey,
  assertWellFormed,
  hashEntryRequest,
  loadEntry,
  parseIdArray,
  toAccountRef,
} from './ledger.entries.ts';

/**
 * SQLSTATE `ledger_apply_deltas` raises (for `ledger_post` and `ledger_post_batch`) when a user account
 * would go below zero (`sql/ledger_apply_deltas.sql`); exported for SQL functions of other modules that
 * call `ledger_post` themselves (the card authorisation, modules/cards/sql/card_authorize.sql).
 */
export const SQLSTATE_INSUFFICIENT_BALANCE = 'ML001';
const SQLSTATE_INSUFFICIENT = SQLSTATE_INSUFFICIENT_BALANCE;

interface PostOutcome {
  status: 'ok' | 'replay';
  entryId: number | null;
  createdAt: Date | null;
  accountIds: number[];
}

/**
 * Call `ledger_post` (`sql/ledger_post.sql`): claim the key, find (or create) the entry's accounts,
 * write the postings, then apply each net change in ascending account id order with one conditional
 * `balance = balance + d` UPDATE (the row's lock, check and change) — one statement, one round
 * trip, atomic by itself. At most `POSTINGS_PER_ENTRY_MAX` postings (`assertWellFormed`).
 * @throws DomainError INSUFFICIENT_BALANCE when the function raised ML001 (nothing was written).
 */
async function callLedgerPost(
  db: DbOrTx,
  entry: {
    kind: EntryKind;
    reference: string;
    idempotencyKey: string;
    requestHash: string;
    reversesEntryId: number | null;
    metadata: Record<string, string>;
  },
  refs: AccountRef[],
  deltas: bigint[],
  postings: { refIndex: number; amountMinor: bigint }[],
): Promise<PostOutcome> {
  const rows = queryRows<{
    o_entry_id: number | string | null;
    o_created_at: Date | string | null;
    o_status: string;
    o_account_ids: (number | string)[] | string | null;
  }>(
    db,
    sql`SELECT * FROM ledger_post(
      ${entry.kind}, ${entry.reference}, ${entry.idempotencyKey}, ${entry.requestHash}, ${entry.reversesEntryId}::bigint, ${JSON.stringify(entry.metadata)}::jsonb,
      ${pgArrayLiteral(refs.map((r) => r.ownerKind))}::text[], ${pgArrayLiteral(refs.map((r) => r.ownerId))}::text[], ${pgArrayLiteral(refs.map((r) => r.type))}::text[],
      ${pgArrayLiteral(refs.map((r) => r.asset))}::text[], ${pgArrayLiteral(deltas)}::numeric[],
      ${pgArrayLiteral(postings.map((p) => p.refIndex + 1))}::int[], ${pgArrayLiteral(postings.map((p) => p.amountMinor))}::numeric[],
      ${deltas.filter((delta) => delta !== 0n).length}::int)`,
  ).catch((error: unknown) => {
    if (isSqlState(error, SQLSTATE_INSUFFICIENT)) throw new DomainError('INSUFFICIENT_BALANCE');
    throw error;
  });
  const [row] = await rows;
  assert.ok(row, 'ledger_post returns one row');
  assert.ok(row.o_status === 'ok' || row.o_status === 'replay', `ledger_post status ${row.o_status}`);
  return {
    status: row.o_status,
    entryId: row.o_entry_id === null ? null : Number(row.o_entry_id),
    createdAt: row.o_created_at === null ? null : new Date(row.o_created_at),
    accountIds: parseIdArray(row.o_account_ids),
  };
}

/**
 * The distinct accounts of a request in order of first use: `indexOf(account)` answers the
 * account's 0-based position in `refs`, adding it the first time.
 */
export function accountIndex(): { refs: AccountRef[]; indexOf(account: AccountRef): number } {
  const positions = new Map<string, number>();
  const refs: AccountRef[] = [];
  return {
    refs,
    indexOf(account) {
      const key = accountKey(account);
      let index = positions.get(key);
      if (index === undefined) {
        index = refs.length;
        positions.set(key, index);
        refs.push(account);
      }
      return index;
    },
  };
}

/**
 * The answer to a request whose idempotency key is taken: the first entry (`isReplay`) when it was
 * the same request (same hash), CONFLICT (121) otherwise.
 */
export async function replayOrConflict(
  db: DbOrTx,
  input: EntryInput,
  requestHash: string,
): Promise<PostResult | DomainError> {
  const [existing] = await db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.idempotencyKey, input.idempotencyKey));
  if (!existing || existing.requestHash !== requestHash)
    return new DomainError('CONFLICT', {}, { idempotencyKey: input.idempotencyKey });
  return { entry: await loadEntry(db, existing), isReplay: true };
}

/**
 * Post one well-formed entry (`reversesEntryId` set for a reversal) through `ledger_post`: a replay
 * answers the first entry. @throws as `postEntry`.
 */
export async function postOne(db: DbOrTx, input: EntryInput, reversesEntryId: number | null): Promise<PostResult> {
  const requestHash = hashEntryRequest(input, reversesEntryId);
  const accounts = accountIndex();
  const deltas: bigint[] = [];
  const postings = input.postings.map((posting) => {
    const index = accounts.indexOf(posting.account);
    deltas[index] = (deltas[index] ?? 0n) + posting.amountMinor;
    return { refIndex: index, amountMinor: posting.amountMinor };
  });
  const refs = accounts.refs;
  const metadata = input.metadata ?? {};
  const outcome = await callLedgerPost(
    db,
    {
      kind: input.kind,
      reference: input.reference,
      idempotencyKey: input.idempotencyKey,
      requestHash,
      reversesEntryId,
      metadata,
    },
    refs,
    deltas,
    postings,
  );
  if (outcome.status === 'replay') {
    // The key is taken: a concurrent twin waited on the unique index and now sees the first entry.
    const answer = await replayOrConflict(db, input, requestHash);
    if (answer instanceof DomainError) throw answer;
    return answer;
  }
  const entryId = outcome.entryId;
  const createdAt = outcome.createdAt;
  assert.ok(entryId !== null && createdAt !== null, 'ledger_post answers the new entry and its time');
  const stored: Posting[] = postings.map((p, i) => ({
    accountId: outcome.accountIds[p.refIndex]!,
    asset: input.postings[i]!.account.asset,
    amountMinor: p.amountMinor,
  }));
  return {
    entry: {
      id: entryId,
      kind: input.kind,
      reference: input.reference,
      idempotencyKey: input.idempotencyKey,
      requestHash,
      reversesEntryId,
      metadata,
      createdAt,
      postings: stored,
    },
    isReplay: false,
  };
}

/**
 * Post one balanced journal entry atomically (docs/ledger.md: one balanced entry in one transaction, keyed for idempotency, append-only, invariants asserted).
 *
 * One statement, the SQL function `ledger_post`: claims the idempotency key, locks every account
 * of the entry in id order (creating missing ones), applies each account's change with a
 * conditional `UPDATE … SET balance = balance + d WHERE balance + d >= 0 OR is_negative_allowed`,
 * and writes the postings. A single statement is atomic, so on a database handle it needs no
 * BEGIN/COMMIT; on a transaction handle it joins the caller's transaction. A refusal raised by the
 * statement aborts that transaction: the caller must let the error end it (every caller does —
 * its transaction callback rethrows), never carry on in it.
 *
 * @returns the entry; `isReplay` is true when the key was already used by the same request, in
 *   which case nothing moved and the first entry is returned.
 * @throws DomainError INSUFFICIENT_BALANCE (130) when a user account would go below zero — nothing moves.
 * @throws DomainError CONFLICT (121) when the key was used by a different request.
 * @throws AssertionError for malformed requests (postings not summing to zero per asset, zero
 *   amounts, fewer than 2 or more than 64 postings): programmer errors.
 */
export async function postEntry(db: DbOrTx, input: EntryInput): Promise<PostResult> {
  assertWellFormed(input);
  return postOne(db, input, null);
}

/** Options of `reverseEntry`. */
export interface ReverseOptions {
  /** Default `reversal:<entryId>`: an entry can be reversed once. */
  idempotencyKey?: string;
  /** Default the original reference. */
  reference?: string;
  metadata?: Record<string, string>;
}

/**
 * Correct an entry by posting its exact opposite (kind REVERSAL, `reversesEntryId` set); entries are
 * never edited or deleted (formancehq/ledger `internal/transaction.go`). An entry is reversed at most
 * once: a second call with the default key returns the first reversal.
 *
 * @throws DomainError NOT_FOUND when the entry does not exist.
 * @throws DomainError INSUFFICIENT_BALANCE when a user has already spent what the reversal takes back.
 * @throws DomainError CONFLICT when the entry was already reversed under another key.
 */
export async function reverseEntry(db: DbOrTx, entryId: number, options: ReverseOptions = {}): Promise<PostResult> {
  return db.transaction(async (tx) => {
    const [original] = await tx.select().from(ledgerEntries).where(eq(ledgerEntries.id, entryId));
    if (!original) throw new DomainError('NOT_FOUND');
    const rows = await tx
      .select({
        amountMinor: ledgerPostings.amountMinor,
        ownerKind: ledgerAccounts.ownerKind,
        ownerId: ledgerAccounts.ownerId,
        type: ledgerAccounts.type,
        asset: ledgerAccounts.asset,
      })
      .from(ledgerPostings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
      .where(eq(ledgerPostings.entryId, entryId))
      .orderBy(asc(ledgerPostings.id));
    const postings = rows.map((row): PostingInput => ({ account: toAccountRef(row), amountMinor: -row.amountMinor }));
    const input: EntryInput = {
      kind: 'REVERSAL',
      reference: options.reference ?? original.reference,
      idempotencyKey: options.idempotencyKey ?? `reversal:${entryId}`,
      postings,
      metadata: options.metadata ?? { reverses: String(entryId) },
    };
    assertWellFormed(input);
    try {
      return await postOne(tx, input, entryId);
    } catch (error) {
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION, 'ledger_entries_reverses_entry_id_key'))
        throw new DomainError('CONFLICT', {}, { reversesEntryId: entryId });
      throw error;
    }
  });
}
