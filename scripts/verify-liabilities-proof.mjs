#!/usr/bin/env node
/**
 * `node scripts/verify-liabilities-proof.mjs <proof.json>`: check a Meridian proof-of-liabilities
 * inclusion proof on your own computer, with nothing but Node.js (node:crypto's SHA-256). The
 * rules (docs/liabilities.md) are written out again here, independently of the app's code
 * (packages/contracts/src/liabilities.ts), so this file can be read and run on its own:
 *
 *   user tag = SHA-256("meridian-pol/user/v1:" + salt + ":" + userId)
 *   leaf     = SHA-256("meridian-pol/leaf/v1:" + userTag + ":" + balances joined by ",")
 *   node     = SHA-256("meridian-pol/node/v1:" + L.hash + ":" + L.sums + ":" + R.hash + ":" + R.sums),
 *              sums = L.sums + R.sums per asset (integers of minor units, never negative)
 *
 * Compare the root hash it prints with the one published on /proof-of-liabilities for that date.
 * Exit code 0 when the proof leads to its root, 1 when it does not, 2 when the file cannot be read.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const isMinor = (text) => typeof text === 'string' && /^(0|[1-9]\d{0,37})$/.test(text);
const isHash = (text) => typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);

/** @returns an error message, or null when the proof leads to its root. */
function checkProof(proof) {
  if (proof?.version !== 1) return 'unknown proof version';
  const assets = proof.assets;
  if (!Array.isArray(assets) || assets.length === 0) return 'no assets';
  const count = assets.length;
  const isSums = (sums) => Array.isArray(sums) && sums.length === count && sums.every(isMinor);
  if (typeof proof.userId !== 'string' || !/^[0-9a-f]{32}$/.test(proof.salt ?? '')) return 'bad user id or salt';
  if (!isSums(proof.balances)) return 'balances must be one non-negative integer per asset';
  if (!isHash(proof.root?.hash) || !isSums(proof.root?.sums)) return 'bad root';
  if (!Array.isArray(proof.path) || !proof.path.every((node) => isHash(node?.hash) && isSums(node?.sums)))
    return 'every sibling needs a hash and one non-negative sum per asset';
  const { leafIndex, leafCount } = proof;
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(leafCount) || leafIndex < 0 || leafIndex >= leafCount)
    return 'bad leaf index';
  let depth = 0;
  while (2 ** depth < leafCount) depth += 1;
  if (proof.path.length !== depth) return `the path must have ${depth} siblings for ${leafCount} leaves`;

  const tag = sha256Hex(`meridian-pol/user/v1:${proof.salt}:${proof.userId}`);
  let node = {
    hash: sha256Hex(`meridian-pol/leaf/v1:${tag}:${proof.balances.join(',')}`),
    sums: proof.balances.map(BigInt),
  };
  let index = leafIndex;
  for (const sibling of proof.path) {
    const other = { hash: sibling.hash, sums: sibling.sums.map(BigInt) };
    const [left, right] = index % 2 === 0 ? [node, other] : [other, node];
    node = {
      hash: sha256Hex(`meridian-pol/node/v1:${left.hash}:${left.sums.join(',')}:${right.hash}:${right.sums.join(',')}`),
      sums: left.sums.map((sum, at) => sum + right.sums[at]),
    };
    index = Math.floor(index / 2);
  }
  if (node.hash !== proof.root.hash) return 'the recomputed root hash differs from the proof root';
  if (node.sums.some((sum, at) => sum.toString() !== proof.root.sums[at]))
    return 'the recomputed totals differ from the proof root';
  return null;
}

const file = process.argv[2];
if (file) {
  let proof;
  try {
    proof = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const problem = checkProof(proof);
  if (problem) {
    console.error(`FAIL: ${problem}`);
    process.exit(1);
  }
  console.log(`PASS: your balances are included in the snapshot of ${proof.snapshotDate}`);
  console.log(`root hash ${proof.root.hash} (compare it with the one published for that date)`);
  proof.assets.forEach((asset, at) =>
    console.log(`  ${asset}: your balance ${proof.balances[at]} of total ${proof.root.sums[at]} (minor units)`),
  );
} else {
  console.error('usage: node scripts/verify-liabilities-proof.mjs <proof.json>');
  process.exit(2);
}
