import { asc, eq } from 'drizzle-orm';
import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { type BroadcastContext, type ChainWithdrawalRow, sendRaw, signAndSend } from './chain.broadcast.ts';
import { currentFees, replacementFees } from './chain.fees.ts';
import { bookGasInTx, type MinedGas } from './chain.gas.ts';
import { fillerReason, fillNonce, isFillerTx, isNonceToFill } from './chain.nonce-filler.ts';
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
  /** Failed at N: reverted on chain, or their nonce filled. */
  reverted: number;
  replaced: number;
  /** Nonce fillers sent in place of a refused or dropped transaction (docs/chain.md "Nonce filler"). */
  filled: number;
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
 * transactions was mined (any of them may be: the first, a replacement or a nonce filler). At N
 * confirmations a successful one settles the wallet withdrawal with its hash (`completeWithdrawal`:
 * the frozen amount leaves to the hot wallet account); a reverted one, or a mined nonce filler,
 * fails it (`failWithdrawal`: amount and fee back to available); either way the transaction's gas
 * is booked in the same database transaction (`bookGasInTx`, once per hash). Outcomes wait for N so
 * a reorganisation cannot undo them. A mined one whose block left the chain goes back to BROADCAST.
 * One not mined within `replaceAfterMs` of its last send is replaced (same nonce, fees +10 % or
 * more, at most the cap); one holding later nonces back for `replaceAfterMs` × 2 since it was first
 * signed, its nonce still open on the node, gets a nonce filler (`fillNonce`).
 */
export async function trackSent(context: TrackingContext): Promise<TrackReport> {
  const report: TrackReport = { confirmed: 0, reverted: 0, replaced: 0, filled: 0 };
  const rows = await context.db
    .select()
    .from(chainWithdrawals)
    .where(eq(chainWithdrawals.chainId, context.chainId))
    .orderBy(asc(chainWithdrawals.nonce));
  const sent = rows.filter((row) => row.status === 'BROADCAST' || row.status === 'MINED');
  if (sent.length === 0) return report;
  const lastNonce = rows.at(-1)!.nonce;
  const tip = await context.client.getBlockNumber({ cacheTime: 0 });
  for (const row of sent) {
    const outcome = await trackOne(context, row, tip, row.nonce < lastNonce);
    if (outcome) report[outcome] += 1;
  }
  return report;
}

async function trackOne(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  tip: bigint,
  hasLater: boolean,
): Promise<keyof TrackReport | undefined> {
  const txs = await context.db
    .select()
    .from(chainWithdrawalTxs)
    .where(eq(chainWithdrawalTxs.chainWithdrawalId, row.id))
    .orderBy(asc(chainWithdrawalTxs.id));
  let receipt: TransactionReceipt | null = null;
  let minedRaw = '';
  for (const sentTx of txs) {
    receipt = await receiptOf(context.client, sentTx.txHash as Hex);
    minedRaw = sentTx.rawTx;
    if (receipt) break;
  }
  if (!receipt) return notMined(context, row, txs.at(-1)?.rawTx as Hex | undefined, hasLater);
  const hash = receipt.transactionHash.toLowerCase();
  if (Number(tip - receipt.blockNumber) + 1 < (await context.confirmationsFor(row.coinCode))) {
    await update(context, row, { status: 'MINED', txHash: hash, minedBlock: Number(receipt.blockNumber) });
    return undefined;
  }
  return settleMined(context, row, receipt, isFillerTx(minedRaw, context.signer.address));
}

/** At N confirmations: settle or fail the wallet withdrawal, the gas booked in the same transaction. */
async function settleMined(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  receipt: TransactionReceipt,
  isFiller: boolean,
): Promise<keyof TrackReport> {
  const hash = receipt.transactionHash.toLowerCase();
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
  const minedBlock = Number(receipt.blockNumber);
  if (isFiller || receipt.status === 'reverted') {
    const reason = isFiller ? fillerReason(hash) : `reverted on chain: ${hash}`;
    await settleOnce(
      () => context.wallet.failWithdrawal(CHAIN_SENDER_ACTOR, row.withdrawalId, reason, bookGas),
      bookGasAlone,
    );
    await update(context, row, { status: 'REVERTED', txHash: hash, minedBlock, failureReason: reason });
    context.log.warn(
      { withdrawalId: row.withdrawalId, txHash: hash, isFiller },
      'withdrawal failed on chain: funds returned',
    );
    return 'reverted';
  }
  await settleOnce(
    () => context.wallet.completeWithdrawal(CHAIN_SENDER_ACTOR, row.withdrawalId, hash, bookGas),
    bookGasAlone,
  );
  await update(context, row, { status: 'CONFIRMED', txHash: hash, minedBlock });
  return 'confirmed';
}

/**
 * Not in a block (any more): fill its nonce when it holds later ones back too long; else send it
 * again if the node lost it, replace it when it waited too long (a filler is replaced by a filler).
 */
async function notMined(
  context: TrackingContext,
  row: ChainWithdrawalRow,
  lastRaw: Hex | undefined,
  hasLater: boolean,
): Promise<keyof TrackReport | undefined> {
  if (row.status === 'MINED') await update(context, row, { status: 'BROADCAST', minedBlock: null });
  const isFilling = lastRaw !== undefined && isFillerTx(lastRaw, context.signer.address);
  const mustFill = !isFilling && (await isNonceToFill(context, row, hasLater, context.replaceAfterMs * 2));
  const waitedMs = context.now().getTime() - (row.broadcastAt?.getTime() ?? 0);
  if (!mustFill && waitedMs < context.replaceAfterMs) {
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
  if (mustFill || isFilling) {
    const hash = await fillNonce(context, row, fees);
    if (mustFill)
      context.log.error(
        { alert: 'chain-withdrawal-nonce-filled', withdrawalId: row.withdrawalId, nonce: row.nonce, txHash: hash },
        'a withdrawal refused or dropped by the node held later nonces back: its nonce is filled with a 0-value self-transfer and the withdrawal will fail',
      );
    return mustFill ? 'filled' : 'replaced';
  }
  // A replacement the node refuses (recorded, not in its pool) waits for the next pass or the filler;
  // the other withdrawals are still followed in this pass.
  await signAndSend(context, row, fees).catch((error: unknown) =>
    context.log.error(
      { alert: 'chain-withdrawal-refused', err: error, withdrawalId: row.withdrawalId, nonce: row.nonce },
      'the node refused a withdrawal replacement',
    ),
  );
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
