import type { ChainOpsAlarm, ChainOpsDeposit, ChainOpsState } from '@meridian/contracts/chain-ops';
import { type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import Decimal from 'decimal.js';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Db, Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import type { RecordedDeposit } from '../wallet/wallet.service.ts';
import { confirmationsOf } from './chain.blocks.ts';
import { chainCursors, chainDeposits, chainReorgAlarms } from './chain.tables.ts';
import type { ChainWallet, EvmNode } from './chain.types.ts';

type DepositRow = typeof chainDeposits.$inferSelect;
type AlarmRow = typeof chainReorgAlarms.$inferSelect;

/** Most rows of each list `state()` answers (pending deposits, review items, unresolved alarms). */
export const CHAIN_OPS_LIST_MAX = 100;

/** What the back-office side of the chain module needs. */
export interface ChainOpsDeps {
  db: Db;
  /** The watched node, or null when EVM_RPC_URL is unset (the state then says the watcher is off). */
  node: EvmNode | null;
  wallet: Pick<ChainWallet, 'recordDepositInTx' | 'notifyDepositCredited'>;
  /** USD per one coin (decimal string), or null when no price is available now. */
  usdPerCoin: (coin: AssetCode) => Promise<string | null>;
  /** USD (decimal string): a review item worth more needs two finance operators (LARGE_WITHDRAWAL_USD). */
  largeUsd: string;
  now: () => Date;
}

/** The operator acting, as the audit log and the four-eyes check know them. */
export interface ChainOperator {
  email: string;
}

/** A decision's state before and after, for the audit log. */
export interface ChainOpsChange<T> {
  before: T;
  after: T;
}

/** The back-office calls of the chain module (docs/chain.md "Back office"). */
export interface ChainOps {
  /** Head block, cursor, lag and the three queues. Never throws for the node: `nodeError` says what failed. */
  state(): Promise<ChainOpsState>;
  /**
   * First approval of a large review item (USD value over LARGE_WITHDRAWAL_USD); nothing moves.
   * @throws DomainError NOT_FOUND; CHAIN_ITEM_STATE_CHANGED when it is not held for review, not large,
   *   or already approved; CHAIN_DEPOSIT_NOT_CREDITABLE for an unknown token or dust.
   */
  approveReview(id: number, operator: ChainOperator): Promise<ChainOpsChange<ChainOpsDeposit>>;
  /**
   * Credit a review item once through the wallet's deposit path (DEPOSIT entry hot wallet → user;
   * a sanctioned source is frozen as for any deposit) and close it with `note`.
   * @throws DomainError NOT_FOUND; CHAIN_ITEM_STATE_CHANGED (decided already); CHAIN_DEPOSIT_NOT_CREDITABLE;
   *   CHAIN_SECOND_APPROVAL_REQUIRED (large, not approved yet); FOUR_EYES_REQUIRED (the approver releasing).
   */
  releaseReview(id: number, operator: ChainOperator, note: string): Promise<ChainOpsChange<ChainOpsDeposit>>;
  /** Close a review item without crediting it. @throws DomainError NOT_FOUND; CHAIN_ITEM_STATE_CHANGED. */
  rejectReview(id: number, operator: ChainOperator, note: string): Promise<ChainOpsChange<ChainOpsDeposit>>;
  /** open → acknowledged. @throws DomainError NOT_FOUND; CHAIN_ITEM_STATE_CHANGED when it is not open. */
  acknowledgeAlarm(id: number, operator: ChainOperator, note?: string): Promise<ChainOpsChange<ChainOpsAlarm>>;
  /**
   * open or acknowledged → resolved, once: RELEASE_HOLD moves the held amount USER_FROZEN → USER_AVAILABLE
   * (entry CHAIN_REORG_RELEASE), RECOVER moves it USER_FROZEN → PLATFORM_HOT_WALLET (entry CHAIN_REORG_RECOVER).
   * @throws DomainError NOT_FOUND; CHAIN_ITEM_STATE_CHANGED when resolved already; INSUFFICIENT_BALANCE
   *   when the user's frozen balance no longer holds the amount.
   */
  resolveAlarm(
    id: number,
    operator: ChainOperator,
    resolution: 'RELEASE_HOLD' | 'RECOVER',
    note: string,
  ): Promise<ChainOpsChange<ChainOpsAlarm>>;
}

/** Build the chain module's back-office calls. */
export function createChainOps(deps: ChainOpsDeps): ChainOps {
  const { db } = deps;
  const view = createViews(deps);

  async function lockedDeposit(tx: Tx, id: number): Promise<DepositRow> {
    const [row] = await tx.select().from(chainDeposits).where(eq(chainDeposits.id, id)).for('update');
    if (!row) throw new DomainError('NOT_FOUND');
    if (row.status !== 'REVIEW') throw new DomainError('CHAIN_ITEM_STATE_CHANGED');
    return row;
  }

  async function lockedAlarm(tx: Tx, id: number): Promise<AlarmRow> {
    const [row] = await tx.select().from(chainReorgAlarms).where(eq(chainReorgAlarms.id, id)).for('update');
    if (!row) throw new DomainError('NOT_FOUND');
    if (row.status === 'resolved') throw new DomainError('CHAIN_ITEM_STATE_CHANGED');
    return row;
  }

  /** The coin of a review item that can be credited, or NOT_CREDITABLE (unknown token, dust). */
  function creditableCoin(row: DepositRow): AssetCode {
    if (row.coinCode === null || !isAssetCode(row.coinCode) || row.amountMinor === null || row.amountMinor <= 0n)
      throw new DomainError('CHAIN_DEPOSIT_NOT_CREDITABLE');
    return row.coinCode;
  }

  async function updateDeposit(tx: Tx, id: number, set: Partial<DepositRow>): Promise<DepositRow> {
    const [row] = await tx.update(chainDeposits).set(set).where(eq(chainDeposits.id, id)).returning();
    return row!;
  }

  return {
    state: () => view.state(),

    async approveReview(id, operator) {
      return db.transaction(async (tx) => {
        const row = await lockedDeposit(tx, id);
        creditableCoin(row);
        if (!(await view.isLarge(row)) || row.reviewApprovedBy !== null)
          throw new DomainError('CHAIN_ITEM_STATE_CHANGED');
        const after = await updateDeposit(tx, id, { reviewApprovedBy: operator.email, reviewApprovedAt: deps.now() });
        return { before: await view.deposit(row), after: await view.deposit(after) };
      });
    },

    async releaseReview(id, operator, note) {
      let credited: RecordedDeposit | undefined;
      const change = await db.transaction(async (tx) => {
        const row = await lockedDeposit(tx, id);
        const coin = creditableCoin(row);
        if (await view.isLarge(row)) {
          if (row.reviewApprovedBy === null) throw new DomainError('CHAIN_SECOND_APPROVAL_REQUIRED');
          if (row.reviewApprovedBy === operator.email) throw new DomainError('FOUR_EYES_REQUIRED');
        }
        const recorded = await deps.wallet.recordDepositInTx(tx, {
          network: row.network,
          coin,
          address: getAddress(row.toAddress),
          txHash: row.txHash,
          outputIndex: row.logIndex,
          amountMinor: row.amountMinor!,
          confirmations: row.confirmationsRequired,
          fromAddress: getAddress(row.fromAddress),
          confirmationsRequired: row.confirmationsRequired,
          isFinal: true,
        });
        if (recorded.isCreditedNow) credited = recorded;
        const after = await updateDeposit(tx, id, {
          status: 'CREDITED',
          depositId: recorded.row.id,
          reviewedBy: operator.email,
          reviewedAt: deps.now(),
          reviewNote: note,
        });
        return { before: await view.deposit(row), after: await view.deposit(after) };
      });
      if (credited) await deps.wallet.notifyDepositCredited(credited);
      return change;
    },

    async rejectReview(id, operator, note) {
      return db.transaction(async (tx) => {
        const row = await lockedDeposit(tx, id);
        const after = await updateDeposit(tx, id, {
          status: 'REJECTED',
          reviewedBy: operator.email,
          reviewedAt: deps.now(),
          reviewNote: note,
        });
        return { before: await view.deposit(row), after: await view.deposit(after) };
      });
    },

    async acknowledgeAlarm(id, operator, note) {
      return db.transaction(async (tx) => {
        const row = await lockedAlarm(tx, id);
        if (row.status !== 'open') throw new DomainError('CHAIN_ITEM_STATE_CHANGED');
        const [after] = await tx
          .update(chainReorgAlarms)
          .set({
            status: 'acknowledged',
            acknowledgedBy: operator.email,
            acknowledgedAt: deps.now(),
            note: note ?? null,
          })
          .where(eq(chainReorgAlarms.id, id))
          .returning();
        return { before: alarmView(row), after: alarmView(after!) };
      });
    },

    async resolveAlarm(id, operator, resolution, note) {
      return db.transaction(async (tx) => {
        const row = await lockedAlarm(tx, id);
        const releaseEntryId = await postResolutionInTx(tx, row, resolution);
        const [after] = await tx
          .update(chainReorgAlarms)
          .set({
            status: 'resolved',
            resolvedBy: operator.email,
            resolvedAt: deps.now(),
            resolution,
            note,
            releaseEntryId,
          })
          .where(eq(chainReorgAlarms.id, id))
          .returning();
        return { before: alarmView(row), after: alarmView(after!) };
      });
    },
  };
}

/** Post what resolving alarm `row` moves (its held amount out of USER_FROZEN); the entry id, or null when nothing was held. */
async function postResolutionInTx(
  tx: Tx,
  row: AlarmRow,
  resolution: 'RELEASE_HOLD' | 'RECOVER',
): Promise<number | null> {
  if (row.heldMinor <= 0n || !isAssetCode(row.coinCode)) return null;
  const frozen = userAccount(row.userId, 'USER_FROZEN', row.coinCode);
  const to =
    resolution === 'RELEASE_HOLD'
      ? userAccount(row.userId, 'USER_AVAILABLE', row.coinCode)
      : platformAccount('PLATFORM_HOT_WALLET', row.coinCode);
  const { entry } = await postEntry(tx, {
    kind: resolution === 'RELEASE_HOLD' ? 'CHAIN_REORG_RELEASE' : 'CHAIN_REORG_RECOVER',
    reference: `deposit:${row.depositId}`,
    idempotencyKey: `chain-reorg-alarm:${row.id}:resolve`,
    postings: transfer(frozen, to, row.heldMinor),
    metadata: { alarmId: String(row.id), orphanedBlockHash: row.orphanedBlockHash },
  });
  return entry.id;
}

/** An alarm row as the back office sees it. */
function alarmView(row: AlarmRow): ChainOpsAlarm {
  const asset = isAssetCode(row.coinCode) ? row.coinCode : null;
  const amount = (minor: bigint) => (asset ? toDecimalString(minor, asset) : String(minor));
  return {
    id: row.id,
    chainDepositId: row.chainDepositId,
    depositId: row.depositId,
    userId: row.userId,
    coinCode: row.coinCode,
    amount: amount(row.amountMinor),
    held: amount(row.heldMinor),
    orphanedBlockNumber: row.orphanedBlockNumber,
    orphanedBlockHash: row.orphanedBlockHash,
    status: row.status as ChainOpsAlarm['status'],
    acknowledgedBy: row.acknowledgedBy,
    resolvedBy: row.resolvedBy,
    resolution: row.resolution as ChainOpsAlarm['resolution'],
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The read side: rows as the back office sees them, and the watcher's state. */
function createViews(deps: ChainOpsDeps) {
  const { db } = deps;
  let cursorBlock: number | null = null;

  async function usdValueOf(row: DepositRow): Promise<string | null> {
    if (row.coinCode === null || !isAssetCode(row.coinCode) || row.amountMinor === null) return null;
    const price = await deps.usdPerCoin(row.coinCode).catch(() => null);
    if (price === null) return null;
    return new Decimal(toDecimalString(row.amountMinor, row.coinCode)).mul(price).toDecimalPlaces(2).toFixed(2);
  }

  async function isLarge(row: DepositRow): Promise<boolean> {
    const usd = await usdValueOf(row);
    return usd !== null && new Decimal(usd).gt(deps.largeUsd);
  }

  async function deposit(row: DepositRow): Promise<ChainOpsDeposit> {
    const usdValue = await usdValueOf(row);
    const asset = row.coinCode !== null && isAssetCode(row.coinCode) ? row.coinCode : null;
    return {
      id: row.id,
      chainId: row.chainId,
      txHash: row.txHash,
      logIndex: row.logIndex,
      blockNumber: row.blockNumber,
      tokenAddress: row.tokenAddress,
      coinCode: row.coinCode,
      network: row.network,
      toAddress: row.toAddress,
      fromAddress: row.fromAddress,
      userId: row.userId,
      amountRaw: String(row.amountRaw),
      amount: asset && row.amountMinor !== null ? toDecimalString(row.amountMinor, asset) : null,
      usdValue,
      confirmations: cursorBlock === null ? 0 : confirmationsOf(row.blockNumber, cursorBlock),
      confirmationsRequired: row.confirmationsRequired,
      status: row.status as ChainOpsDeposit['status'],
      reason: row.reason as ChainOpsDeposit['reason'],
      needsSecondApproval: usdValue !== null && new Decimal(usdValue).gt(deps.largeUsd),
      approvedBy: row.reviewApprovedBy,
      reviewedBy: row.reviewedBy,
      reviewNote: row.reviewNote,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function nodeState(): Promise<Pick<ChainOpsState, 'chainId' | 'headBlock' | 'nodeError'>> {
    if (!deps.node) return { chainId: null, headBlock: null, nodeError: null };
    try {
      return { chainId: await deps.node.chainId(), headBlock: await deps.node.latestBlockNumber(), nodeError: null };
    } catch (error) {
      return { chainId: null, headBlock: null, nodeError: error instanceof Error ? error.message : String(error) };
    }
  }

  async function lagSecondsOf(head: number | null, cursor: number | null): Promise<number | null> {
    if (!deps.node?.blockTimestamp || head === null || cursor === null) return null;
    const [headAt, cursorAt] = await Promise.all([deps.node.blockTimestamp(head), deps.node.blockTimestamp(cursor)]);
    return headAt === null || cursorAt === null ? null : Math.max(0, headAt - cursorAt);
  }

  async function state(): Promise<ChainOpsState> {
    const node = await nodeState();
    const [cursor] =
      node.chainId === null ? [] : await db.select().from(chainCursors).where(eq(chainCursors.chainId, node.chainId));
    cursorBlock = cursor?.blockNumber ?? null;
    const lagBlocks = node.headBlock !== null && cursorBlock !== null ? node.headBlock - cursorBlock : null;
    const lagSeconds = await lagSecondsOf(node.headBlock, cursorBlock).catch(() => null);
    const byStatus = (status: string, order: 'asc' | 'desc') =>
      db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.status, status))
        .orderBy(order === 'asc' ? asc(chainDeposits.id) : desc(chainDeposits.id))
        .limit(CHAIN_OPS_LIST_MAX);
    const alarms = await db
      .select()
      .from(chainReorgAlarms)
      .where(inArray(chainReorgAlarms.status, ['open', 'acknowledged']))
      .orderBy(desc(chainReorgAlarms.id))
      .limit(CHAIN_OPS_LIST_MAX);
    return {
      isWatcherEnabled: deps.node !== null,
      ...node,
      cursorBlock,
      cursorUpdatedAt: cursor?.updatedAt.toISOString() ?? null,
      lagBlocks,
      lagSeconds,
      pending: await Promise.all((await byStatus('PENDING', 'asc')).map(deposit)),
      review: await Promise.all((await byStatus('REVIEW', 'asc')).map(deposit)),
      alarms: alarms.map(alarmView),
    };
  }

  return { state, deposit, isLarge };
}
