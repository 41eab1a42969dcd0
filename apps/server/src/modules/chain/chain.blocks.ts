import { getAddress } from 'viem';
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import type { RecordedDeposit } from '../wallet/wallet.service.ts';
import type { DepositAddressIndex } from './chain.address-index.ts';
import { toMinorUnits } from './chain.amounts.ts';
import { chainBlocks, chainCursors, chainDeposits } from './chain.tables.ts';
import type { ChainWallet, EvmBlock, EvmTransfer, WatchedCoin } from './chain.types.ts';

/** Blocks kept in `chain_blocks` behind the cursor: the deepest reorganisation the watcher can walk back. */
export const CHAIN_BLOCKS_KEPT = 256;

/** What processing one block needs. */
export interface BlockContext {
  chainId: number;
  wallet: ChainWallet;
  addresses: DepositAddressIndex;
  /** ETH under key `null`... kept apart: `eth` for ETH, `tokens` by lowercase contract address. */
  eth: WatchedCoin;
  tokens: ReadonlyMap<string, WatchedCoin>;
  /** The node's latest block number, to count confirmations. */
  tip: number;
  /** The node's finalized block number, or null. */
  finalized: number | null;
  now: Date;
}

/** What one block's transaction did: deposits found and the credits to announce after the commit. */
export interface BlockOutcome {
  found: number;
  credited: RecordedDeposit[];
}

/** Confirmations of a transfer in block `blockNumber` when the tip is `tip` (the block itself counts one). */
export function confirmationsOf(blockNumber: number, tip: number): number {
  return Math.max(0, tip - blockNumber + 1);
}

/**
 * Record block `block` in `tx`: each transfer to one of our deposit addresses becomes a chain
 * deposit — a wallet deposit (PENDING, or credited at once when already confirmed or final), or one
 * held for review (below the coin's minimum, an unknown token) — then the block row and the cursor.
 * The caller commits it all at once, so a crash before the commit leaves nothing and the block is
 * read again. A transfer already recorded (the same (chain, tx hash, log index)) is left as it is,
 * unless it was orphaned, when it is recorded again from this block.
 */
export async function recordBlockInTx(tx: Tx, context: BlockContext, block: EvmBlock): Promise<BlockOutcome> {
  const outcome: BlockOutcome = { found: 0, credited: [] };
  const ours = block.transfers.flatMap((transfer) => {
    const userId = context.addresses.ownerOf(transfer.to);
    return userId === undefined ? [] : [{ transfer, userId }];
  });
  const known = await knownTransfersInTx(
    tx,
    context.chainId,
    ours.map(({ transfer }) => transfer.txHash),
  );
  for (const { transfer, userId } of ours) {
    outcome.found += 1;
    const existing = known.get(`${transfer.txHash}:${transfer.logIndex}`);
    if (existing && existing.status !== 'ORPHANED') continue;
    const recorded = await recordTransferInTx(tx, context, block, transfer, userId, existing?.id);
    if (recorded?.isCreditedNow) outcome.credited.push(recorded);
  }
  await tx
    .insert(chainBlocks)
    .values({
      chainId: context.chainId,
      blockNumber: block.number,
      blockHash: block.hash,
      parentHash: block.parentHash,
    })
    .onConflictDoUpdate({
      target: [chainBlocks.chainId, chainBlocks.blockNumber],
      set: { blockHash: block.hash, parentHash: block.parentHash },
    });
  await tx
    .delete(chainBlocks)
    .where(
      and(eq(chainBlocks.chainId, context.chainId), lt(chainBlocks.blockNumber, block.number - CHAIN_BLOCKS_KEPT)),
    );
  await moveCursorInTx(tx, context.chainId, block.number, block.hash, context.now);
  return outcome;
}

/** Set the cursor of `chainId` to block `blockNumber` with hash `blockHash`. */
export async function moveCursorInTx(
  tx: Tx,
  chainId: number,
  blockNumber: number,
  blockHash: string,
  now: Date,
): Promise<void> {
  await tx
    .insert(chainCursors)
    .values({ chainId, blockNumber, blockHash, updatedAt: now })
    .onConflictDoUpdate({ target: chainCursors.chainId, set: { blockNumber, blockHash, updatedAt: now } });
}

/** Chain deposits already recorded for transactions `txHashes`, by `<tx hash>:<log index>`. */
async function knownTransfersInTx(
  tx: Tx,
  chainId: number,
  txHashes: string[],
): Promise<Map<string, { id: number; status: string }>> {
  if (txHashes.length === 0) return new Map();
  const rows = await tx
    .select({
      id: chainDeposits.id,
      status: chainDeposits.status,
      txHash: chainDeposits.txHash,
      logIndex: chainDeposits.logIndex,
    })
    .from(chainDeposits)
    .where(and(eq(chainDeposits.chainId, chainId), inArray(chainDeposits.txHash, [...new Set(txHashes)])));
  return new Map(rows.map((row) => [`${row.txHash}:${row.logIndex}`, row]));
}

/** Record one transfer to our `userId`; `existingId` is its ORPHANED row, recorded again from this block. */
async function recordTransferInTx(
  tx: Tx,
  context: BlockContext,
  block: EvmBlock,
  transfer: EvmTransfer,
  userId: string,
  existingId: number | undefined,
): Promise<RecordedDeposit | undefined> {
  const watched = transfer.token === null ? context.eth : context.tokens.get(transfer.token);
  const base = {
    chainId: context.chainId,
    txHash: transfer.txHash,
    logIndex: transfer.logIndex,
    blockNumber: block.number,
    blockHash: block.hash,
    tokenAddress: transfer.token,
    network: watched?.network ?? 'ERC20',
    toAddress: transfer.to,
    fromAddress: transfer.from,
    userId,
    amountRaw: transfer.value.toString(),
    confirmationsRequired: watched?.confirmationsRequired ?? 0,
  };
  let row: typeof chainDeposits.$inferInsert;
  let recorded: RecordedDeposit | undefined;
  if (!watched) {
    row = { ...base, coinCode: null, amountMinor: null, status: 'REVIEW', reason: 'unknown_token', depositId: null };
  } else {
    const { minor } = toMinorUnits(transfer.value, watched.decimals, watched.coin);
    if (minor < watched.minimumMinor || minor === 0n) {
      const reason = minor === 0n ? 'dust' : 'below_minimum';
      row = { ...base, coinCode: watched.coin, amountMinor: minor, status: 'REVIEW', reason, depositId: null };
    } else {
      const confirmations = confirmationsOf(block.number, context.tip);
      recorded = await context.wallet.recordDepositInTx(tx, {
        network: watched.network,
        coin: watched.coin,
        address: getAddress(transfer.to),
        txHash: transfer.txHash,
        outputIndex: transfer.logIndex,
        amountMinor: minor,
        confirmations,
        fromAddress: getAddress(transfer.from),
        confirmationsRequired: watched.confirmationsRequired,
        isFinal: context.finalized !== null && block.number <= context.finalized,
      });
      const status = recorded.row.status === 'PENDING' ? 'PENDING' : 'CREDITED';
      row = { ...base, coinCode: watched.coin, amountMinor: minor, status, reason: null, depositId: recorded.row.id };
    }
  }
  if (existingId !== undefined) await tx.update(chainDeposits).set(row).where(eq(chainDeposits.id, existingId));
  else await tx.insert(chainDeposits).values(row);
  return recorded;
}
