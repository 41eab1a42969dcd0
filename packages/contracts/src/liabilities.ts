import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * Proof of liabilities (docs/liabilities.md). Once a day the server
 * builds a Merkle SUM tree over every user's liabilities per asset (the balances of all their ledger
 * accounts) and publishes its root and totals; each user downloads an inclusion proof and checks it
 * here (the browser) or with `scripts/verify-liabilities-proof.mjs`. The tree and its rules are ours;
 * the hash is SHA-256 (@noble/hashes). Every amount is an integer count of minor units of its asset
 * as a decimal string (never a JS number), in the order of the snapshot's `assets`.
 *
 * - user tag  = SHA-256("meridian-pol/user/v1:" + salt + ":" + userId)          (hex; salt: 32 hex, per user per snapshot)
 * - leaf      = SHA-256("meridian-pol/leaf/v1:" + userTag + ":" + b1,b2,…)      sums = the balances
 * - node      = SHA-256("meridian-pol/node/v1:" + L.hash + ":" + L.sums + ":" + R.hash + ":" + R.sums)
 *               sums = L.sums + R.sums per asset (both children's sums are inside the parent's hash,
 *               so a shrunk sum anywhere changes the root)
 * - padding   = SHA-256("meridian-pol/pad/v1"), sums all 0: appended to a level of odd length
 * - leaves are ordered by user tag (which says nothing about the user), one per user.
 */

/** Version of the tree rules above; a proof of another version is refused. */
export const LIABILITIES_TREE_VERSION = 1;

/** A node of the tree: its hash (64 hex) and its sums per asset (minor units). */
export interface SumNode {
  hash: string;
  sums: bigint[];
}

const SALT_PATTERN = /^[0-9a-f]{32}$/;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** An integer of minor units; a minus sign is read so that the check can name it (`negative-sum`). */
const MINOR_PATTERN = /^-?(0|[1-9]\d{0,37})$/;

function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The user's tag in the tree: the salted hash of the user id (hex). */
export function liabilitiesUserTag(userId: string, salt: string): string {
  return sha256Hex(`meridian-pol/user/v1:${salt}:${userId}`);
}

/** A leaf from the user's tag and balances (minor units, in the snapshot's asset order). */
export function liabilitiesLeaf(userTag: string, balances: readonly bigint[]): SumNode {
  return { hash: sha256Hex(`meridian-pol/leaf/v1:${userTag}:${balances.join(',')}`), sums: [...balances] };
}

/** The parent of two nodes: both children's hashes and sums hashed together, sums added per asset. */
export function liabilitiesParent(left: SumNode, right: SumNode): SumNode {
  return {
    hash: sha256Hex(`meridian-pol/node/v1:${left.hash}:${left.sums.join(',')}:${right.hash}:${right.sums.join(',')}`),
    sums: left.sums.map((sum, index) => sum + (right.sums[index] ?? 0n)),
  };
}

/** The padding node of a level of odd length (`assetCount` zero sums). */
export function liabilitiesPadding(assetCount: number): SumNode {
  return { hash: sha256Hex('meridian-pol/pad/v1'), sums: Array.from({ length: assetCount }, () => 0n) };
}

/**
 * Every level of the tree over `leaves` (in order), from the leaves (level 0) to the root (last
 * level, one node). An empty tree's root is the padding node.
 */
export function buildLiabilitiesTree(leaves: readonly SumNode[], assetCount: number): SumNode[][] {
  const padding = liabilitiesPadding(assetCount);
  const levels: SumNode[][] = [leaves.length === 0 ? [padding] : [...leaves]];
  let level = levels[0]!;
  while (level.length > 1) {
    const next: SumNode[] = [];
    for (let index = 0; index < level.length; index += 2)
      next.push(liabilitiesParent(level[index]!, level[index + 1] ?? padding));
    levels.push(next);
    level = next;
  }
  return levels;
}

/** The siblings of leaf `leafIndex`, bottom up (what an inclusion proof carries). */
export function liabilitiesPath(levels: readonly SumNode[][], leafIndex: number, assetCount: number): SumNode[] {
  const padding = liabilitiesPadding(assetCount);
  const path: SumNode[] = [];
  let index = leafIndex;
  for (const level of levels.slice(0, -1)) {
    path.push(level[index ^ 1] ?? padding);
    index >>= 1;
  }
  return path;
}

