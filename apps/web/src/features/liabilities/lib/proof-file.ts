import {
  type LiabilitiesProof,
  type LiabilitiesProofCheck,
  verifyLiabilitiesProof,
} from '@meridian/contracts/liabilities';
import { isAssetCode, toDecimalString } from '@meridian/contracts/money';

/** The outcome the page shows: the proof's own check, and whether its root is the one published for its date. */
export type ProofVerdict =
  | { isValid: true; snapshotDate: string; rootHash: string; balances: { asset: string; amount: string }[] }
  | {
      isValid: false;
      reason: Extract<LiabilitiesProofCheck, { isValid: false }>['reason'] | 'unpublished-root' | 'not-json';
    };

/** The name of the downloaded file: `meridian-liabilities-proof-<date>.json`. */
export function proofFileName(proof: LiabilitiesProof): string {
  return `meridian-liabilities-proof-${proof.snapshotDate}.json`;
}

/**
 * Check a proof (parsed JSON, or the text of a file) in the browser: recompute the leaf and every
 * node up to the root (`verifyLiabilitiesProof`), then require that root to be the one published
 * for the proof's date (`publishedRoots`: date → root hash). Balances come back as display decimals.
 */
export function checkProof(input: unknown, publishedRoots: ReadonlyMap<string, string>): ProofVerdict {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return { isValid: false, reason: 'not-json' };
    }
  }
  const check = verifyLiabilitiesProof(value);
  if (!check.isValid) return { isValid: false, reason: check.reason };
  const proof = value as LiabilitiesProof;
  if (publishedRoots.get(proof.snapshotDate) !== check.rootHash) return { isValid: false, reason: 'unpublished-root' };
  return {
    isValid: true,
    snapshotDate: proof.snapshotDate,
    rootHash: check.rootHash,
    balances: Object.entries(check.balances).map(([asset, minor]) => ({
      asset,
      amount: isAssetCode(asset) ? toDecimalString(BigInt(minor), asset) : minor,
    })),
  };
}

/** Save `proof` as a JSON file through the browser's download. */
export function saveProofFile(proof: LiabilitiesProof): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(proof, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = proofFileName(proof);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
