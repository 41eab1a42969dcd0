import assert from 'node:assert/strict';
import type { AssetCode } from '@meridian/contracts/money';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { ENTRY_KINDS, type AccountRef, type EntryKind, type UserAccountType } from './ledger.types.ts';

/**
 * One journal entry from a platform account to many user accounts, written set-based (for
 * the funds' monthly payout, which credits up to a million holdings; `postEntry` would be a statement per
 * user). The caller gives the credits as SQL (`rows`: a query, or one data-modifying statement with
 * `RETURNING`, yielding owner id, amount and — when known — the owner's account id), and
 * `postFanout` runs it inside ONE statement that also computes the rows' count, sum and hash, claims
 * the idempotency key, credits each listed user's `destinationType` account in `asset` (found by id
 * when given, else by owner; the missing ones created with the credit as their balance), debits
 * `source` by the total and writes every posting (docs/ledger.md "Fanout"). So the rows are
 * produced, read and posted in one pass, without an intermediate table.
 *
 * Only credits to user accounts and a debit of a platform account (which may go negative), so no
 * balance check can fail. Locks: the user accounts are updated in one statement in no set order,
 * then the source; a deadlock would need another transaction locking two of these users' accounts
 * of this type, which no flow does (an entry touches one user), so none arises.
 */

/** Most rows one fanout entry may carry (STYLE: bound every batch). */
export const FANOUT_ROWS_MAX = 100_000;

/** What `postFanout` posts. */
export interface FanoutInput {
  kind: EntryKind;
  reference: string;
  /** Unique per intended movement (e.g. `fund-payout:2026-02:17`); the same on every retry. */
  idempotencyKey: string;
  /** The platform account debited by the total. */
  source: AccountRef & { ownerKind: 'platform' };
  destinationType: UserAccountType;
  asset: AssetCode;
  metadata?: Record<string, string>;
  /**
   * The credits, one row per user: SQL yielding three columns in this order — the user's owner id
   * (text, not null, each at most once), the amount (numeric, a positive whole number of minor
   * units, scale 0 as `numeric(38,0)`) and the id of the owner's `destinationType` account in
   * `asset` when the caller knows it (bigint; NULL when not): a known id is found through the
   * primary key (and must be that owner's account of that type and asset, or the fanout is
   * refused), an unknown one through the owner key (text) — or created. A `SELECT`, `VALUES`, or
   * ONE data-modifying statement with `RETURNING` (e.g. the funds' `UPDATE` of the holdings it
   * pays: the update and the posting are then one statement). It runs exactly once, as a `WITH` item of `postFanout`'s statement, under
   * its planner settings (index probes, no hash or merge joins); it must not hold a data-modifying
   * `WITH` of its own (PostgreSQL allows those only at the top level).
   */
  rows: SQL;
}

/** The outcome of `postFanout`: the entry (null when there were no rows), what it moved, and whether it was a replay. */
export interface FanoutResult {
  entryId: number | null;
  rowCount: number;
  totalMinor: bigint;
  isReplay: boolean;
}

/** The statement's answer: the rows' summary and what was written. */
interface FanoutOutcome {
  n: string;
  total: string | null;
  bad: string;
  request_hash: string | null;
  entry_id: string | null;
  credited_by_id: string;
  credited_by_owner: string;
  created: string;
  posted: string;
  posted_sum: string;
}

/** Thrown inside the savepoint to undo the statement when the key was not claimed (replay or conflict). */
class FanoutNotClaimed extends Error {
  constructor(readonly outcome: FanoutOutcome) {
    super('fanout key not claimed');
  }
}

/**
 * The one statement of a fanout (see `postFanout`): claims the key, credits every row's account
 * (by id, by owner, or created), debits the source and writes the postings, answering the counts
 * `postFanout` checks. `requestPrefix` is the request's JSON without its closing rows hash.
 */
