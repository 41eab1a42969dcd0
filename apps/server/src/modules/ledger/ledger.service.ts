import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { and, asc, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import {
  type AccountRef,
  type AccountType,
  type Entry,
  type EntryInput,
  type EntryKind,
  ENTRY_KINDS,
  isPlatformOwnerId,
  type PlatformAccountType,
  type PlatformOwnerId,
  type UserAccountType,
  type Posting,
  type PostingInput,
  type PostResult,
} from './ledger.types.ts';

export { checkLedgerInvariants, type InvariantReport, type InvariantResult } from './ledger.invariants.ts';
export { FANOUT_ROWS_MAX, type FanoutInput, type FanoutResult, postFanout } from './ledger.fanout.ts';
export {
  STATEMENT_POSTINGS_MAX,
  type StatementActivity,
  statementActivity,
  statementAccounts,
  type StatementLedgerAccount,
  type StatementOwner,
  type StatementPosting,
  type StatementEntryFeeMinor,
  statementEntryFees,
  type StatementLoanEntry,
  statementLoanEntries,
} from './ledger.statements.ts';

/** Most postings one entry may carry (STYLE: bound every batch). */
export const POSTINGS_PER_ENTRY_MAX = 64;
const IDEMPOTENCY_KEY_LENGTH_MAX = 200;

function accountKey(ref: { ownerKind: string; ownerId: string; type: string; asset: string }): string {
  return `${ref.ownerKind}\u0000${ref.ownerId}\u0000${ref.type}\u0000${ref.asset}`;
}

/**
 * SHA-256 (hex) of the canonical form of an entry request: kind, reference, metadata with sorted
 * keys, and the postings sorted by account then amount. Two requests hash alike exactly when they
 * would move the same money the same way.
 */
export function hashEntryRequest(input: EntryInput, reversesEntryId: number | null = null): string {
  const postings = input.postings
    .map((p) =>
      [p.account.ownerKind, p.account.ownerId, p.account.type, p.account.asset, p.amountMinor.toString()].join('|'),
    )
    .sort();
  const metadata = Object.entries(input.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = JSON.stringify({
    kind: input.kind,
    reference: input.reference,
    metadata,
    postings,
    reversesEntryId,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/** Programmer errors in an entry request: asserted, never handled (STYLE habit 8). */
function assertWellFormed(input: EntryInput): void {
  assert.ok((ENTRY_KINDS as readonly string[]).includes(input.kind), `unknown entry kind ${input.kind}`);
  assert.ok(
    input.idempotencyKey.length > 0 && input.idempotencyKey.length <= IDEMPOTENCY_KEY_LENGTH_MAX,
    'idempotency key must be 1–200 characters',
  );
  assert.ok(
    input.postings.length >= 2 && input.postings.length <= POSTINGS_PER_ENTRY_MAX,
    'an entry has 2 to 64 postings',
  );
  const sums = new Map<AssetCode, bigint>();
  for (const posting of input.postings) {
    assert.ok(typeof posting.amountMinor === 'bigint', 'amounts are bigint minor units');
    assert.ok(posting.amountMinor !== 0n, 'a posting moves a non-zero amount');
    assert.ok(isAssetCode(posting.account.asset), `unknown asset ${posting.account.asset}`);
    const isPlatform = posting.account.ownerKind === 'platform';
    assert.ok(
      isPlatform ? isPlatformOwnerId(posting.account.ownerId) : posting.account.ownerId.length > 0,
      'account owner',
    );
    sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amountMinor);
  }
  for (const [asset, sum] of sums) assert.equal(sum, 0n, `postings of ${asset} sum to ${sum}, not zero`);
}

async function loadEntry(db: DbOrTx, row: typeof ledgerEntries.$inferSelect): Promise<Entry> {
  const postings = await db
    .select({
      accountId: ledgerPostings.accountId,
      asset: ledgerPostings.asset,
      amountMinor: ledgerPostings.amountMinor,
    })
    .from(ledgerPostings)
    .where(eq(ledgerPostings.entryId, row.id))
    .orderBy(asc(ledgerPostings.id));
  return toEntry(row, postings);
}

function toEntry(
  row: typeof ledgerEntries.$inferSelect,
  postings: { accountId: number; asset: string; amountMinor: bigint }[],
): Entry {
  return {
    id: row.id,
    kind: row.kind as EntryKind,
    reference: row.reference,
    idempotencyKey: row.idempotencyKey,
    requestHash: row.requestHash,
    reversesEntryId: row.reversesEntryId,
    metadata: row.metadata,
    createdAt: row.createdAt,
    postings: postings.map((p): Posting => ({
      accountId: p.accountId,
      asset: p.asset as AssetCode,
      amountMinor: p.amountMinor,
    })),
  };
}

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
 * Call `ledger_post` (`sql/ledger_post.sql`): claim the key, create missing accounts, lock the entry's
 * accounts in id order (SELECT … ORDER BY id FOR UPDATE), apply each net change with one
 * conditional `balance = balance + d` UPDATE, and write the postings — one statement, one round
 * trip, atomic by itself.
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
function accountIndex(): { refs: AccountRef[]; indexOf(account: AccountRef): number } {
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
async function replayOrConflict(db: DbOrTx, input: EntryInput, requestHash: string): Promise<PostResult | DomainError> {
  const [existing] = await db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.idempotencyKey, input.idempotencyKey));
  if (!existing || existing.requestHash !== requestHash)
    return new DomainError('CONFLICT', {}, { idempotencyKey: input.idempotencyKey });
  return { entry: await loadEntry(db, existing), isReplay: true };
}

async function postOne(db: DbOrTx, input: EntryInput, reversesEntryId: number | null): Promise<PostResult> {
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
 * Post one balanced journal entry atomically (ARCHITECTURE §4, STYLE habits 4–6, 8).
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

/** Most entries one `postEntries` call may carry (STYLE: bound every batch). */
export const ENTRIES_PER_BATCH_MAX = 64;

/** SQLSTATE `ledger_post_batch` raises when a key of the batch was taken by a concurrent twin (`sql/ledger_post_batch.sql`). */
const SQLSTATE_BATCH_KEY_TAKEN = 'ML002';

/**
 * Thrown by `postEntries` when a concurrent transaction committed one of the batch's idempotency keys
 * between the batch's replay check and its insert. Nothing of the batch was written and, inside a
 * transaction, that transaction is aborted: the caller ends it and posts the entries one by one
 * with `postEntry` (which answers replays and conflicts per entry). Rare: it needs the same key
 * posted twice at the same moment.
 */
export class LedgerBatchKeyTakenError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('a key of the ledger batch was taken concurrently; post the entries one by one', options);
    this.name = 'LedgerBatchKeyTakenError';
  }
}

/**
 * Post up to `ENTRIES_PER_BATCH_MAX` balanced journal entries in ONE statement (`ledger_post_batch`,
 * `sql/ledger_post_batch.sql`), each with its own outcome — group commit for high-rate flows such as swaps
 * (docs/ledger.md "Batches"; TigerBeetle's batch semantics). Entries are applied in array order
 * over the accounts' balances locked in id order, so an entry sees the earlier entries of the batch;
 * one refused entry moves nothing and does not refuse the others. Joins the caller's transaction
 * when given one.
 *
 * @param inputs entries with distinct idempotency keys (asserted), each well formed as for `postEntry`.
 * @returns one result per input, in order: the posted entry (`isReplay` true when the key was already
 *   used by the same request), or a `DomainError` INSUFFICIENT_BALANCE (130) / CONFLICT (121, key
 *   used by a different request) for that entry alone.
 * @throws LedgerBatchKeyTakenError when a key was taken concurrently (nothing written; see the class).
 * @throws AssertionError for malformed entries or duplicate keys: programmer errors.
 */
export async function postEntries(db: DbOrTx, inputs: readonly EntryInput[]): Promise<(PostResult | DomainError)[]> {
  assert.ok(
    inputs.length > 0 && inputs.length <= ENTRIES_PER_BATCH_MAX,
    `a batch has 1 to ${ENTRIES_PER_BATCH_MAX} entries`,
  );
  assert.equal(
    new Set(inputs.map((input) => input.idempotencyKey)).size,
    inputs.length,
    'idempotency keys of a batch are distinct',
  );
  const accounts = accountIndex();
  const refs = accounts.refs;
  const changes = { entries: [] as number[], refs: [] as number[], deltas: [] as bigint[] };
  const postingArrays = { entries: [] as number[], refs: [] as number[], amounts: [] as bigint[] };
  const hashes: string[] = [];
  for (const [entryIndex, input] of inputs.entries()) {
    assertWellFormed(input);
    hashes.push(hashEntryRequest(input, null));
    const netByRef = new Map<number, bigint>();
    for (const posting of input.postings) {
      const index = accounts.indexOf(posting.account);
      netByRef.set(index, (netByRef.get(index) ?? 0n) + posting.amountMinor);
      postingArrays.entries.push(entryIndex + 1);
      postingArrays.refs.push(index + 1);
      postingArrays.amounts.push(posting.amountMinor);
    }
    for (const [index, delta] of netByRef) {
      if (delta === 0n) continue;
      changes.entries.push(entryIndex + 1);
      changes.refs.push(index + 1);
      changes.deltas.push(delta);
    }
  }
  const rows = await queryRows<{
    o_ordinal: number;
    o_status: string;
    o_entry_id: number | string | null;
    o_created_at: Date | string | null;
    o_account_ids: (number | string)[] | string | null;
  }>(
    db,
    sql`SELECT * FROM ledger_post_batch(
      ${pgArrayLiteral(inputs.map((input) => input.kind))}::text[], ${pgArrayLiteral(inputs.map((input) => input.reference))}::text[],
      ${pgArrayLiteral(inputs.map((input) => input.idempotencyKey))}::text[], ${pgArrayLiteral(hashes)}::text[], ${JSON.stringify(inputs.map((input) => input.metadata ?? {}))}::jsonb,
      ${pgArrayLiteral(refs.map((r) => r.ownerKind))}::text[], ${pgArrayLiteral(refs.map((r) => r.ownerId))}::text[], ${pgArrayLiteral(refs.map((r) => r.type))}::text[], ${pgArrayLiteral(refs.map((r) => r.asset))}::text[],
      ${pgArrayLiteral(changes.entries)}::int[], ${pgArrayLiteral(changes.refs)}::int[], ${pgArrayLiteral(changes.deltas)}::numeric[],
      ${pgArrayLiteral(postingArrays.entries)}::int[], ${pgArrayLiteral(postingArrays.refs)}::int[], ${pgArrayLiteral(postingArrays.amounts)}::numeric[])`,
  ).catch((error: unknown) => {
    if (isSqlState(error, SQLSTATE_BATCH_KEY_TAKEN)) throw new LedgerBatchKeyTakenError({ cause: error });
    throw error;
  });
  assert.equal(rows.length, inputs.length, 'ledger_post_batch returns one row per entry');
  const accountIds = parseIdArray(rows[0]!.o_account_ids);
  const results: (PostResult | DomainError)[] = [];
  let postingIndex = 0;
  for (const [index, input] of inputs.entries()) {
    const row = rows.find((candidate) => Number(candidate.o_ordinal) === index + 1);
    assert.ok(row, `ledger_post_batch row ${index + 1}`);
    const firstPosting = postingIndex;
    postingIndex += input.postings.length;
    if (row.o_status === 'insufficient') {
      results.push(new DomainError('INSUFFICIENT_BALANCE'));
    } else if (row.o_status === 'replay') {
      results.push(await replayOrConflict(db, input, hashes[index]!));
    } else {
      assert.ok(
        row.o_status === 'ok' && row.o_entry_id !== null && row.o_created_at !== null,
        `ledger_post_batch status ${row.o_status}`,
      );
      const postings: Posting[] = input.postings.map((posting, k) => ({
        accountId: accountIds[postingArrays.refs[firstPosting + k]! - 1]!,
        asset: posting.account.asset,
        amountMinor: posting.amountMinor,
      }));
      const entry: Entry = {
        id: Number(row.o_entry_id),
        kind: input.kind,
        reference: input.reference,
        idempotencyKey: input.idempotencyKey,
        requestHash: hashes[index]!,
        reversesEntryId: null,
        metadata: input.metadata ?? {},
        createdAt: new Date(row.o_created_at),
        postings,
      };
      results.push({ entry, isReplay: false });
    }
  }
  return results;
}

/** A bigint[] as either driver answers it: an array, or PostgreSQL's text form `{1,2}`. */
function parseIdArray(value: (number | string)[] | string | null | undefined): number[] {
  if (value === null || value === undefined) return [];
  const items = typeof value === 'string' ? value.replace(/[{}]/g, '').split(',').filter(Boolean) : value;
  return items.map((id) => Number(id));
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

function platformOwnerId(ownerId: string): PlatformOwnerId {
  assert.ok(isPlatformOwnerId(ownerId), `platform owner id ${ownerId}`);
  return ownerId;
}

function toAccountRef(row: { ownerKind: string; ownerId: string; type: string; asset: string }): AccountRef {
  assert.ok(isAssetCode(row.asset));
  if (row.ownerKind === 'card')
    return {
      ownerKind: 'card',
      ownerId: row.ownerId,
      type: row.type as Extract<AccountRef, { ownerKind: 'card' }>['type'],
      asset: row.asset,
    };
  if (row.ownerKind === 'trust')
    return {
      ownerKind: 'trust',
      ownerId: row.ownerId,
      type: row.type as Extract<AccountRef, { ownerKind: 'trust' }>['type'],
      asset: row.asset,
    };
  return row.ownerKind === 'user'
    ? {
        ownerKind: 'user',
        ownerId: row.ownerId,
        type: row.type as Extract<AccountRef, { ownerKind: 'user' }>['type'],
        asset: row.asset,
      }
    : {
        ownerKind: 'platform',
        ownerId: platformOwnerId(row.ownerId),
        type: row.type as Extract<AccountRef, { ownerKind: 'platform' }>['type'],
        asset: row.asset,
      };
}

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
