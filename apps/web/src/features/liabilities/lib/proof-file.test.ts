import {
  buildLiabilitiesTree,
  type LiabilitiesProof,
  liabilitiesLeaf,
  liabilitiesPath,
  liabilitiesUserTag,
} from '@meridian/contracts/liabilities';
import { describe, expect, it } from 'vitest';
import { checkProof, proofFileName } from './proof-file.ts';

const SALT = 'a'.repeat(32);

/** A two-user snapshot (BTC, USDT) and the first user's proof, built with the contracts' tree. */
function twoUserProof(): LiabilitiesProof {
  const users = [
    { userId: 'u-1', balances: [12_345_678n, 250_000_000n] },
    { userId: 'u-2', balances: [0n, 1n] },
  ].map((user) => ({ ...user, tag: liabilitiesUserTag(user.userId, SALT) }));
  users.sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const levels = buildLiabilitiesTree(
    users.map((user) => liabilitiesLeaf(user.tag, user.balances)),
    2,
  );
  const root = levels.at(-1)![0]!;
  const leafIndex = users.findIndex((user) => user.userId === 'u-1');
  return {
    version: 1,
    snapshotDate: '2026-11-26',
    assets: ['BTC', 'USDT'],
    root: { hash: root.hash, sums: root.sums.map(String) },
    leafCount: 2,
    leafIndex,
    userId: 'u-1',
    salt: SALT,
    balances: ['12345678', '250000000'],
    path: liabilitiesPath(levels, leafIndex, 2).map((node) => ({ hash: node.hash, sums: node.sums.map(String) })),
  };
}

describe('the page check of a proof file', () => {
  const proof = twoUserProof();
  const published = new Map([['2026-11-26', proof.root.hash]]);

  it('passes a proof whose root is the published one, with display balances', async () => {
    expect(await checkProof(JSON.stringify(proof), published)).toMatchObject({
      isValid: true,
      snapshotDate: '2026-11-26',
      rootHash: proof.root.hash,
      leafCount: 2,
      balances: [
        { asset: 'BTC', amount: '0.12345678' },
        { asset: 'USDT', amount: '250.000000' },
      ],
    });
    expect(proofFileName(proof)).toBe('meridian-liabilities-proof-2026-11-26.json');
  });

  it('fails a consistent proof of a root that was not published for its date', async () => {
    expect(await checkProof(proof, new Map([['2026-11-26', 'f'.repeat(64)]]))).toEqual({
      isValid: false,
      reason: 'unpublished-root',
    });
  });

  it('fails a shrunk balance, and a file that is not JSON', async () => {
    expect(await checkProof({ ...proof, balances: ['12345677', '250000000'] }, published)).toEqual({
      isValid: false,
      reason: 'root-hash',
    });
    expect(await checkProof('{not json', published)).toEqual({ isValid: false, reason: 'not-json' });
  });
});