function fanoutStatement(input: FanoutInput, requestPrefix: string): SQL {
  const { source, destinationType, asset } = input;
  const metadata = input.metadata ?? {};
  return sql`WITH fanout_rows (owner_id, amount_minor, account_id) AS (${input.rows}),
      summary AS (
        SELECT count(*) AS n, sum(amount_minor) AS total,
               count(*) FILTER (WHERE owner_id IS NULL OR amount_minor IS NULL OR amount_minor <= 0 OR scale(amount_minor) > 0) AS bad,
               encode(sha256(convert_to(${requestPrefix} || encode(sha256(convert_to(
                 string_agg(owner_id || ':' || amount_minor::text, ',' ORDER BY owner_id COLLATE "C"), 'UTF8')), 'hex') || '"}', 'UTF8')), 'hex') AS request_hash
        FROM fanout_rows
      ),
      entry AS (
        INSERT INTO ledger_entries (kind, reference, idempotency_key, request_hash, metadata)
        SELECT ${input.kind}, ${input.reference}, ${input.idempotencyKey}, s.request_hash, ${JSON.stringify(metadata)}::jsonb
        FROM summary s WHERE s.n BETWEEN 1 AND ${FANOUT_ROWS_MAX} AND s.bad = 0
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
      ),
      credited_by_id AS (
        UPDATE ledger_accounts a SET balance_minor = a.balance_minor + r.amount_minor
        FROM fanout_rows r
        WHERE r.account_id IS NOT NULL AND a.id = r.account_id
          AND a.owner_kind = 'user' AND a.owner_id = r.owner_id AND a.type = ${destinationType} AND a.asset = ${asset}
          AND EXISTS (SELECT 1 FROM entry)
        RETURNING a.id, a.owner_id, r.amount_minor
      ),
      credited_by_owner AS (
        UPDATE ledger_accounts a SET balance_minor = a.balance_minor + r.amount_minor
        FROM fanout_rows r
        WHERE r.account_id IS NULL
          AND a.owner_kind = 'user' AND a.owner_id = r.owner_id AND a.type = ${destinationType} AND a.asset = ${asset}
          AND EXISTS (SELECT 1 FROM entry)
        RETURNING a.id, a.owner_id, r.amount_minor
      ),
      created AS (
        INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, balance_minor, is_negative_allowed)
        SELECT 'user', r.owner_id, ${destinationType}, ${asset}, r.amount_minor, false FROM fanout_rows r
        WHERE (SELECT count(*) FROM credited_by_id) + (SELECT count(*) FROM credited_by_owner) < (SELECT n FROM summary)
          AND r.account_id IS NULL AND EXISTS (SELECT 1 FROM entry)
          AND r.owner_id NOT IN (SELECT c.owner_id FROM credited_by_owner c)
        ORDER BY r.owner_id
        ON CONFLICT DO NOTHING RETURNING id, balance_minor AS amount_minor
      ),
      debited AS (
        UPDATE ledger_accounts a SET balance_minor = a.balance_minor - s.total FROM summary s
        WHERE a.owner_kind = 'platform' AND a.owner_id = ${source.ownerId} AND a.type = ${source.type} AND a.asset = ${source.asset}
          AND EXISTS (SELECT 1 FROM entry)
        RETURNING a.id, -s.total AS amount_minor
      ),
      posted AS (
        INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
        SELECT e.id, p.id, ${asset}, p.amount_minor
        FROM entry e, (SELECT id, amount_minor FROM credited_by_id UNION ALL SELECT id, amount_minor FROM credited_by_owner
                       UNION ALL SELECT id, amount_minor FROM created UNION ALL SELECT id, amount_minor FROM debited) p
        RETURNING amount_minor
      )
      SELECT s.n::text AS n, s.total::text AS total, s.bad::text AS bad, s.request_hash,
             (SELECT id::text FROM entry) AS entry_id,
             (SELECT count(*) FROM credited_by_id)::text AS credited_by_id,
             (SELECT count(*) FROM credited_by_owner)::text AS credited_by_owner,
             (SELECT count(*) FROM created)::text AS created,
             (SELECT count(*) FROM posted)::text AS posted,
             (SELECT coalesce(sum(amount_minor), 0) FROM posted)::text AS posted_sum
      FROM summary s`;
}

/**
 * Post ONE balanced entry crediting each row of `input.rows` (see the file comment and
 * `FanoutInput.rows`): `source` −total, +amount to each owner's `destinationType` account in `asset`
 * (created when missing, with the amount as its opening balance). The request hash is SHA-256 of
 * kind, reference, metadata, source, destination and the SHA-256 of the rows sorted by owner id
 * (bytewise), computed in the statement from the rows it produced: the same key with other rows is
 * refused.
 *
 * Runs in a savepoint of `db` (a transaction, or its own transaction when `db` is the pool), so
 * whatever the statement changed — the rows' own source included, e.g. the holdings marked paid —
 * is undone when nothing is posted: on a replay, a conflict or a failed assertion.
 * @returns `entryId: null` and nothing posted when there are no rows; `isReplay` when the key was
 *   already used by the same request (nothing moves, the rows' source changes are undone).
 * @throws DomainError CONFLICT (121) when the key was used by a different request (nothing changed).
 * @throws AssertionError when a row's owner is null or listed twice, its amount not a positive whole
 *   number, its account id not that owner's `destinationType` account in `asset`, there are more than
 *   FANOUT_ROWS_MAX rows, or an account to create was created meanwhile by another transaction
 *   (nothing changed; the caller may retry).
 */
