import { type Hex, parseTransaction } from 'viem';
import { type BroadcastContext, type ChainWithdrawalRow, recordAndSend } from './chain.broadcast.ts';
import type { Eip1559Fees } from './chain.fees.ts';

/** Gas of a nonce filler: a plain transfer. */
export const FILLER_GAS = 21_000n;

/** The failure reason of a withdrawal whose nonce was filled (docs/chain.md "Nonce filler"). */
export const fillerReason = (hash: string) =>
  `nonce filled on chain: ${hash} (the withdrawal's own transaction was refused or dropped by the node)`;

/**
 * Whether the signed transaction `raw` is a nonce filler of the hot wallet `hotWallet`: a transfer to
 * itself of 0 wei with no data (no withdrawal looks like that: a withdrawal's amount is positive).
 */
export function isFillerTx(raw: string, hotWallet: string): boolean {
  const parsed = parseTransaction(raw as Hex);
  const isEmpty = parsed.data === undefined || parsed.data === '0x';
  return parsed.to?.toLowerCase() === hotWallet.toLowerCase() && (parsed.value ?? 0n) === 0n && isEmpty;
}

/**
 * Whether the nonce of `row` (BROADCAST, none of its transactions mined) must be filled: a later
 * nonce is already taken (`hasLater`: the stuck one holds it back), the first transaction was signed
 * `fillAfterMs` ago or more (CHAIN_REPLACE_AFTER_MS × 2: replacements had their chance), and the node
 * has mined fewer transactions of the hot wallet than the nonce (the nonce is still open; when it is
 * not, a transaction we did not sign used it and nothing is guessed).
 */
export async function isNonceToFill(
  context: BroadcastContext,
  row: ChainWithdrawalRow,
  hasLater: boolean,
  fillAfterMs: number,
): Promise<boolean> {
  if (!hasLater) return false;
  if (context.now().getTime() - row.createdAt.getTime() < fillAfterMs) return false;
  const mined = await context.client.getTransactionCount({ address: context.signer.address, blockTag: 'latest' });
  return mined <= row.nonce;
}

/**
 * Sign, record and send the nonce filler of `row`: 0 wei from the hot wallet to itself at the row's
 * nonce, `FILLER_GAS`, with `fees` (above the stuck transaction's by the replacement rule, so the
 * node takes it in its place). Recorded as one more transaction of the row (tracking then finds it
 * mined and fails the withdrawal: its amount and fee go back to the user).
 * @returns the filler's hash.
 */
export async function fillNonce(context: BroadcastContext, row: ChainWithdrawalRow, fees: Eip1559Fees): Promise<Hex> {
  const raw = await context.signer.account.signTransaction({
    type: 'eip1559',
    chainId: context.chainId,
    nonce: row.nonce,
    to: context.signer.address,
    value: 0n,
    gas: FILLER_GAS,
    maxFeePerGas: fees.maxFeePerGasWei,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGasWei,
  });
  return recordAndSend(context, row, raw, fees);
}
