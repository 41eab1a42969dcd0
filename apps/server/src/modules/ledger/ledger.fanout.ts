import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AssetCode } from '@meridian/contracts/money';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { ENTRY_KINDS, type AccountRef, type EntryKind, type UserAccountType } from './ledger.types.ts';

/**
 * One journal entry from a platform account to many user accounts, written set-based (issue 17:
 * the funds' monthly payout credits up to a million holdings; `postEntry` would be a statement per
 * user). The caller first fills the session's input table `ledger_fanout_rows (owner_id text
 * PRIMARY KEY, amount_minor numeric(38,0))` — `beginFanout(tx)` creates and empties it; the caller
 * writes it with one `INSERT … SELECT` (or a data-modifying CTE that ends in one) inside the same
 * transaction — and then `postFanout` posts ONE balanced entry: `source` −total, and +amount to
 * each listed user's `destinationType` account in `asset` (created when missing). Statements, not
 * rows: count/sum/hash, claim the key, credit the existing accounts (each balance update and its
 * posting in one statement), create and credit the missing ones (only when some are missing), debit
 * the source — six to eight statements whatever the number of rows (bounded by `FANOUT_ROWS_MAX`).
 *
 * Only credits to user accounts and a debit of a platform account (which may go negative), so no
 * balance check can fail. Locks: the user accounts are updated in one statement in no set order;
 * a deadlock would need another transaction locking two of these users' accounts of this type,
 * which no flow does (an entry touches one user), so none arises.
 */

/** The session's input table of `postFanout`. */
export const FANOUT_ROWS_TABLE = 'ledger_fanout_rows';

/** Most rows one fanout entry may carry (STYLE: bound every batch). */
export const FANOUT_ROWS_MAX = 100_000;

/** What `postFanout` posts; the rows are in `ledger_fanout_rows`. */
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
}

/** The outcome of `postFanout`: the entry (null when the table was empty), what it moved, and whether it was a replay. */
export interface FanoutResult {
  entryId: number | null;
  rowCount: number;
  totalMinor: bigint;
  isReplay: boolean;
}

/** Create (once per session) and empty the fanout input table. Call inside the caller's transaction. */
export async function beginFanout(db: DbOrTx): Promise<void> {
  await db.execute(
    sql.raw(
      `CREATE TEMP TABLE IF NOT EXISTS ${FANOUT_ROWS_TABLE} (owner_id text PRIMARY KEY, amount_minor numeric(38,0) NOT NULL) ON COMMIT DELETE ROWS`,
    ),
  );
  await db.execute(sql.raw(`TRUNCATE ${FANOUT_ROWS_TABLE}`));
}

/**
 * Post the fanout entry of the rows in `ledger_fanout_rows` (see the file comment). The request hash
 * is SHA-256 of kind, reference, metadata, source, destination and the SHA-256 of the rows sorted
 * by owner: the same key with other rows is refused.
 * @returns `entryId: null` and nothing posted when the table is empty; `isReplay` when the key was
 *   already used by the same request (nothing moves).
 * @throws DomainError CONFLICT (121) when the key was used by a different request.
 * @throws AssertionError when a row's amount is not positive or there are more than FANOUT_ROWS_MAX rows.
 */
