import { describe, expect, it } from 'vitest';
import {
  buildLiabilitiesTree,
  type LiabilitiesProof,
  liabilitiesLeaf,
  liabilitiesPath,
  liabilitiesUserTag,
  verifyLiabilitiesProof,
} from './liabilities.ts';

const ASSETS = ['BTC', 'USDT'];
const USERS = [
  { userId: 'u-alice', salt: '0'.repeat(31) + '1', balances: [150_000_000n, 0n] },
  { userId: 'u-bob', salt: '0'.repeat(31) + '2', balances: [0n, 2_500_000_000n] },
  { userId: 'u-carol', salt: '0'.repeat(31) + '3', balances: [1n, 7n] },
  { userId: 'u-dave', salt: '0'.repeat(31) + '4', balances: [42n, 0n] },
  { userId: 'u-erin', salt: '0'.repeat(31) + '5', balances: [0n, 0n] },
];

/** Build the tree as the server does (leaves ordered by user tag) and the proof of `userId`. */
function proofOf(userId: string, users = USERS): LiabilitiesProof {
  const leaves = users
    .map((user) => ({ ...user, tag: liabilitiesUserTag(user.userId, user.salt) }))
    .sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const levels = buildLiabilitiesTree(
    leaves.map((leaf) => liabilitiesLeaf(leaf.tag, leaf.balances)),
    ASSETS.length,
  );
  const root = levels.at(-1)![0]!;
  const leafIndex = leaves.findIndex((leaf) => leaf.userId === userId);
  const leaf = leaves[leafIndex]!;
  return {
    version: 1,
    snapshotDate: '2026-11-26',
    assets: ASSETS,
    root: { hash: root.hash, sums: root.sums.map(String) },
    leafCount: leaves.length,
    leafIndex,
    userId,
    salt: leaf.salt,
    balances: leaf.balances.map(String),
    path: liabilitiesPath(levels, leafIndex, ASSETS.length).map((node) => ({
      hash: node.hash,
      sums: node.sums.map(String),
    })),
  };
}

describe('proof of liabilities: the Merkle sum tree', () => {
  it("accepts every user's proof, whose root sums are the totals per asset", () => {
    for (const user of USERS) {
      const proof = proofOf(user.userId);
      expect(verifyLiabilitiesProof(proof)).toMatchObject({ isValid: true, rootHash: proof.root.hash });
      expect(proof.root.sums).toEqual(['150000043', '2500000007']);
      expect(proof.path).toHaveLength(3); // 5 leaves: ⌈log2 5⌉ levels
    }
  });

  it('accepts a one-user tree (the leaf is the root)', () => {
    const proof = proofOf('u-alice', USERS.slice(0, 1));
    expect(proof.path).toEqual([]);
    expect(verifyLiabilitiesProof(proof).isValid).toBe(true);
  });

  it('rejects a changed balance', () => {
    const proof = proofOf('u-bob');
    expect(verifyLiabilitiesProof({ ...proof, balances: ['0', '2499999999'] })).toEqual({
      isValid: false,
      reason: 'root-hash',
    });
  });

  it("rejects a shrunk sum in a sibling (a node's sums are in its parent's hash)", () => {
    const proof = proofOf('u-bob');
    const path = proof.path.map((node, at) =>
      at === 1 ? { ...node, sums: [String(BigInt(node.sums[0]!) - 1n), node.sums[1]!] } : node,
    );
    expect(verifyLiabilitiesProof({ ...proof, path })).toEqual({ isValid: false, reason: 'root-hash' });
  });

  it('rejects a shrunk total in the root', () => {
    const proof = proofOf('u-carol');
    expect(verifyLiabilitiesProof({ ...proof, root: { ...proof.root, sums: ['150000042', '2500000007'] } })).toEqual({
      isValid: false,
      reason: 'root-sums',
    });
  });

  it('rejects a negative sibling sum (which could hide a balance)', () => {
    const proof = proofOf('u-dave');
    const path = proof.path.map((node, at) => (at === 0 ? { ...node, sums: ['-42', node.sums[1]!] } : node));
    expect(verifyLiabilitiesProof({ ...proof, path })).toEqual({ isValid: false, reason: 'negative-sum' });
  });

  it('rejects a proof with a level removed, and a user removed from the tree changes the root', () => {
    const proof = proofOf('u-alice');
    expect(verifyLiabilitiesProof({ ...proof, path: proof.path.slice(1) })).toEqual({
      isValid: false,
      reason: 'shape',
    });
    const withoutBob = proofOf(
      'u-alice',
      USERS.filter((user) => user.userId !== 'u-bob'),
    );
    expect(withoutBob.root.hash).not.toBe(proof.root.hash);
    // Alice's proof from the tree without Bob does not lead to the root published with Bob.
    expect(verifyLiabilitiesProof({ ...withoutBob, root: proof.root, leafCount: proof.leafCount }).isValid).toBe(false);
  });

  it('rejects another user id or salt (the leaf is bound to the salted id), a moved leaf and malformed files', () => {
    const proof = proofOf('u-erin');
    expect(verifyLiabilitiesProof({ ...proof, userId: 'u-mallory' }).isValid).toBe(false);
    expect(verifyLiabilitiesProof({ ...proof, salt: 'f'.repeat(32) }).isValid).toBe(false);
    expect(verifyLiabilitiesProof({ ...proof, leafIndex: proof.leafIndex ^ 1 }).isValid).toBe(false);
    expect(verifyLiabilitiesProof({ ...proof, balances: [1.5, 0] })).toEqual({ isValid: false, reason: 'format' });
    expect(verifyLiabilitiesProof(null)).toEqual({ isValid: false, reason: 'format' });
  });
});
