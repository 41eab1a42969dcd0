import Decimal from 'decimal.js';

/** A posting line of the proposal form as typed (any field may still be empty). */
export interface DraftPosting {
  asset?: string;
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount?: string;
}

/** The sum of one asset's postings, as a decimal string, and whether it is zero. */
export interface AssetBalance {
  asset: string;
  sum: string;
  isBalanced: boolean;
}

export interface BalancePreview {
  perAsset: AssetBalance[];
  /** Lines whose amount is not a signed decimal (0-based), left out of the sums. */
  invalidLines: number[];
  /** At least two lines, every line valid, every asset summing to zero: what the server accepts. */
  isBalanced: boolean;
}

/** The amount syntax of the contract (`adjustmentPostingSchema`): `-12.5`, `3`. */
const SIGNED_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The live "balanced per asset" check of an adjustment proposal: sums each asset's amounts exactly
 * (decimal.js, never a JS number) and says which assets do not come to zero. Assets are compared in
 * upper case, as the server's asset codes are.
 */
export function previewBalance(postings: readonly (DraftPosting | undefined)[]): BalancePreview {
  const sums = new Map<string, Decimal>();
  const invalidLines: number[] = [];
  postings.forEach((posting, index) => {
    const asset = posting?.asset?.trim().toUpperCase() ?? '';
    const amount = posting?.amount?.trim() ?? '';
    if (!asset || !SIGNED_DECIMAL.test(amount)) {
      invalidLines.push(index);
      return;
    }
    sums.set(asset, (sums.get(asset) ?? new Decimal(0)).plus(amount));
  });
  const perAsset = [...sums].map(([asset, sum]) => ({ asset, sum: sum.toFixed(), isBalanced: sum.isZero() }));
  const isBalanced =
    postings.length >= 2 && invalidLines.length === 0 && perAsset.length > 0 && perAsset.every((row) => row.isBalanced);
  return { perAsset, invalidLines, isBalanced };
}

/** Whether holdings fall short of liabilities (both decimal strings): the dashboard highlights it. */
export function isShortfall(liabilities: string, holdings: string): boolean {
  return new Decimal(holdings).lessThan(liabilities);
}