export async function postFanout(db: DbOrTx, input: FanoutInput): Promise<FanoutResult> {
  assert.ok((ENTRY_KINDS as readonly string[]).includes(input.kind), `unknown entry kind ${input.kind}`);
  assert.ok(input.idempotencyKey.length > 0 && input.idempotencyKey.length <= 200, 'idempotency key 1–200 characters');
  const [summary] = await queryRows<{ n: string; total: string | null; bad: string; rows_hash: string | null }>(
    db,
    sql`SELECT count(*)::text AS n, sum(amount_minor)::text AS total, count(*) FILTER (WHERE amount_minor <= 0)::text AS bad,
               encode(sha256(convert_to(string_agg(owner_id || ':' || amount_minor::text, ',' ORDER BY owner_id), 'UTF8')), 'hex') AS rows_hash
        FROM ledger_fanout_rows`,
  );
  const rowCount = Number(summary?.n ?? 0);
  if (rowCount === 0) return { entryId: null, rowCount: 0, totalMinor: 0n, isReplay: false };
  assert.ok(rowCount <= FANOUT_ROWS_MAX, `a fanout carries at most ${FANOUT_ROWS_MAX} rows`);
  assert.equal(summary?.bad, '0', 'fanout amounts are positive');
  const totalMinor = BigInt(summary!.total!);
  const { source } = input;
  assert.equal(source.asset, input.asset, 'a fanout moves one asset');
  const metadata = input.metadata ?? {};
  const requestHash = createHash('sha256')
    .update(
      JSON.stringify({
        kind: input.kind,
        reference: input.reference,
        metadata: Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : 1)),
        source: [source.ownerKind, source.ownerId, source.type, source.asset],
        destination: [input.destinationType, input.asset],
        rows: summary!.rows_hash,
      }),
    )
    .digest('hex');

  const [claimed] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO ledger_entries (kind, reference, idempotency_key, request_hash, metadata)
        VALUES (${input.kind}, ${input.reference}, ${input.idempotencyKey}, ${requestHash}, ${JSON.stringify(metadata)}::jsonb)
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING id::text AS id`,
  );
  if (!claimed) {
    const [existing] = await queryRows<{ id: string; request_hash: string }>(
      db,
      sql`SELECT id::text AS id, request_hash FROM ledger_entries WHERE idempotency_key = ${input.idempotencyKey}`,
    );
    if (existing?.request_hash !== requestHash)
      throw new DomainError('CONFLICT', {}, { idempotencyKey: input.idempotencyKey });
    return { entryId: Number(existing.id), rowCount, totalMinor, isReplay: true };
  }
  const entryId = Number(claimed.id);
  // Index probes only for the statements below, as the ledger's SQL functions hold their plans
  // (docs/ledger.md "Generic plans"): the input table has no statistics, and a hash join would read
  // every account of the ledger once per fanout. The settings are restored at the end.
  const [previous] = await queryRows<{ seqscan: string; hashjoin: string; mergejoin: string }>(
    db,
    sql`SELECT current_setting('enable_seqscan') AS seqscan, current_setting('enable_hashjoin') AS hashjoin,
               current_setting('enable_mergejoin') AS mergejoin,
               set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),
               set_config('enable_mergejoin', 'off', true)`,
  );

  // The source account, then the credits: ONE statement updates every existing destination's
  // balance and writes its posting from the updated rows (one index probe per row, not one per
  // statement). Destinations that do not exist yet (a first payout) are created afterwards, sorted as
  // ledger_post creates them, and credited by the same statement limited to the accounts this entry
  // has not posted to yet (probed through ledger_postings_account_idx).
  await db.execute(
    sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
        VALUES ('platform', ${source.ownerId}, ${source.type}, ${source.asset}, true) ON CONFLICT DO NOTHING`,
  );
  const credit = (onlyUnposted: boolean) =>
    queryRows<{ n: string }>(
      db,
      sql`WITH credited AS (
            UPDATE ledger_accounts a SET balance_minor = a.balance_minor + r.amount_minor
            FROM ledger_fanout_rows r
            WHERE a.owner_kind = 'user' AND a.owner_id = r.owner_id AND a.type = ${input.destinationType} AND a.asset = ${input.asset}
              ${onlyUnposted ? sql`AND NOT EXISTS (SELECT 1 FROM ledger_postings p WHERE p.account_id = a.id AND p.entry_id = ${entryId}::bigint)` : sql``}
            RETURNING a.id, r.amount_minor
          ), posted AS (
            INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
            SELECT ${entryId}::bigint, credited.id, ${input.asset}, credited.amount_minor FROM credited
            RETURNING 1
          )
          SELECT count(*)::text AS n FROM posted`,
    );
  let creditedCount = Number((await credit(false))[0]?.n ?? 0);
  if (creditedCount < rowCount) {
    await db.execute(
      sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
          SELECT 'user', r.owner_id, ${input.destinationType}, ${input.asset}, false FROM ledger_fanout_rows r
          WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a
            WHERE a.owner_kind = 'user' AND a.owner_id = r.owner_id AND a.type = ${input.destinationType} AND a.asset = ${input.asset})
          ORDER BY r.owner_id ON CONFLICT DO NOTHING`,
    );
    creditedCount += Number((await credit(true))[0]?.n ?? 0);
  }
  assert.equal(creditedCount, rowCount, 'every fanout row is credited once');
  // The debit of the source by the total.
  await db.execute(
    sql`INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
        SELECT ${entryId}::bigint, a.id, ${source.asset}, ${(-totalMinor).toString()}::numeric
        FROM ledger_accounts a
        WHERE a.owner_kind = 'platform' AND a.owner_id = ${source.ownerId} AND a.type = ${source.type} AND a.asset = ${source.asset}`,
  );
  await db.execute(
    sql`UPDATE ledger_accounts SET balance_minor = balance_minor - ${totalMinor.toString()}::numeric
        WHERE owner_kind = 'platform' AND owner_id = ${source.ownerId} AND type = ${source.type} AND asset = ${source.asset}`,
  );
  await db.execute(
    sql`SELECT set_config('enable_seqscan', ${previous!.seqscan}, true), set_config('enable_hashjoin', ${previous!.hashjoin}, true),
               set_config('enable_mergejoin', ${previous!.mergejoin}, true)`,
  );
  return { entryId, rowCount, totalMinor, isReplay: false };
}
