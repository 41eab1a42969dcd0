import { isAssetCode } from '@meridian/contracts/money';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { transfer, userAccount } from '../ledger/ledger.types.ts';
import { CHAIN_BLOCKS_KEPT, moveCursorInTx } from './chain.blocks.ts';
import { chainBlocks, chainDeposits, chainReorgAlarms } from './chain.tables.ts';
import type { ChainWallet, EvmNode } from './chain.types.ts';

/** A block both we and the node have: where a reorganisation's two branches meet. */
export interface CommonAncestor {
  blockNumber: number;
  blockHash: string;
}

/** A credited deposit whose block was orphaned: what the alarm says (logged and counted after the commit). */
export interface ReorgAlarm {
  alarmId: number;
  chainDepositId: number;
  depositId: number;
  userId: string;
  coinCode: string;
  amountMinor: bigint;
  heldMinor: bigint;
  orphanedBlockNumber: number;
}

/** What one rewind did. */
export interface RewindOutcome {
  /** PENDING or REVIEW chain deposits dropped with their block. */
  orphaned: number;
  alarms: ReorgAlarm[];
}

/**
 * Walk back from block `fromNumber` over the processed blocks we kept (newest first) until one
 * whose hash the node still has at that height: the common ancestor of our branch and the node's.
 * Null when none of the kept blocks is on the node's chain (a reorganisation deeper than
 * `CHAIN_BLOCKS_KEPT`: the watcher stops and says so).
 */
export async function findCommonAncestor(
  db: Db,
  node: EvmNode,
  chainId: number,
  fromNumber: number,
): Promise<CommonAncestor | null> {
  const kept = await db
    .select({ blockNumber: chainBlocks.blockNumber, blockHash: chainBlocks.blockHash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.chainId, chainId), lte(chainBlocks.blockNumber, fromNumber)))
    .orderBy(desc(chainBlocks.blockNumber))
    .limit(CHAIN_BLOCKS_KEPT + 1);
  for (const block of kept) {
    if ((await node.blockHash(block.blockNumber)) === block.blockHash) return block;
  }
  return null;
}

/**
 * Undo, in `tx`, what the watcher recorded above `ancestor`: chain deposits of orphaned blocks
 * that were not credited are dropped (the wallet's PENDING deposit deleted: nothing had been
 * posted); a credited one is never reversed silently — it raises an alarm (a `chain_reorg_alarms`
 * row for finance) and holds what is left of the amount in the user's available balance
 * (USER_AVAILABLE → USER_FROZEN, entry kind CHAIN_REORG_HOLD); one that was frozen (sanctioned
 * source, in SUSPENSE) raises the alarm with nothing to hold. The kept blocks above the ancestor
 * are deleted and the cursor set to it, so the next poll reads the new branch from there.
 */
export async function rewindInTx(
  tx: Tx,
  wallet: ChainWallet,
  chainId: number,
  ancestor: CommonAncestor,
  now: Date,
): Promise<RewindOutcome> {
  const outcome: RewindOutcome = { orphaned: 0, alarms: [] };
  const rows = await tx
    .select()
    .from(chainDeposits)
    .where(
      and(
        eq(chainDeposits.chainId, chainId),
        gt(chainDeposits.blockNumber, ancestor.blockNumber),
        inArray(chainDeposits.status, ['PENDING', 'CREDITED', 'REVIEW']),
      ),
    );
  for (const row of rows) {
    const isDropped =
      row.status === 'REVIEW' ||
      (row.status === 'PENDING' && row.depositId !== null && (await wallet.dropPendingDepositInTx(tx, row.depositId)));
    if (isDropped) {
      await tx.update(chainDeposits).set({ status: 'ORPHANED', depositId: null }).where(eq(chainDeposits.id, row.id));
      outcome.orphaned += 1;
      continue;
    }
    outcome.alarms.push(await raiseAlarmInTx(tx, wallet, row));
  }
  await tx
    .delete(chainBlocks)
    .where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.blockNumber, ancestor.blockNumber)));
  await moveCursorInTx(tx, chainId, ancestor.blockNumber, ancestor.blockHash, now);
  return outcome;
}

async function raiseAlarmInTx(
  tx: Tx,
  wallet: ChainWallet,
  row: typeof chainDeposits.$inferSelect,
): Promise<ReorgAlarm> {
  const depositId = row.depositId!;
  const coinCode = row.coinCode!;
  const amountMinor = row.amountMinor!;
  let heldMinor = 0n;
  let holdEntryId: number | null = null;
  if (isAssetCode(coinCode) && (await wallet.depositStatusInTx(tx, depositId)) === 'CREDITED') {
    const available = userAccount(row.userId, 'USER_AVAILABLE', coinCode);
    const balance = await accountBalance(tx, available);
    heldMinor = balance < amountMinor ? balance : amountMinor;
    if (heldMinor > 0n) {
      const { entry } = await postEntry(tx, {
        kind: 'CHAIN_REORG_HOLD',
        reference: `deposit:${depositId}`,
        idempotencyKey: `chain-deposit:${row.id}:reorg-hold`,
        postings: transfer(available, userAccount(row.userId, 'USER_FROZEN', coinCode), heldMinor),
        metadata: { txHash: row.txHash, blockHash: row.blockHash, blockNumber: String(row.blockNumber) },
      });
      holdEntryId = entry.id;
    }
  }
  const [alarm] = await tx
    .insert(chainReorgAlarms)
    .values({
      chainId: row.chainId,
      chainDepositId: row.id,
      depositId,
      userId: row.userId,
      coinCode,
      amountMinor,
      heldMinor,
      holdEntryId,
      orphanedBlockNumber: row.blockNumber,
      orphanedBlockHash: row.blockHash,
    })
    .onConflictDoNothing()
    .returning({ id: chainReorgAlarms.id });
  await tx.update(chainDeposits).set({ status: 'REORGED_AFTER_CREDIT' }).where(eq(chainDeposits.id, row.id));
  return {
    alarmId: alarm?.id ?? 0,
    chainDepositId: row.id,
    depositId,
    userId: row.userId,
    coinCode,
    amountMinor,
    heldMinor,
    orphanedBlockNumber: row.blockNumber,
  };
}