// ---------------------------------------------------------------- the proof on the wire

const minorTextSchema = z.string().regex(MINOR_PATTERN);
const sumNodeTextSchema = z.object({ hash: z.string().regex(HASH_PATTERN), sums: z.array(minorTextSchema) });

/**
 * A user's inclusion proof (`GET liabilities/proof`), the JSON file the user downloads. Sums and
 * balances: minor units as decimal strings in the order of `assets`; `path`: the siblings from the
 * leaf up; the side of each is given by the bits of `leafIndex` (0: the sibling is on the right).
 */
export const liabilitiesProofSchema = z.object({
  version: z.literal(LIABILITIES_TREE_VERSION),
  snapshotDate: z.string(),
  assets: z.array(z.string()).min(1),
  root: sumNodeTextSchema,
  leafCount: z.number().int().positive(),
  leafIndex: z.number().int().nonnegative(),
  userId: z.string().min(1),
  salt: z.string().regex(SALT_PATTERN),
  balances: z.array(minorTextSchema),
  path: z.array(sumNodeTextSchema),
});
export type LiabilitiesProof = z.infer<typeof liabilitiesProofSchema>;

/** The outcome of `verifyLiabilitiesProof`: valid, or the first rule the proof breaks. */
export type LiabilitiesProofCheck =
  | { isValid: true; rootHash: string; balances: Record<string, string> }
  | {
      isValid: false;
      reason: 'format' | 'shape' | 'negative-sum' | 'root-hash' | 'root-sums';
    };

/** Levels above the leaves in a tree of `leafCount` leaves: ⌈log2(leafCount)⌉. */
export function liabilitiesTreeDepth(leafCount: number): number {
  let depth = 0;
  while (2 ** depth < leafCount) depth += 1;
  return depth;
}

/**
 * Check an inclusion proof (any JSON value): the leaf is recomputed from the user id, salt and
 * balances, then combined with each sibling up to the root, whose hash AND sums must equal the
 * published root's. Every sum must be a non-negative integer (a negative sibling could otherwise
 * hide a balance), and the path must be exactly as long as the tree of `leafCount` is deep.
 * Published in `docs/liabilities.md`; the same rules in `scripts/verify-liabilities-proof.mjs`.
 */
export function verifyLiabilitiesProof(input: unknown): LiabilitiesProofCheck {
  const parsed = liabilitiesProofSchema.safeParse(input);
  if (!parsed.success) return { isValid: false, reason: 'format' };
  const proof = parsed.data;
  const amounts = [...proof.balances, ...proof.root.sums, ...proof.path.flatMap((node) => node.sums)];
  if (amounts.some((text) => text.startsWith('-'))) return { isValid: false, reason: 'negative-sum' };
  const assetCount = proof.assets.length;
  const isShapeRight =
    proof.leafIndex < proof.leafCount &&
    proof.path.length === liabilitiesTreeDepth(proof.leafCount) &&
    proof.balances.length === assetCount &&
    proof.root.sums.length === assetCount &&
    proof.path.every((node) => node.sums.length === assetCount);
  if (!isShapeRight) return { isValid: false, reason: 'shape' };
  let node = liabilitiesLeaf(liabilitiesUserTag(proof.userId, proof.salt), proof.balances.map(BigInt));
  let index = proof.leafIndex;
  for (const sibling of proof.path) {
    const other: SumNode = { hash: sibling.hash, sums: sibling.sums.map(BigInt) };
    node = index % 2 === 0 ? liabilitiesParent(node, other) : liabilitiesParent(other, node);
    index = Math.floor(index / 2);
  }
  if (node.hash !== proof.root.hash) return { isValid: false, reason: 'root-hash' };
  if (node.sums.some((sum, at) => sum.toString() !== proof.root.sums[at]))
    return { isValid: false, reason: 'root-sums' };
  return {
    isValid: true,
    rootHash: node.hash,
    balances: Object.fromEntries(proof.assets.map((asset, at) => [asset, proof.balances[at]!])),
  };
}

// ---------------------------------------------------------------- the public page

/** One asset's total in a snapshot: minor units (the root's sum) and the decimal display. */
export const liabilitiesTotalSchema = z.object({ asset: z.string(), totalMinor: z.string(), total: z.string() });

