import { getAddress } from 'viem';
import { type AssetCode, parseAmountMinor } from '@meridian/contracts/money';
import { and, asc, eq, isNotNull, not, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import type { ObservedDeposit, RecordedDeposit } from '../wallet/wallet.service.ts';
import { DepositAddressIndex } from './chain.address-index.ts';
import { type BlockContext, confirmationsOf, recordBlockInTx } from './chain.blocks.ts';
import type { LeaderLock } from './chain.leader.ts';
import { findCommonAncestor, type ReorgAlarm, rewindInTx } from './chain.reorg.ts';
import { chainCursors, chainDeposits } from './chain.tables.ts';
import type { ChainWallet, DepositSource, EvmNode, PollReport, WatchedCoin } from './chain.types.ts';

/** The coins and rules the watcher applies, resolved again at each poll (operators may change confirmations). */
export interface WatchedCoinsSource {
  /** Confirmations of `coin` on `network` from the configuration, else the network's setting; undefined when the network is unknown. */
  confirmationsFor(coin: AssetCode, network: string): Promise<number | undefined>;
  /** Smallest credited amount of `coin` as a decimal string. */
  minimumOf(coin: AssetCode): string;
  /** ERC-20 contracts by coin code. */
  tokens: Readonly<Record<string, string>>;
}

/** Where a test stops a poll as if the process were killed there (the transaction is rolled back). */
export type WatcherFaultPoint = 'block-recorded' | 'confirmations-recorded';

/** What `EvmWatcher` needs. */
export interface EvmWatcherOptions {
  db: Db;
  node: EvmNode;
  wallet: ChainWallet;
  coins: WatchedCoinsSource;
  /** Only the holder of this lock polls in the loop (`start`); `pollOnce` does not ask it. */
  leader: LeaderLock;
  pollIntervalMs: number;
  blocksPerPoll: number;
  /** First block when there is no cursor yet; default: the latest block then. */
  startBlock?: number | undefined;
  now: () => Date;
  log: {
    info(detail: object, message: string): void;
    warn(detail: object, message: string): void;
    error(detail: object, message: string): void;
  };
  /** Counted after the commit of a rewind, one per credited deposit whose block was orphaned. */
  onReorgAlarm?: (alarm: ReorgAlarm) => void;
  /** Called once per processed block (metrics). */
  onBlock?: (blockNumber: number) => void;
  /** Tests: throw here to abandon the poll's transaction as a kill would. */
  faultPoint?: (point: WatcherFaultPoint, blockNumber: number) => void;
}

/** Raised when a reorganisation is deeper than the blocks kept: the watcher cannot tell what changed. */
export class ReorgTooDeepError extends Error {
  constructor(readonly fromBlock: number) {
    super(`chain reorganisation deeper than the kept blocks below ${fromBlock}: the watcher stopped`);
    this.name = 'ReorgTooDeepError';
  }
}

const ETH_DECIMALS = 18;
/** Pending deposits credited per batched wallet call (bounds each statement's parameters). */
const CONFIRM_BATCH = 1000;

/** The wallet's view of a pending chain deposit that is due: confirmed (`confirmations`) or final. */
function observedOf(
  row: typeof chainDeposits.$inferSelect,
  watched: WatchedCoin,
  confirmations: number,
  isFinal: boolean,
): ObservedDeposit {
  return {
    network: row.network,
    coin: watched.coin,
    // Lowercase as stored: the wallet spells it (EIP-55) once.
    address: row.toAddress,
    txHash: row.txHash,
    outputIndex: row.logIndex,
    amountMinor: row.amountMinor!,
    confirmations,
    fromAddress: getAddress(row.fromAddress),
    confirmationsRequired: row.confirmationsRequired,
    isFinal,
  };
}

/**
 * The EVM deposit watcher (docs/chain.md): follows an Ethereum node by polling. Each poll checks
 * that the cursor's block is still canonical (else walks back to the common ancestor), then reads
 * the blocks after the cursor up to the tip (at most `blocksPerPoll`), one transaction per block
 * (its deposits, the block row and the cursor together), then raises the confirmations of the
 * pending deposits and credits those that reached their count or a finalized block, once each,
 * through the wallet's credit path.
 */
export class EvmWatcher implements DepositSource {
  readonly name = 'evm-watcher';
  readonly networks = ['Ethereum', 'ERC20'] as const;
  private readonly addresses: DepositAddressIndex;
  private readonly decimals = new Map<string, number>();
  private chainIdValue: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> | undefined;
  private isStopped = true;

  constructor(private readonly options: EvmWatcherOptions) {
    this.addresses = new DepositAddressIndex(options.wallet);
  }

  /** The node's EIP-155 chain id (read once). */
  async chainId(): Promise<number> {
    this.chainIdValue ??= await this.options.node.chainId();
    return this.chainIdValue;
  }

  /** The last processed block, or undefined before the first. */
  async cursor(): Promise<{ blockNumber: number; blockHash: string } | undefined> {
    const chainId = await this.chainId();
    const [row] = await this.options.db.select().from(chainCursors).where(eq(chainCursors.chainId, chainId));
    return row && { blockNumber: row.blockNumber, blockHash: row.blockHash };
  }

  /** Start polling every `pollIntervalMs` while this process holds the leader lock. */
  async start(): Promise<void> {
    this.isStopped = false;
    this.schedule(0);
  }

  /** Stop polling; waits for a poll in flight, then releases the leader lock. */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight?.catch(() => undefined);
    await this.options.leader.release();
  }

  private schedule(delayMs: number): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.tick().finally(() => this.schedule(this.options.pollIntervalMs));
    }, delayMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.options.leader.acquire())) return;
      await this.pollOnce();
    } catch (error) {
      const detail = { err: error, alert: error instanceof ReorgTooDeepError ? 'chain-reorg-too-deep' : undefined };
      this.options.log.error(detail, 'chain watcher poll failed');
      if (error instanceof ReorgTooDeepError) this.isStopped = true;
    }
  }

  /**
   * One poll: rewind if the cursor's block left the chain, read new blocks up to the tip, then
   * confirm and credit pending deposits. Safe to call again after a failure at any point.
   * @throws ReorgTooDeepError; the node's or the database's errors.
   */
  async pollOnce(): Promise<PollReport> {
    const { node } = this.options;
    const chainId = await this.chainId();
    const report: PollReport = { blocksProcessed: 0, depositsFound: 0, depositsCredited: 0, reorgs: 0, tip: 0 };
    const tip = await node.latestBlockNumber();
    const finalized = await node.finalizedBlockNumber();
    report.tip = tip;
    const { eth, tokens } = await this.watchedCoins();
    let cursor = await this.cursor();
    if (cursor && (await node.blockHash(cursor.blockNumber)) !== cursor.blockHash) {
      cursor = await this.rewind(chainId, cursor.blockNumber, report);
    }
    let next = cursor ? cursor.blockNumber + 1 : (this.options.startBlock ?? tip);
    while (next <= tip && report.blocksProcessed < this.options.blocksPerPoll) {
      const block = await node.readBlock(next);
      if (!block) break;
      if (cursor && block.parentHash !== cursor.blockHash) {
        if (report.reorgs >= 3) break; // the node is still moving: the next poll goes on
        cursor = await this.rewind(chainId, cursor.blockNumber, report);
        next = cursor.blockNumber + 1;
        continue;
      }
      await this.addresses.refresh();
      const context: BlockContext = {
        chainId,
        wallet: this.options.wallet,
        addresses: this.addresses,
        eth,
        tokens,
        tip,
        finalized,
        now: this.options.now(),
      };
      const outcome = await this.options.db.transaction(async (tx) => {
        const recorded = await recordBlockInTx(tx, context, block);
        this.options.faultPoint?.('block-recorded', block.number);
        return recorded;
      });
      report.blocksProcessed += 1;
      report.depositsFound += outcome.found;
      report.depositsCredited += outcome.credited.length;
      this.options.onBlock?.(block.number);
      await this.notify(outcome.credited);
      cursor = { blockNumber: block.number, blockHash: block.hash };
      next = block.number + 1;
    }
    report.depositsCredited += await this.confirmPending(chainId, eth, tokens, tip, finalized);
    return report;
  }

  private async rewind(
    chainId: number,
    fromNumber: number,
    report: PollReport,
  ): Promise<{ blockNumber: number; blockHash: string }> {
    const ancestor = await findCommonAncestor(this.options.db, this.options.node, chainId, fromNumber);
    if (!ancestor) throw new ReorgTooDeepError(fromNumber);
    const outcome = await this.options.db.transaction(async (tx) =>
      rewindInTx(tx, this.options.wallet, chainId, ancestor, this.options.now()),
    );
    report.reorgs += 1;
    this.options.log.warn(
      { chainId, fromBlock: fromNumber, ancestor: ancestor.blockNumber, orphaned: outcome.orphaned },
      'chain reorganisation: rewound to the common ancestor',
    );
    for (const alarm of outcome.alarms) {
      this.options.log.error(
        {
          alert: 'chain-reorg-credited-deposit',
          ...alarm,
          amountMinor: String(alarm.amountMinor),
          heldMinor: String(alarm.heldMinor),
        },
        'ALARM: a credited deposit was orphaned by a chain reorganisation; the amount is held for finance',
      );
      this.options.onReorgAlarm?.(alarm);
    }
    return ancestor;
  }

  /**
   * Raise the confirmations of pending deposits to the tip's count, and credit (through the
   * wallet's batched deposit path, `CONFIRM_BATCH` at a time) those that reached their count or lie
   * in a finalized block; one transaction.
   */
  private async confirmPending(
    chainId: number,
    eth: WatchedCoin,
    tokens: ReadonlyMap<string, WatchedCoin>,
    tip: number,
    finalized: number | null,
  ): Promise<number> {
    const credited = await this.options.db.transaction(async (tx) => {
      // Due by count or finality: read whole (to credit them); the others only for their ids.
      const isDue = sql`(${chainDeposits.blockNumber} <= ${tip + 1}::bigint - ${chainDeposits.confirmationsRequired}${
        finalized === null ? sql`` : sql` OR ${chainDeposits.blockNumber} <= ${finalized}::bigint`
      })`;
      const isPending = and(eq(chainDeposits.chainId, chainId), eq(chainDeposits.status, 'PENDING'));
      const dueRows = await tx
        .select()
        .from(chainDeposits)
        .where(and(isPending, isDue))
        .orderBy(asc(chainDeposits.blockNumber), asc(chainDeposits.id));
      const waitingRows = await tx
        .select({ depositId: chainDeposits.depositId, blockNumber: chainDeposits.blockNumber })
        .from(chainDeposits)
        .where(and(isPending, isNotNull(chainDeposits.depositId), not(isDue)));
      const due: { row: typeof chainDeposits.$inferSelect; input: ObservedDeposit }[] = [];
      const waiting = new Map<number, number[]>();
      const wait = (blockNumber: number, depositId: number | null) => {
        if (depositId === null) return;
        const confirmations = confirmationsOf(blockNumber, tip);
        const ids = waiting.get(confirmations);
        if (ids) ids.push(depositId);
        else waiting.set(confirmations, [depositId]);
      };
      for (const row of waitingRows) wait(row.blockNumber, row.depositId);
      for (const row of dueRows) {
        const watched = row.tokenAddress === null ? eth : tokens.get(row.tokenAddress);
        if (!watched || row.depositId === null) {
          wait(row.blockNumber, row.depositId);
          continue;
        }
        const isFinal = finalized !== null && row.blockNumber <= finalized;
        due.push({ row, input: observedOf(row, watched, confirmationsOf(row.blockNumber, tip), isFinal) });
      }
      const done: RecordedDeposit[] = [];
      for (let index = 0; index < due.length; index += CONFIRM_BATCH) {
        const part = due.slice(index, index + CONFIRM_BATCH);
        const recorded = await this.options.wallet.recordDepositsInTx(
          tx,
          part.map((item) => item.input),
        );
        const settled = part.filter((_, k) => recorded[k]!.row.status !== 'PENDING').map((item) => item.row.id);
        if (settled.length > 0)
          await tx
            .update(chainDeposits)
            .set({ status: 'CREDITED' })
            .where(sql`${chainDeposits.id} = ANY(${pgArrayLiteral(settled)}::bigint[])`);
        done.push(...recorded.filter((deposit) => deposit.isCreditedNow));
      }
      for (const [confirmations, depositIds] of waiting)
        await this.options.wallet.raiseDepositConfirmationsInTx(tx, depositIds, confirmations);
      this.options.faultPoint?.('confirmations-recorded', tip);
      return done;
    });
    await this.notify(credited);
    return credited.length;
  }

  /** The credit messages of `credited`, after their commit, in a few statements (one message each). */
  private async notify(credited: RecordedDeposit[]): Promise<void> {
    await this.options.wallet.notifyDepositsCredited(credited);
  }

  /** ETH and the configured tokens with their decimals (read once per contract) and current rules. */
  private async watchedCoins(): Promise<{ eth: WatchedCoin; tokens: Map<string, WatchedCoin> }> {
    const { coins, node } = this.options;
    const watched = async (coin: AssetCode, network: string, decimals: number): Promise<WatchedCoin> => ({
      coin,
      network,
      decimals,
      confirmationsRequired: (await coins.confirmationsFor(coin, network)) ?? 12,
      minimumMinor: parseAmountMinor(coins.minimumOf(coin), coin),
    });
    const eth = await watched('ETH', 'Ethereum', ETH_DECIMALS);
    const tokens = new Map<string, WatchedCoin>();
    for (const [coin, address] of Object.entries(coins.tokens)) {
      const token = address.toLowerCase();
      if (!this.decimals.has(token)) this.decimals.set(token, await node.tokenDecimals(token));
      tokens.set(token, await watched(coin as AssetCode, 'ERC20', this.decimals.get(token)!));
    }
    return { eth, tokens };
  }
}