export async function postFanout(db: DbOrTx, input: FanoutInput): Promise<FanoutResult> {
  assert.ok((ENTRY_KINDS as readonly string[]).includes(input.kind), `unknown entry kind ${input.kind}`);
  assert.ok(input.idempotencyKey.length > 0 && input.idempotencyKey.length <= 200, 'idempotency key 1–200 characters');
  const { source, destinationType, asset } = input;
  assert.equal(source.asset, asset, 'a fanout moves one asset');
  const metadata = input.metadata ?? {};
  // The request hash is SHA-256 of this JSON with the rows' hash as its last member ("rows"), so the
  // statement completes it: requestJson = prefix + rows hash + '"}'.
  const requestJson = JSON.stringify({
    kind: input.kind,
    reference: input.reference,
    metadata: Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : 1)),
    source: [source.ownerKind, source.ownerId, source.type, source.asset],
    destination: [destinationType, asset],
    rows: '',
  });
  assert.ok(requestJson.endsWith('"rows":""}'));
  const requestPrefix = requestJson.slice(0, -2);

  let outcome: FanoutOutcome;
  try {
    outcome = await db.transaction(async (sp) => {
      // Index probes only, as the ledger's SQL functions hold their plans (docs/ledger.md "Generic
      // plans"): the rows' estimate is the caller's, and a hash join would read every account of the
      // ledger once per fanout; work_mem for the sorted hash of up to FANOUT_ROWS_MAX rows and the
      // hashed look-up of the credited owners, in memory. The source account exists before the
      // statement (its debit updates it); looked up first, so that a concurrent fanout's uncommitted
      // debit of it is not waited for (ON CONFLICT alone would wait for that transaction to end).
      // Settings are local to the savepoint's transaction and restored below.
      const [previous] = await queryRows<{ seqscan: string; hashjoin: string; mergejoin: string; workmem: string }>(
        sp,
        sql`WITH source_account AS (
              INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
              SELECT 'platform', ${source.ownerId}, ${source.type}, ${source.asset}, true
              WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts
                WHERE owner_kind = 'platform' AND owner_id = ${source.ownerId} AND type = ${source.type} AND asset = ${source.asset})
              ON CONFLICT DO NOTHING
            )
            SELECT current_setting('enable_seqscan') AS seqscan, current_setting('enable_hashjoin') AS hashjoin,
                   current_setting('enable_mergejoin') AS mergejoin, current_setting('work_mem') AS workmem,
                   set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
                   set_config('enable_mergejoin', 'off', true), set_config('work_mem', '64MB', true)`,
      );
      const [result] = await queryRows<FanoutOutcome>(sp, fanoutStatement(input, requestPrefix));
      assert.ok(result, 'the fanout statement answers one row');
      const rowCount = Number(result.n);
      if (rowCount > 0) {
        assert.ok(rowCount <= FANOUT_ROWS_MAX, `a fanout carries at most ${FANOUT_ROWS_MAX} rows`);
        assert.equal(result.bad, '0', 'fanout owners are set and amounts positive whole numbers');
        if (result.entry_id === null) throw new FanoutNotClaimed(result);
        assert.equal(
          Number(result.credited_by_id) + Number(result.credited_by_owner) + Number(result.created),
          rowCount,
          'every fanout row is credited once (owners listed once, account ids their own, no account created meanwhile)',
        );
        assert.equal(Number(result.posted), rowCount + 1, 'one posting per row and the debit');
        assert.equal(result.posted_sum, '0', 'the fanout entry balances');
      }
      await sp.execute(
        sql`SELECT set_config('enable_seqscan', ${previous!.seqscan}, true), set_config('enable_hashjoin', ${previous!.hashjoin}, true),
                   set_config('enable_mergejoin', ${previous!.mergejoin}, true), set_config('work_mem', ${previous!.workmem}, true)`,
      );
      return result;
    });
  } catch (error) {
    if (!(error instanceof FanoutNotClaimed)) throw error;
    // The key is taken: the savepoint undid everything; the same request is a replay, another a conflict.
    const [existing] = await queryRows<{ id: string; request_hash: string }>(
      db,
      sql`SELECT id::text AS id, request_hash FROM ledger_entries WHERE idempotency_key = ${input.idempotencyKey}`,
    );
    if (!existing || existing.request_hash !== error.outcome.request_hash)
      throw new DomainError('CONFLICT', {}, { idempotencyKey: input.idempotencyKey });
    return {
      entryId: Number(existing.id),
      rowCount: Number(error.outcome.n),
      totalMinor: BigInt(error.outcome.total!),
      isReplay: true,
    };
  }
  const rowCount = Number(outcome.n);
  if (rowCount === 0) return { entryId: null, rowCount: 0, totalMinor: 0n, isReplay: false };
  return { entryId: Number(outcome.entry_id), rowCount, totalMinor: BigInt(outcome.total!), isReplay: false };
}
