import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type AssetCode, isAssetCode } from '@meridian/contracts/money';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import {
  type AccountRef,
  type Entry,
  ENTRY_KINDS,
  type EntryInput,
  type EntryKind,
  isPlatformOwnerId,
  type PlatformOwnerId,
  type Posting,
} from './ledger.types.ts';

/** Most postings one entry may carry (STYLE: bound every batch). */
export const POSTINGS_PER_ENTRY_MAX = 64;
/** Longest idempotency key, in characters. */
export const IDEMPOTENCY_KEY_LENGTH_MAX = 200;

/** One string per account (owner kind, owner, type, asset), for maps of accounts. */
export function accountKey(ref: { ownerKind: string; ownerId: string; type: string; asset: string }): string {
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

/** Programmer errors in an entry request: asserted, never handled (a broken one is a bug, not a user error). */
export function assertWellFormed(input: EntryInput): void {
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

/** A stored entry with its postings, in posting order. */
export async function loadEntry(db: DbOrTx, row: typeof ledgerEntries.$inferSelect): Promise<Entry> {
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

/** An entry row and its postings as an `Entry`. */
export function toEntry(
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

/** A bigint[] as either driver answers it: an array, or PostgreSQL's text form `{1,2}`. */
export function parseIdArray(value: (number | string)[] | string | null | undefined): number[] {
  if (value === null || value === undefined) return [];
  const items = typeof value === 'string' ? value.replace(/[{}]/g, '').split(',').filter(Boolean) : value;
  return items.map((id) => Number(id));
}

/** A stored platform owner id, asserted to be one. */
export function platformOwnerId(ownerId: string): PlatformOwnerId {
  assert.ok(isPlatformOwnerId(ownerId), `platform owner id ${ownerId}`);
  return ownerId;
}

/** A stored account (owner kind, owner, type, asset) as an `AccountRef`; asserts a known asset. */
export function toAccountRef(row: { ownerKind: string; ownerId: string; type: string; asset: string }): AccountRef {
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
