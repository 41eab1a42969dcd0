import {
  buildLiabilitiesTree,
  type LiabilitiesProof,
  liabilitiesLeaf,
  liabilitiesPath,
  liabilitiesUserTag,
  verifyLiabilitiesProof,
} from '@meridian/contracts/liabilities';
import { describe, expect, it } from 'vitest';
import { sha256HexWebCrypto, verifyProofInBrowser } from './verify-proof.ts';

/**
 * The browser's check (Web Crypto) against proofs built by the server's code: the contracts' tree
 * functions that `liabilities.service.ts` uses to build the snapshot and each user's proof.
 */
const ASSETS = ['BTC', 'USD', 'USDT'];
const DATE = '2026-11-26';

/** A snapshot of `userCount` users (balances vary per user, some zero) and every user's proof, as the server builds them. */
function snapshotOf(userCount: number): LiabilitiesProof[] {
  const users = Array.from({ length: userCount }, (_, at) => {
    const userId = `user-${at}`;
    const salt = (at + 1).toString(16).padStart(32, '0');
    const balances = [BigInt(at * 12_345_678), 0n, BigInt(1_000_000 + at * 250_000_000)];
    return { userId, salt, balances, tag: liabilitiesUserTag(userId, salt) };
  });
  users.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const levels = buildLiabilitiesTree(
    users.map((user) => liabilitiesLeaf(user.tag, user.balances)),
    ASSETS.length,
  );
  const root = levels.at(-1)![0]!;
  return users.map((user, leafIndex) => ({
    version: 1,
    snapshotDate: DATE,
    assets: ASSETS,
    root: { hash: root.hash, sums: root.sums.map(String) },
    leafCount: users.length,
    leafIndex,
    userId: user.userId,
    salt: user.salt,
    balances: user.balances.map(String),
    path: liabilitiesPath(levels, leafIndex, ASSETS.length).map((node) => ({
      hash: node.hash,
      sums: node.sums.map(String),
    })),
  }));
}

const publishedOf = (proof: LiabilitiesProof) => new Map([[proof.snapshotDate, proof.root.hash]]);

describe('the browser check of a proof of liabilities (Web Crypto)', () => {
  it('hashes UTF-8 text as SHA-256 hex (the padding node of docs/liabilities.md)', async () => {
    expect(await sha256HexWebCrypto('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256HexWebCrypto('meridian-pol/pad/v1')).toBe(buildLiabilitiesTree([], 1)[0]![0]!.hash);
  });

  it.each([1, 2, 3, 5, 8, 13])('verifies every user of a %i-user tree, as the server built it', async (userCount) => {
    for (const proof of snapshotOf(userCount)) {
      const check = await verifyProofInBrowser(JSON.stringify(proof), publishedOf(proof));
      expect(check.isValid, `leaf ${proof.leafIndex}`).toBe(true);
      if (!check.isValid) continue;
      expect(check.rootHash).toBe(proof.root.hash);
      expect(check.leafHash).toBe(
        liabilitiesLeaf(liabilitiesUserTag(proof.userId, proof.salt), proof.balances.map(BigInt)).hash,
      );
      expect(check.steps).toHaveLength(proof.path.length);
      expect(check.steps.at(-1)?.parentHash ?? check.leafHash).toBe(proof.root.hash);
      expect(check.balancesMinor).toEqual(ASSETS.map((asset, at) => ({ asset, amountMinor: proof.balances[at] })));
    }
  });

  it('gives the sibling sides from the bits of the leaf index', async () => {
    const proof = snapshotOf(5)[2]!;
    const check = await verifyProofInBrowser(proof, publishedOf(proof));
    expect(check.isValid && check.steps.map((step) => step.siblingSide)).toEqual(['right', 'left', 'right']);
  });

  it('refuses what the contracts refuse, for the same reason', async () => {
    const proof = snapshotOf(5)[3]!;
    const richest = proof.balances.findIndex((balance) => balance !== '0');
    const tampered: [string, unknown][] = [
      ['shrunk balance', { ...proof, balances: proof.balances.map((b, at) => (at === richest ? '1' : b)) }],
      [
        'shrunk sibling sum',
        { ...proof, path: [{ ...proof.path[0]!, sums: ['0', '0', '0'] }, ...proof.path.slice(1)] },
      ],
      [
        'negative sibling sum',
        { ...proof, path: [{ ...proof.path[0]!, sums: ['-1', '0', '0'] }, ...proof.path.slice(1)] },
      ],
      ['a level removed', { ...proof, path: proof.path.slice(1) }],
      ['another user id', { ...proof, userId: 'user-99' }],
      ['another salt', { ...proof, salt: 'f'.repeat(32) }],
      ['another position', { ...proof, leafIndex: (proof.leafIndex + 1) % 5 }],
      ['shrunk root sum', { ...proof, root: { ...proof.root, sums: ['0', ...proof.root.sums.slice(1)] } }],
      ['missing salt', { ...proof, salt: undefined }],
    ];
    for (const [name, input] of tampered) {
      const expected = verifyLiabilitiesProof(input);
      expect(expected.isValid, name).toBe(false);
      const check = await verifyProofInBrowser(input, publishedOf(proof));
      expect(check, name).toEqual({ isValid: false, reason: !expected.isValid && expected.reason });
    }
  });

  it('refuses a consistent proof whose root was not published for its date, and text that is not JSON', async () => {
    const proof = snapshotOf(3)[0]!;
    expect(await verifyProofInBrowser(proof, new Map([[DATE, 'f'.repeat(64)]]))).toEqual({
      isValid: false,
      reason: 'unpublished-root',
    });
    expect(await verifyProofInBrowser(proof, new Map())).toEqual({ isValid: false, reason: 'unpublished-root' });
    expect(await verifyProofInBrowser('{not json', publishedOf(proof))).toEqual({ isValid: false, reason: 'not-json' });
  });
});
