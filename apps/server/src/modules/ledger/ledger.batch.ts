import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { isSqlState } from '../../platform/db/sql-state.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { Entry, EntryInput, Posting, PostResult } from './ledger.types.ts';
import { assertWellFormed, hashEntryRequest, parseIdArray } from './ledger.entries.ts';
import { accountIndex, replayOrConflict } from './ledger.post.ts';

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
