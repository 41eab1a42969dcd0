import { getAddress } from 'viem';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { nullableArrayLiteral, pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { selectInColumnOrder } from '../../platform/db/unnest.ts';
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
  const ours = block.transfers.flatMap((transfer) => {
    const userId = context.addresses.ownerOf(transfer.to);
    return userId === undefined ? [] : [{ transfer, userId }];
  });
  const known = await knownTransfersInTx(
    tx,
    context.chainId,
    ours.map(({ transfer }) => transfer.txHash),
  );
  const fresh = ours.flatMap(({ transfer, userId }) => {
    const existing = known.get(`${transfer.txHash}:${transfer.logIndex}`);
    return existing && existing.status !== 'ORPHANED' ? [] : [{ transfer, userId, existingId: existing?.id }];
  });
  const credited = await recordTransfersInTx(tx, context, block, fresh);
  const outcome: BlockOutcome = { found: ours.length, credited };
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
    .where(
      and(
        eq(chainDeposits.chainId, chainId),
        sql`${chainDeposits.txHash} = ANY(${pgArrayLiteral([...new Set(txHashes)])}::text[])`,
      ),
    );
  return new Map(rows.map((row) => [`${row.txHash}:${row.logIndex}`, row]));
}

/** Rows written per set-based INSERT of chain deposits (`insertChainDepositsInTx`). */
const CHAIN_ROWS_PER_STATEMENT = 1000;

/** A transfer to one of ours, not recorded yet (or orphaned: `existingId`, recorded again from this block). */
interface FreshTransfer {
  transfer: EvmTransfer;
  userId: string;
  existingId: number | undefined;
}

/**
 * Record a block's transfers to ours in a fixed number of statements (docs/chain.md "Batched
 * credit"): those held for review (unknown token, below the minimum, dust) only as chain deposits;
 * the others through the wallet's batched deposit path at once (PENDING, or credited when already
 * confirmed or final), then every chain deposit in one multi-row INSERT (an orphaned one updated in
 * place). The credits to announce after the commit.
 */
async function recordTransfersInTx(
  tx: Tx,
  context: BlockContext,
  block: EvmBlock,
  fresh: FreshTransfer[],
): Promise<RecordedDeposit[]> {
  const confirmations = confirmationsOf(block.number, context.tip);
  const isFinal = context.finalized !== null && block.number <= context.finalized;
  const planned = fresh.map((item) => ({ ...item, ...planOf(context, item.transfer) }));
  const toDeposit = planned.filter((plan) => plan.reason === null);
  const recorded = await context.wallet.recordDepositsInTx(
    tx,
    toDeposit.map(({ transfer, watched, minor }) => ({
      network: watched!.network,
      coin: watched!.coin,
      // Lowercase as the node reports it: the wallet spells it (EIP-55) once.
      address: transfer.to,
      txHash: transfer.txHash,
      outputIndex: transfer.logIndex,
      amountMinor: minor!,
      confirmations,
      fromAddress: getAddress(transfer.from),
      confirmationsRequired: watched!.confirmationsRequired,
      isFinal,
    })),
  );
  const depositOf = new Map(toDeposit.map((plan, index) => [plan, recorded[index]!]));
  const rows = planned.map((plan) => {
    const deposit = depositOf.get(plan);
    const status = deposit ? (deposit.row.status === 'PENDING' ? 'PENDING' : 'CREDITED') : 'REVIEW';
    const row: typeof chainDeposits.$inferInsert = {
      chainId: context.chainId,
      txHash: plan.transfer.txHash,
      logIndex: plan.transfer.logIndex,
      blockNumber: block.number,
      blockHash: block.hash,
      tokenAddress: plan.transfer.token,
      network: plan.watched?.network ?? 'ERC20',
      toAddress: plan.transfer.to,
      fromAddress: plan.transfer.from,
      userId: plan.userId,
      amountRaw: plan.transfer.value.toString(),
      confirmationsRequired: plan.watched?.confirmationsRequired ?? 0,
      coinCode: plan.watched?.coin ?? null,
      amountMinor: plan.minor,
      status,
      reason: plan.reason,
      depositId: deposit?.row.id ?? null,
    };
    return { row, existingId: plan.existingId };
  });
  const inserted = rows.filter((item) => item.existingId === undefined).map((item) => item.row);
  for (let index = 0; index < inserted.length; index += CHAIN_ROWS_PER_STATEMENT)
    await insertChainDepositsInTx(tx, inserted.slice(index, index + CHAIN_ROWS_PER_STATEMENT), context.now);
  for (const { row, existingId } of rows)
    if (existingId !== undefined) await tx.update(chainDeposits).set(row).where(eq(chainDeposits.id, existingId));
  return recorded.filter((deposit) => deposit.isCreditedNow);
}

