import Decimal from 'decimal.js';
import type { PublicClient } from 'viem';

/** EIP-1559 fees of one transaction, in wei per gas. */
export interface Eip1559Fees {
  maxFeePerGasWei: bigint;
  maxPriorityFeePerGasWei: bigint;
}

const WEI_PER_GWEI = 1_000_000_000n;
/** Blocks of `eth_feeHistory` read for the tip estimate. */
const FEE_HISTORY_BLOCKS = 10;
/** The smallest tip offered: 0.1 gwei (a node answering 0 rewards, as an idle devnet does). */
const MIN_PRIORITY_FEE_WEI = WEI_PER_GWEI / 10n;

/** A decimal string of gwei (EVM_MAX_FEE_GWEI) in wei. @throws Error for more than 9 decimals. */
export function gweiToWei(gwei: string): bigint {
  const wei = new Decimal(gwei).mul(WEI_PER_GWEI.toString());
  if (!wei.isInteger()) throw new Error(`${gwei} gwei is not a whole number of wei`);
  return BigInt(wei.toFixed(0));
}

/**
 * Fees for a new transaction from `eth_feeHistory` (the last 10 blocks, 50th percentile of the
 * tips paid): tip = the median of those medians (at least 0.1 gwei); max fee = 2 × the next block's
 * base fee + tip, which stays enough through six full blocks of +12.5 % each. Capped at
 * `capWei`: the tip and the max fee never exceed it.
 * @returns null when the next block's base fee alone is above the cap (nothing should be sent now).
 */
export function feesFromHistory(
  history: { baseFeePerGas: bigint[]; reward?: bigint[][] | undefined },
  capWei: bigint,
): Eip1559Fees | null {
  const nextBase = history.baseFeePerGas.at(-1) ?? 0n;
  if (nextBase > capWei) return null;
  const tips = (history.reward ?? []).map((row) => row[0] ?? 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = tips.length === 0 ? 0n : tips[Math.floor(tips.length / 2)]!;
  const tip = median > MIN_PRIORITY_FEE_WEI ? median : MIN_PRIORITY_FEE_WEI;
  const maxFee = 2n * nextBase + tip;
  return {
    maxFeePerGasWei: maxFee > capWei ? capWei : maxFee,
    maxPriorityFeePerGasWei: tip > capWei ? capWei : tip,
  };
}

/** Read `eth_feeHistory` and choose fees (`feesFromHistory`). */
export async function currentFees(client: PublicClient, capWei: bigint): Promise<Eip1559Fees | null> {
  const history = await client.getFeeHistory({
    blockCount: FEE_HISTORY_BLOCKS,
    rewardPercentiles: [50],
    blockTag: 'latest',
  });
  return feesFromHistory(history, capWei);
}

/** `value` raised by 10 %, rounded up, plus 1 wei: strictly above the +10 % a node demands. */
function raisedTenPercent(value: bigint): bigint {
  return (value * 110n + 99n) / 100n + 1n;
}

/**
 * Fees of a replacement (same nonce): each of the old fees raised by more than 10 % (the
 * replacement rule of geth, Nethermind and Anvil), or the current estimate where that is higher.
 * @returns null when the raised max fee would pass `capWei`: the old transaction is left to wait.
 */
export function replacementFees(old: Eip1559Fees, current: Eip1559Fees | null, capWei: bigint): Eip1559Fees | null {
  let maxFee = raisedTenPercent(old.maxFeePerGasWei);
  let tip = raisedTenPercent(old.maxPriorityFeePerGasWei);
  if (current && current.maxFeePerGasWei > maxFee) maxFee = current.maxFeePerGasWei;
  if (current && current.maxPriorityFeePerGasWei > tip) tip = current.maxPriorityFeePerGasWei;
  if (maxFee > capWei) return null;
  return { maxFeePerGasWei: maxFee, maxPriorityFeePerGasWei: tip > maxFee ? maxFee : tip };
}
