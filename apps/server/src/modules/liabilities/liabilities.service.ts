import { randomBytes } from 'node:crypto';
import {
  buildLiabilitiesTree,
  LIABILITIES_HISTORY_MAX,
  LIABILITIES_PROOF_RETENTION_DAYS,
  LIABILITIES_TREE_VERSION,
  type LiabilitiesCompare,
  type LiabilitiesProof,
  type LiabilitiesSnapshot,
  type LiabilitiesSnapshots,
  liabilitiesLeaf,
  liabilitiesPath,
  liabilitiesUserTag,
  type SumNode,
} from '@meridian/contracts/liabilities';
import { isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { liabilitiesAndHoldings, ownerLiabilitiesByAsset } from '../ledger/ledger.service.ts';
import { liabilitiesLeaves, liabilitiesSnapshots } from './liabilities.tables.ts';

/** Leaves written per INSERT (5 parameters each, well under PostgreSQL's 65,535). */
const LEAVES_PER_INSERT = 1000;

type SnapshotRow = typeof liabilitiesSnapshots.$inferSelect;

/** What the service needs. */
export interface LiabilitiesServiceDeps {
  db: Db;
  log: { info(detail: object, message: string): void };
  /**
   * Who holds the ledger accounts a module keeps on a user's behalf: trusts (the settlor) and cards
   * (the holder). Their balances join that user's leaf; an owner with no holder here is an error.
   */
  accountHolders?: LedgerAccountHolders[];
}

/** One module's map from the ledger owners it creates to the user each is held for. */
export interface LedgerAccountHolders {
  ownerKind: 'trust' | 'card';
  /** Owner id as the ledger stores it (the trust's or card's id as text) → user id, for every owner of the kind. */
  holdersOf(tx: DbOrTx): Promise<Map<string, string>>;
}

/** One user's leaf as the tree is built: tag, salt and balances in the snapshot's asset order. */
interface BuiltLeaf {
  userId: string;
  salt: string;
  tag: string;
  balances: bigint[];
}

/** The day `days` before `date` (YYYY-MM-DD, UTC). */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether the leaves of the snapshot of `date` were pruned, given the newest snapshot's date. */
function isExpired(date: string, latestDate: string): boolean {
  return date < daysBefore(latestDate, LIABILITIES_PROOF_RETENTION_DAYS);
}

/** A display amount: decimal of a known asset, the minor units otherwise. */
function display(minor: bigint, asset: string): string {
  return isAssetCode(asset) ? toDecimalString(minor, asset) : minor.toString();
}

/**
 * Proof of liabilities (docs/liabilities.md): the daily snapshot (a Merkle sum tree of
 * every user's balances per asset, contracts/liabilities.ts), the public list of snapshots, a
 * user's inclusion proof and the operators' comparison of the totals with the platform's holdings.
 */
export class LiabilitiesService {
  /** The last tree rebuilt for proofs (one snapshot's levels), so a burst of downloads hashes it once. */
  private cachedTree: { snapshotId: number; levels: SumNode[][] } | undefined;

  constructor(private readonly deps: LiabilitiesServiceDeps) {}

  /**
   * Build and store the snapshot of `snapshotDate` (YYYY-MM-DD) from the ledger as `tx` sees it:
   * one leaf per user who has a ledger account (a fresh 16-byte salt each), leaves ordered by their
   * salted tag, the root, the totals, and the ledger's liabilities and custody holdings per asset for
   * the operators' comparison. Does nothing when that day's snapshot exists (the job's retry).
   * @returns whether a snapshot was written, and its root hash and leaf count.
   */
  async buildSnapshot(
    snapshotDate: string,
    tx: DbOrTx,
  ): Promise<{ isCreated: boolean; rootHash: string; leafCount: number }> {
    const [existing] = await tx
      .select()
      .from(liabilitiesSnapshots)
      .where(eq(liabilitiesSnapshots.snapshotDate, snapshotDate));
    if (existing) return { isCreated: false, rootHash: existing.rootHash, leafCount: existing.leafCount };

    const rows = await this.userRows(tx);
    const lines = await liabilitiesAndHoldings(tx);
    const assets = [...new Set([...rows.map((row) => row.asset), ...lines.map((line) => line.asset)])].sort();
    const assetIndex = new Map(assets.map((asset, index) => [asset, index]));
    const byUser = new Map<string, bigint[]>();
    for (const row of rows) {
      const balances = byUser.get(row.userId) ?? assets.map(() => 0n);
      balances[assetIndex.get(row.asset)!] = row.balanceMinor;
      byUser.set(row.userId, balances);
    }
    const leaves: BuiltLeaf[] = [...byUser].map(([userId, balances]) => {
      const salt = randomBytes(16).toString('hex');
      return { userId, salt, tag: liabilitiesUserTag(userId, salt), balances };
    });
    leaves.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    const levels = buildLiabilitiesTree(
      leaves.map((leaf) => liabilitiesLeaf(leaf.tag, leaf.balances)),
      assets.length,
    );
    const root = levels.at(-1)![0]!;
    const lineOf = new Map(lines.map((line) => [line.asset, line]));
    const [snapshot] = await tx
      .insert(liabilitiesSnapshots)
      .values({
        snapshotDate,
        rootHash: root.hash,
        assets,
        rootSums: root.sums.map(String),
        ledgerLiabilities: assets.map((asset) => String(lineOf.get(asset)?.liabilitiesMinor ?? 0n)),
        holdings: assets.map((asset) => String(lineOf.get(asset)?.holdingsMinor ?? 0n)),
        leafCount: leaves.length,
      })
      .returning({ id: liabilitiesSnapshots.id });
    for (let start = 0; start < leaves.length; start += LEAVES_PER_INSERT) {
      await tx.insert(liabilitiesLeaves).values(
        leaves.slice(start, start + LEAVES_PER_INSERT).map((leaf, offset) => ({
          snapshotId: snapshot!.id,
          userId: leaf.userId,
          leafIndex: start + offset,
          salt: leaf.salt,
          balances: leaf.balances.map(String),
        })),
      );
    }
    // Leaves older than the retention go (the roots stay): one row per user per day otherwise grows for ever.
    const expired = tx
      .select({ id: liabilitiesSnapshots.id })
      .from(liabilitiesSnapshots)
      .where(lt(liabilitiesSnapshots.snapshotDate, daysBefore(snapshotDate, LIABILITIES_PROOF_RETENTION_DAYS)));
    await tx.delete(liabilitiesLeaves).where(inArray(liabilitiesLeaves.snapshotId, expired));
    this.deps.log.info({ snapshotDate, rootHash: root.hash, leafCount: leaves.length }, 'liabilities snapshot built');
    return { isCreated: true, rootHash: root.hash, leafCount: leaves.length };
  }

  /**
   * Every owner's balances per asset with trusts and cards folded into the user they are held for.
   * @throws Error when a trust's or card's ledger accounts have no known holder (a snapshot that
   *   silently left them out would prove less than the ledger owes).
   */
  private async userRows(tx: DbOrTx): Promise<Array<{ userId: string; asset: string; balanceMinor: bigint }>> {
    const holders = new Map<string, Map<string, string>>();
    for (const source of this.deps.accountHolders ?? []) holders.set(source.ownerKind, await source.holdersOf(tx));
    const sums = new Map<string, { userId: string; asset: string; balanceMinor: bigint }>();
    for (const row of await ownerLiabilitiesByAsset(tx)) {
      const userId = row.ownerKind === 'user' ? row.ownerId : holders.get(row.ownerKind)?.get(row.ownerId);
      if (!userId) throw new Error(`no holder known for the ledger's ${row.ownerKind} ${row.ownerId}`);
      const key = `${userId}\u0000${row.asset}`;
      const sum = sums.get(key) ?? { userId, asset: row.asset, balanceMinor: 0n };
      sum.balanceMinor += row.balanceMinor;
      sums.set(key, sum);
    }
    return [...sums.values()];
  }

  /** The public page: the latest snapshot and the last `LIABILITIES_HISTORY_MAX`, newest first. */
  async snapshots(): Promise<LiabilitiesSnapshots> {
    const rows = await this.deps.db
      .select()
      .from(liabilitiesSnapshots)
      .orderBy(desc(liabilitiesSnapshots.snapshotDate))
      .limit(LIABILITIES_HISTORY_MAX);
    const history = rows.map(toSnapshot);
    return { latest: history[0] ?? null, history };
  }

  /**
   * The inclusion proof of `userId` in the snapshot of `date` (default the latest).
   * @throws DomainError LIABILITIES_NO_SNAPSHOT (240) when there is none; LIABILITIES_NOT_IN_SNAPSHOT
   *   (241) when the user had no ledger account then; LIABILITIES_PROOF_EXPIRED (242) when the
   *   snapshot is older than the retention (`LIABILITIES_PROOF_RETENTION_DAYS`).
   */
  async proofFor(userId: string, date?: string): Promise<LiabilitiesProof> {
    const snapshot = await this.unexpiredSnapshotOn(date);
    const [leaf] = await this.deps.db
      .select()
      .from(liabilitiesLeaves)
      .where(and(eq(liabilitiesLeaves.snapshotId, snapshot.id), eq(liabilitiesLeaves.userId, userId)));
    if (!leaf) throw new DomainError('LIABILITIES_NOT_IN_SNAPSHOT', { date: snapshot.snapshotDate });
    const levels = await this.treeOf(snapshot);
    return {
      version: LIABILITIES_TREE_VERSION,
      snapshotDate: snapshot.snapshotDate,
      assets: snapshot.assets,
      root: { hash: snapshot.rootHash, sums: snapshot.rootSums },
      leafCount: snapshot.leafCount,
      leafIndex: leaf.leafIndex,
      userId,
      salt: leaf.salt,
      balances: leaf.balances,
      path: liabilitiesPath(levels, leaf.leafIndex, snapshot.assets.length).map((node) => ({
        hash: node.hash,
        sums: node.sums.map(String),
      })),
    };
  }

  /**
   * The operators' comparison for the snapshot of `date` (default the latest): per asset the tree's
   * total, the ledger's liabilities and custody's holdings at the snapshot, and whether the stored
   * leaves still rebuild the stored root.
   * @throws DomainError LIABILITIES_NO_SNAPSHOT (240); LIABILITIES_PROOF_EXPIRED (242) past the retention.
   */
  async compare(date?: string): Promise<LiabilitiesCompare> {
    const snapshot = await this.unexpiredSnapshotOn(date);
    const levels = await this.treeOf(snapshot, { isFresh: true });
    const root = levels.at(-1)![0]!;
    return {
      snapshotDate: snapshot.snapshotDate,
      rootHash: snapshot.rootHash,
      isRootRebuilt:
        root.hash === snapshot.rootHash && root.sums.every((sum, at) => String(sum) === snapshot.rootSums[at]),
      lines: snapshot.assets.map((asset, at) => {
        const treeTotal = BigInt(snapshot.rootSums[at] ?? '0');
        const holdings = BigInt(snapshot.holdings[at] ?? '0');
        return {
          asset,
          treeTotalMinor: treeTotal.toString(),
          ledgerLiabilitiesMinor: snapshot.ledgerLiabilities[at] ?? '0',
          holdingsMinor: holdings.toString(),
          surplusMinor: (holdings - treeTotal).toString(),
          isCovered: holdings >= treeTotal,
        };
      }),
    };
  }

  private async snapshotOn(date: string | undefined): Promise<SnapshotRow> {
    const [snapshot] = await this.deps.db
      .select()
      .from(liabilitiesSnapshots)
      .where(date ? eq(liabilitiesSnapshots.snapshotDate, date) : undefined)
      .orderBy(desc(liabilitiesSnapshots.snapshotDate))
      .limit(1);
    if (!snapshot) throw new DomainError('LIABILITIES_NO_SNAPSHOT', { date: date ?? '—' });
    return snapshot;
  }

  /** `snapshotOn`, refusing a snapshot whose leaves are past the retention (242). */
  private async unexpiredSnapshotOn(date: string | undefined): Promise<SnapshotRow> {
    const snapshot = await this.snapshotOn(date);
    if (date !== undefined) {
      const latest = await this.snapshotOn(undefined);
      if (isExpired(snapshot.snapshotDate, latest.snapshotDate))
        throw new DomainError('LIABILITIES_PROOF_EXPIRED', {
          date: snapshot.snapshotDate,
          days: LIABILITIES_PROOF_RETENTION_DAYS,
        });
    }
    return snapshot;
  }

  /** The levels of a snapshot's tree, rebuilt from its stored leaves (cached for the last snapshot asked). */
  private async treeOf(snapshot: SnapshotRow, options: { isFresh?: boolean } = {}): Promise<SumNode[][]> {
    if (!options.isFresh && this.cachedTree?.snapshotId === snapshot.id) return this.cachedTree.levels;
    const rows = await this.deps.db
      .select()
      .from(liabilitiesLeaves)
      .where(eq(liabilitiesLeaves.snapshotId, snapshot.id))
      .orderBy(asc(liabilitiesLeaves.leafIndex));
    const levels = buildLiabilitiesTree(
      rows.map((row) => liabilitiesLeaf(liabilitiesUserTag(row.userId, row.salt), row.balances.map(BigInt))),
      snapshot.assets.length,
    );
    this.cachedTree = { snapshotId: snapshot.id, levels };
    return levels;
  }
}

function toSnapshot(row: SnapshotRow): LiabilitiesSnapshot {
  return {
    snapshotDate: row.snapshotDate,
    rootHash: row.rootHash,
    totals: row.assets.map((asset, at) => {
      const totalMinor = BigInt(row.rootSums[at] ?? '0');
      return { asset, totalMinor: totalMinor.toString(), total: display(totalMinor, asset) };
    }),
    leafCount: row.leafCount,
    createdAt: row.createdAt.toISOString(),
  };
}
