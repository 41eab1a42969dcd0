import { eq } from 'drizzle-orm';
import { type Address, encodeFunctionData, erc20Abi, type Hex, keccak256, type PublicClient } from 'viem';
import type { Db } from '../../platform/db/client.ts';
import type { Eip1559Fees } from './chain.fees.ts';
import type { HotWalletSigner } from './chain.signer.ts';
import { chainWithdrawals, chainWithdrawalTxs } from './chain.tables.ts';

/** A chain withdrawal row. */
export type ChainWithdrawalRow = typeof chainWithdrawals.$inferSelect;

/** The call a withdrawal makes: ETH straight to the recipient, a token by `transfer(to, amount)`. */
export function callOf(transfer: { tokenAddress: string | null; toAddress: string; amountRaw: bigint }): {
  to: Address;
  value: bigint;
  data: Hex | undefined;
} {
  if (transfer.tokenAddress === null)
    return { to: transfer.toAddress as Address, value: transfer.amountRaw, data: undefined };
  return {
    to: transfer.tokenAddress as Address,
    value: 0n,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [transfer.toAddress as Address, transfer.amountRaw],
    }),
  };
}

/**
 * Gas limit of a withdrawal's call: the node's estimate, plus 20 % for a contract call (a token's
 * storage may change before it is mined); a plain ETH transfer's 21 000 as estimated.
 * @throws the node's error when the call would fail now (the withdrawal then stays queued).
 */
export async function gasLimitOf(
  client: PublicClient,
  from: Address,
  call: ReturnType<typeof callOf>,
): Promise<bigint> {
  const estimate = await client.estimateGas({ account: from, to: call.to, value: call.value, data: call.data });
  return call.data === undefined ? estimate : (estimate * 120n) / 100n;
}

/** What `signAndRecord` needs. */
export interface BroadcastContext {
  db: Db;
  client: PublicClient;
  signer: HotWalletSigner;
  chainId: number;
  now: () => Date;
}

/**
 * Sign the transaction of `row` (its nonce, call and gas limit) with `fees`, record it (a
 * `chain_withdrawal_txs` row with its raw bytes; the withdrawal BROADCAST with this hash, these
 * fees and the time) and send it to the node. Recording comes first: a process killed before the
 * send leaves a recorded transaction that tracking sends again. Signing is deterministic (RFC
 * 6979), so signing the same row and fees again gives the same hash.
 * @returns the transaction hash.
 */
export async function signAndSend(
  context: BroadcastContext,
  row: ChainWithdrawalRow,
  given: Eip1559Fees,
): Promise<Hex> {
  const fees = { maxFeePerGasWei: given.maxFeePerGasWei, maxPriorityFeePerGasWei: given.maxPriorityFeePerGasWei };
  const call = callOf(row);
  const raw = await context.signer.account.signTransaction({
    type: 'eip1559',
    chainId: context.chainId,
    nonce: row.nonce,
    to: call.to,
    value: call.value,
    ...(call.data ? { data: call.data } : {}),
    gas: row.gasLimit,
    maxFeePerGas: fees.maxFeePerGasWei,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGasWei,
  });
  return recordAndSend(context, row, raw, fees);
}

/**
 * Record the signed transaction `raw` of `row`'s nonce (a `chain_withdrawal_txs` row with its raw
 * bytes; the withdrawal BROADCAST with its hash, `fees` and the time), then send it to the node.
 * @returns the transaction hash.
 */
export async function recordAndSend(
  context: BroadcastContext,
  row: ChainWithdrawalRow,
  raw: Hex,
  fees: Eip1559Fees,
): Promise<Hex> {
  const hash = keccak256(raw);
  const { maxFeePerGasWei, maxPriorityFeePerGasWei } = fees;
  await context.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(chainWithdrawalTxs)
      .values({ chainWithdrawalId: row.id, txHash: hash, rawTx: raw, maxFeePerGasWei, maxPriorityFeePerGasWei })
      .onConflictDoNothing()
      .returning({ id: chainWithdrawalTxs.id });
    await tx
      .update(chainWithdrawals)
      .set({
        status: 'BROADCAST',
        txHash: hash,
        maxFeePerGasWei,
        maxPriorityFeePerGasWei,
        attempts: row.attempts + inserted.length,
        broadcastAt: context.now(),
        updatedAt: context.now(),
      })
      .where(eq(chainWithdrawals.id, row.id));
  });
  await sendRaw(context.client, raw);
  return hash;
}

/** Node answers to a send that mean the transaction is (or was) already there. */
const ALREADY_THERE = /already known|nonce too low|known transaction|already imported/i;

/**
 * Send a signed transaction; a node that already has it, or has mined its nonce, is not an error.
 * @throws the node's other errors (underpriced replacement, insufficient funds, unreachable).
 */
export async function sendRaw(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (error instanceof Error && ALREADY_THERE.test(`${error.message} ${String(error.cause ?? '')}`)) return;
    throw error;
  }
}
