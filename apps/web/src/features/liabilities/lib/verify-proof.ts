import { liabilitiesProofSchema, type LiabilitiesProof } from '@meridian/contracts/liabilities';

/**
 * The check of an inclusion proof in the browser, with the browser's own SHA-256 (Web Crypto
 * `crypto.subtle.digest`): no code of ours computes a hash, so a customer relies on the browser and
 * on the rules published in docs/liabilities.md ("Leaf and node format (version 1)"), which this
 * file follows to the letter. The contracts' `verifyLiabilitiesProof` (@noble/hashes) builds the
 * server's tree with the same rules; `scripts/verify-liabilities-proof.mjs` is the independent check.
 *
 * - user tag = SHA-256("meridian-pol/user/v1:" + salt + ":" + userId)
 * - leaf     = SHA-256("meridian-pol/leaf/v1:" + userTag + ":" + balances joined by ",")
 * - node     = SHA-256("meridian-pol/node/v1:" + L.hash + ":" + L.sums + ":" + R.hash + ":" + R.sums),
 *              sums added per asset; at level k the sibling is on the right when bit k of leafIndex is 0.
 */

/** Why a proof fails: the contracts' reasons, plus a root not published for the date and a file that is not JSON. */
export type ProofFailure =
  'format' | 'shape' | 'negative-sum' | 'root-hash' | 'root-sums' | 'unpublished-root' | 'not-json';

/** One step up the path: the sibling's hash and side, and the parent's hash the browser computed. */
export interface VerifiedStep {
  siblingHash: string;
  siblingSide: 'left' | 'right';
  parentHash: string;
}

/** What a passed check established, for the page to explain. Amounts are minor units (decimal strings). */
export interface VerifiedProof {
  isValid: true;
  snapshotDate: string;
  /** The user's leaf hash, recomputed from their user id, salt and balances. */
  leafHash: string;
  /** Position of the leaf among `leafCount` leaves. */
  leafIndex: number;
  leafCount: number;
  steps: VerifiedStep[];
  /** The recomputed root hash: equal to the proof's and to the one published for `snapshotDate`. */
  rootHash: string;
  /** The user's balance per asset, minor units, in the snapshot's asset order. */
  balancesMinor: { asset: string; amountMinor: string }[];
}

/** The outcome of `verifyProofInBrowser`. */
export type BrowserProofCheck = VerifiedProof | { isValid: false; reason: ProofFailure };

/** SHA-256 of the UTF-8 text, as 64 lower-case hex characters, by the browser's Web Crypto. */
export async function sha256HexWebCrypto(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Levels above the leaves in a tree of `leafCount` leaves: ⌈log2(leafCount)⌉. */
function treeDepth(leafCount: number): number {
  let depth = 0;
  while (2 ** depth < leafCount) depth += 1;
  return depth;
}

/** The shape rules: leaf inside the tree, one sibling per level, one sum per asset everywhere. */
function hasRightShape(proof: LiabilitiesProof): boolean {
  const assetCount = proof.assets.length;
  return (
    proof.leafIndex < proof.leafCount &&
    proof.path.length === treeDepth(proof.leafCount) &&
    proof.balances.length === assetCount &&
    proof.root.sums.length === assetCount &&
    proof.path.every((node) => node.sums.length === assetCount)
  );
}

/**
 * Check `input` (the proof as parsed JSON, or a file's text) in the browser: recompute the user's
 * tag and leaf, combine it with each sibling of the path up to the root, and require the result —
 * hash and sums — to equal the proof's root, and that root to be the one published for the proof's
 * date (`publishedRoots`: date → root hash). Refuses a malformed file, a negative amount and a path
 * that does not fit the tree, as the contracts' `verifyLiabilitiesProof` does.
 */
export async function verifyProofInBrowser(
  input: unknown,
  publishedRoots: ReadonlyMap<string, string>,
): Promise<BrowserProofCheck> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { isValid: false, reason: 'not-json' };
    }
  }
  const parsed = liabilitiesProofSchema.safeParse(value);
  if (!parsed.success) return { isValid: false, reason: 'format' };
  const proof = parsed.data;
  const amounts = [...proof.balances, ...proof.root.sums, ...proof.path.flatMap((node) => node.sums)];
  if (amounts.some((text) => text.startsWith('-'))) return { isValid: false, reason: 'negative-sum' };
  if (!hasRightShape(proof)) return { isValid: false, reason: 'shape' };

  const userTag = await sha256HexWebCrypto(`meridian-pol/user/v1:${proof.salt}:${proof.userId}`);
  const leafHash = await sha256HexWebCrypto(`meridian-pol/leaf/v1:${userTag}:${proof.balances.join(',')}`);
  let hash = leafHash;
  let sums = proof.balances.map(BigInt);
  let index = proof.leafIndex;
  const steps: VerifiedStep[] = [];
  for (const sibling of proof.path) {
    const siblingSums = sibling.sums.map(BigInt);
    const siblingSide = index % 2 === 0 ? 'right' : 'left';
    const [left, right] =
      siblingSide === 'right'
        ? [
            { hash, sums },
            { hash: sibling.hash, sums: siblingSums },
          ]
        : [
            { hash: sibling.hash, sums: siblingSums },
            { hash, sums },
          ];
    hash = await sha256HexWebCrypto(
      `meridian-pol/node/v1:${left.hash}:${left.sums.join(',')}:${right.hash}:${right.sums.join(',')}`,
    );
    sums = sums.map((sum, at) => sum + (siblingSums[at] ?? 0n));
    steps.push({ siblingHash: sibling.hash, siblingSide, parentHash: hash });
    index = Math.floor(index / 2);
  }
  if (hash !== proof.root.hash) return { isValid: false, reason: 'root-hash' };
  if (sums.some((sum, at) => sum.toString() !== proof.root.sums[at])) return { isValid: false, reason: 'root-sums' };
  if (publishedRoots.get(proof.snapshotDate) !== hash) return { isValid: false, reason: 'unpublished-root' };
  return {
    isValid: true,
    snapshotDate: proof.snapshotDate,
    leafHash,
    leafIndex: proof.leafIndex,
    leafCount: proof.leafCount,
    steps,
    rootHash: hash,
    balancesMinor: proof.assets.map((asset, at) => ({ asset, amountMinor: proof.balances[at]! })),
  };
}