type ChainDepositValues = typeof chainDeposits.$inferInsert;

/**
 * Insert chain deposits `rows` (new ones: no review fields yet) in one INSERT … SELECT over
 * `unnest`, one array parameter per column, in input order, created at the app clock's `now`.
 */
async function insertChainDepositsInTx(tx: Tx, rows: readonly ChainDepositValues[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const column = (pick: (row: ChainDepositValues) => string | number | bigint | null | undefined) =>
    nullableArrayLiteral(rows.map((row) => pick(row) ?? null));
  const select = selectInColumnOrder(
    chainDeposits,
    {
      id: sql`nextval(pg_get_serial_sequence('chain_deposits', 'id'))`,
      chainId: sql`x.chain_id`,
      txHash: sql`x.tx_hash`,
      logIndex: sql`x.log_index`,
      blockNumber: sql`x.block_number`,
      blockHash: sql`x.block_hash`,
      tokenAddress: sql`x.token_address`,
      coinCode: sql`x.coin_code`,
      network: sql`x.network`,
      toAddress: sql`x.to_address`,
      fromAddress: sql`x.from_address`,
      userId: sql`x.user_id`,
      amountRaw: sql`x.amount_raw`,
      amountMinor: sql`x.amount_minor`,
      confirmationsRequired: sql`x.confirmations_required`,
      status: sql`x.status`,
      reason: sql`x.reason`,
      depositId: sql`x.deposit_id`,
      reviewApprovedBy: sql`NULL::text`,
      reviewApprovedAt: sql`NULL::timestamptz`,
      reviewedBy: sql`NULL::text`,
      reviewedAt: sql`NULL::timestamptz`,
      reviewNote: sql`NULL::text`,
      createdAt: sql`${now.toISOString()}::timestamptz`,
    },
    sql`FROM unnest(${column((r) => r.chainId)}::int[], ${column((r) => r.txHash)}::text[], ${column((r) => r.logIndex)}::int[], ${column((r) => r.blockNumber)}::bigint[], ${column((r) => r.blockHash)}::text[], ${column((r) => r.tokenAddress)}::text[], ${column((r) => r.coinCode)}::text[], ${column((r) => r.network)}::text[], ${column((r) => r.toAddress)}::text[], ${column((r) => r.fromAddress)}::text[], ${column((r) => r.userId)}::uuid[], ${column((r) => r.amountRaw)}::numeric[], ${column((r) => r.amountMinor)}::numeric[], ${column((r) => r.confirmationsRequired)}::int[], ${column((r) => r.status)}::text[], ${column((r) => r.reason)}::text[], ${column((r) => r.depositId)}::bigint[]) WITH ORDINALITY AS x(chain_id, tx_hash, log_index, block_number, block_hash, token_address, coin_code, network, to_address, from_address, user_id, amount_raw, amount_minor, confirmations_required, status, reason, deposit_id, ord) ORDER BY x.ord`,
  );
  await tx.insert(chainDeposits).select(select);
}

/** How a transfer is recorded: its coin and minor amount, and why it is held for review (null: a deposit). */
function planOf(
  context: BlockContext,
  transfer: EvmTransfer,
): {
  watched: WatchedCoin | undefined;
  minor: bigint | null;
  reason: 'unknown_token' | 'dust' | 'below_minimum' | null;
} {
  const watched = transfer.token === null ? context.eth : context.tokens.get(transfer.token);
  if (!watched) return { watched, minor: null, reason: 'unknown_token' };
  const { minor } = toMinorUnits(transfer.value, watched.decimals, watched.coin);
  if (minor === 0n) return { watched, minor, reason: 'dust' };
  if (minor < watched.minimumMinor) return { watched, minor, reason: 'below_minimum' };
  return { watched, minor, reason: null };
}
