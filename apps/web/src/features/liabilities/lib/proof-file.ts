import type { LiabilitiesProof } from '@meridian/contracts/liabilities';
import { isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { type ProofFailure, type VerifiedProof, verifyProofInBrowser } from './verify-proof.ts';

/**
 * The outcome the page shows: what the browser verified (the leaf, the path, the root published for
 * the date) with the balances as display decimals, or the reason the proof fails.
 */
export type ProofVerdict =
  | (Omit<VerifiedProof, 'balancesMinor'> & { balances: { asset: string; amount: string }[] })
  | { isValid: false; reason: ProofFailure };

/** The name of the downloaded file: `meridian-liabilities-proof-<date>.json`. */
export function proofFileName(proof: LiabilitiesProof): string {
  return `meridian-liabilities-proof-${proof.snapshotDate}.json`;
}

/**
 * Check a proof (parsed JSON, or the text of a file) in the browser with Web Crypto
 * (`verifyProofInBrowser`): the leaf and every node up to the root are recomputed, and that root
 * must be the one published for the proof's date (`publishedRoots`: date → root hash). Balances
 * come back as display decimals.
 */
export async function checkProof(input: unknown, publishedRoots: ReadonlyMap<string, string>): Promise<ProofVerdict> {
  const check = await verifyProofInBrowser(input, publishedRoots);
  if (!check.isValid) return check;
  const { balancesMinor, ...verified } = check;
  return {
    ...verified,
    balances: balancesMinor.map(({ asset, amountMinor }) => ({
      asset,
      amount: isAssetCode(asset) ? toDecimalString(BigInt(amountMinor), asset) : amountMinor,
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