/** A published snapshot: date (UTC day of the run), root, totals per asset, number of users. */
export const liabilitiesSnapshotSchema = z.object({
  snapshotDate: z.string(),
  rootHash: z.string(),
  totals: z.array(liabilitiesTotalSchema),
  leafCount: z.number().int(),
  createdAt: z.string(),
});
export type LiabilitiesSnapshot = z.infer<typeof liabilitiesSnapshotSchema>;

/** `GET liabilities/snapshots`: the latest snapshot (null before the first run) and the last 30, newest first. */
export const liabilitiesSnapshotsSchema = z.object({
  latest: liabilitiesSnapshotSchema.nullable(),
  history: z.array(liabilitiesSnapshotSchema),
});
export type LiabilitiesSnapshots = z.infer<typeof liabilitiesSnapshotsSchema>;

/** Snapshots the public page lists. */
export const LIABILITIES_HISTORY_MAX = 30;

/**
 * Days a snapshot's leaves (and so its proofs) are kept after its date: one leaf per user per day
 * would otherwise grow without end. Roots and totals are kept for ever.
 */
export const LIABILITIES_PROOF_RETENTION_DAYS = 30;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** `GET liabilities/proof?date=YYYY-MM-DD`: the date of the snapshot (default: the latest). */
export const liabilitiesProofQuerySchema = z.object({
  date: z.string().max(10, { abort: true }).regex(DATE_PATTERN, { error: 'validation.date' }).optional(),
});

/** Per asset: the tree's total against the platform's holdings when the snapshot was taken (operators). */
export const liabilitiesCompareLineSchema = z.object({
  asset: z.string(),
  /** The root's sum: every user's balances (minor units, decimal string). */
  treeTotalMinor: z.string(),
  /** The ledger's liabilities at the snapshot: user accounts, trusts, released trusts still owed. */
  ledgerLiabilitiesMinor: z.string(),
  /** What the custody (hot wallet) accounts held at the snapshot. */
  holdingsMinor: z.string(),
  /** holdings − tree total; negative: the users' balances are not covered by custody alone. */
  surplusMinor: z.string(),
  isCovered: z.boolean(),
});
export const liabilitiesCompareSchema = z.object({
  snapshotDate: z.string(),
  rootHash: z.string(),
  /** The stored leaves rebuild the stored root (nothing was changed since the run). */
  isRootRebuilt: z.boolean(),
  lines: z.array(liabilitiesCompareLineSchema),
});
export type LiabilitiesCompare = z.infer<typeof liabilitiesCompareSchema>;

/** The proof-of-liabilities calls (module `liabilities`). */
export const liabilitiesEndpoints = {
  getSnapshots: defineEndpoint({
    method: 'GET',
    path: '/liabilities/snapshots',
    tag: 'liabilities',
    summary: 'Proof of liabilities: the latest Merkle sum root, totals per asset and the history (public)',
    auth: 'none',
    content: liabilitiesSnapshotsSchema,
  }),
  getProof: defineEndpoint({
    method: 'GET',
    path: '/liabilities/proof',
    tag: 'liabilities',
    summary: "The signed-in user's inclusion proof in a snapshot (default the latest), to verify against its root",
    auth: 'user',
    query: liabilitiesProofQuerySchema,
    content: liabilitiesProofSchema,
    codes: ['LIABILITIES_NO_SNAPSHOT', 'LIABILITIES_NOT_IN_SNAPSHOT', 'LIABILITIES_PROOF_EXPIRED'],
  }),
};

/** The operators' call: totals against holdings (`npm run ops -- liabilities compare`). */
export const opsLiabilitiesEndpoints = {
  compare: defineEndpoint({
    method: 'GET',
    path: '/admin/liabilities/compare',
    tag: 'admin',
    summary:
      "A snapshot's totals per asset against the platform's holdings, and whether its stored leaves rebuild its root",
    auth: 'operator',
    roles: ['finance', 'compliance'],
    query: liabilitiesProofQuerySchema,
    content: liabilitiesCompareSchema,
    codes: ['LIABILITIES_NO_SNAPSHOT', 'LIABILITIES_PROOF_EXPIRED'],
  }),
};
