import { asc, eq } from 'drizzle-orm';
import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { type BroadcastContext, type ChainWithdrawalRow, sendRaw, signAndSend } from './chain.broadcast.ts';
import { currentFees, replacementFees } from './chain.fees.ts';
import { bookGasInTx, type MinedGas } from './chain.gas.ts';
import { chainWithdrawals, chainWithdrawalTxs } from './chain.tables.ts';

/** The actor recorded on a wallet withdrawal settled by the chain sender. */
export const CHAIN_SENDER_ACTOR = 'chain:hot-wallet';

/**
 * What the sender needs of the wallet: its existing operator transitions (1 → 2, 0/1 → 3), each
 * running `alsoInTx` in its transaction (the gas entry).
 */
export interface SenderWallet {
  completeWithdrawal(
    operatorEmail: string,
    id: number,
    txHash: string,
    alsoInTx?: (tx: Tx) => Promise<unknown>,
  ): Promise<unknown>;
  failWithdrawal(
    operatorEmail: string,
    id: number,
    reason: string,
    alsoInTx?: (tx: Tx) => Promise<unknown>,
  ): Promise<unknown>;
}

/** What tracking needs beyond broadcasting. */
export interface TrackingContext extends BroadcastContext {
  wallet: SenderWallet;
  /** Confirmations a withdrawal of `coin` needs before it is settled. */
  confirmationsFor(coin: string): Promise<number>;
  replaceAfterMs: number;
  maxFeeWei: bigint;
  log: { warn(detail: object, message: string): void; error(detail: object, message: string): void };
}

/** What one tracking pass did (tests, logs). */
export interface TrackReport {
  confirmed: number;
  reverted: number;
  replaced: number;
}

async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return null;
    throw error;
  }
}

/**
 * Run a wallet transition; one that already happened (WITHDRAW_STATE_CHANGED: settled by an earlier
 * pass, or failed by an operator while the transaction was in flight) is not an error, and then
 * `otherwise` runs on its own (the gas entry, a replay when the earlier pass booked it).
 */
async function settleOnce(settle: () => Promise<unknown>, otherwise: () => Promise<unknown>): Promise<void> {
  try {
    await settle();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'WITHDRAW_STATE_CHANGED') {
      await otherwise();
      return;
    }
    throw error;
  }
}

/**
 * Follow every sent withdrawal (BROADCAST or MINED), oldest nonce first: find which of its
 * transactions was mined (any of them may be: the first or a replacement). At N confirmations a
 * successful one settles the wallet withdrawal with its hash (`completeWithdrawal`: the frozen
 * amount leaves to the hot wallet account) and a reverted one fails it (`failWithdrawal`: amount
 * and fee back to available); either way the transaction's gas is booked in the same database
 * transaction (`bookGasInTx`, once per hash); both outcomes wait for N so a reorganisation cannot undo them. A
 * mined one whose block left the chain goes back to BROADCAST. One not mined within
 * `replaceAfterMs` of its last send is replaced (same nonce, fees +10 % or more, at most the cap).
 */
export async function trackSent(context: TrackingContext): Promise<TrackReport> {
  const report: TrackReport = { confirmed: 0, reverted: 0, replaced: 0 };
  const rows = await context.db
    .select()
    .from(chainWithdrawals)
    .where(eq(chainWithdrawals.chainId, context.chainId))
    .orderBy(asc(chainWithdrawals.nonce));
  const sent = rows.filter((row) => row.status === 'BROADCAST' || row.status === 'MINED');
  if (sent.length === 0) return report;
  const tip = await context.client.getBlockNumber({ cacheTime: 0 });
  for (const row of sent) {
    const outcome = await trackOne(context, row, tip);
    if (outcome) report[outcome] += 1;
  }
  return report;
}

async function trackOne(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  tip: bigint,
): Promise<keyof TrackReport | undefined> {
  const txs = await context.db
    .select()
    .from(chainWithdrawalTxs)
    .where(eq(chainWithdrawalTxs.chainWithdrawalId, row.id))
    .orderBy(asc(chainWithdrawalTxs.id));
  let receipt: TransactionReceipt | null = null;
  for (const sentTx of txs) {
    receipt = await receiptOf(context.client, sentTx.txHash as Hex);
    if (receipt) break;
  }
  if (!receipt) return notMined(context, row, txs.at(-1)?.rawTx as Hex | undefined);
  const confirmations = Number(tip - receipt.blockNumber) + 1;
  const isReverted = receipt.status === 'reverted';
  const hash = receipt.transactionHash.toLowerCase();
  if (confirmations < (await context.confirmationsFor(row.coinCode))) {
    await update(context, row, { status: 'MINED', txHash: hash, minedBlock: Number(receipt.blockNumber) });
    return undefined;
  }
  // The hot wallet paid the mined transaction's gas whatever its outcome: booked with the outcome.
  const gas: MinedGas = {
    chainId: context.chainId,
    txHash: hash,
    withdrawalId: row.withdrawalId,
    gasUsed: receipt.gasUsed,
    effectiveGasPrice: receipt.effectiveGasPrice,
  };
  const bookGas = (tx: Tx) => bookGasInTx(tx, gas);
  const bookGasAlone = () => context.db.transaction(bookGas);
  if (isReverted) {
    const reason = `reverted on chain: ${hash}`;
    await settleOnce(
      () => context.wallet.failWithdrawal(CHAIN_SENDER_ACTOR, row.withdrawalId, reason, bookGas),
      bookGasAlone,
    );
    await update(context, row, { status: 'REVERTED', txHash: hash, failureReason: reason });
    context.log.warn({ withdrawalId: row.withdrawalId, txHash: hash }, 'withdrawal reverted on chain: funds returned');
    return 'reverted';
  }
  await settleOnce(
    () => context.wallet.completeWithdrawal(CHAIN_SENDER_ACTOR, row.withdrawalId, hash, bookGas),
    bookGasAlone,
  );
  await update(context, row, { status: 'CONFIRMED', txHash: hash, minedBlock: Number(receipt.blockNumber) });
  return 'confirmed';
}

/** Not in a block (any more): send it again if the node lost it, replace it when it waited too long. */
async function notMined(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  lastRaw: Hex | undefined,
): Promise<keyof TrackReport | undefined> {
  if (row.status === 'MINED') await update(context, row, { status: 'BROADCAST', minedBlock: null });
  const waitedMs = context.now().getTime() - (row.broadcastAt?.getTime() ?? 0);
  if (waitedMs < context.replaceAfterMs) {
    if (lastRaw) await sendRaw(context.client, lastRaw).catch(() => undefined);
    return undefined;
  }
  const old = { maxFeePerGasWei: row.maxFeePerGasWei, maxPriorityFeePerGasWei: row.maxPriorityFeePerGasWei };
  const fees = replacementFees(old, await currentFees(context.client, context.maxFeeWei), context.maxFeeWei);
  if (!fees) {
    context.log.error(
      { alert: 'chain-withdrawal-fee-cap', withdrawalId: row.withdrawalId, nonce: row.nonce },
      'a stuck withdrawal cannot be replaced under EVM_MAX_FEE_GWEI: it waits',
    );
    return undefined;
  }
  await signAndSend(context, row, fees);
  return 'replaced';
}

async function update(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  set: Partial<Pick<ChainWithdrawalRow, 'status' | 'txHash' | 'minedBlock' | 'failureReason'>>,
): Promise<void> {
  await context.db
    .update(chainWithdrawals)
    .set({ ...set, updatedAt: context.now() })
    .where(eq(chainWithdrawals.id, row.id));
}
