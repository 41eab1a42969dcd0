import { type AssetCode, parseAmountMinor } from '@meridian/contracts/money';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import type { RecordedDeposit } from '../wallet/wallet.service.ts';
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
/** Pending deposits confirmed per set-based wallet call (bounds each statement's size). */
const CONFIRM_BATCH = 1000;

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
   * wallet's set-based `confirmDepositsInTx`, `CONFIRM_BATCH` at a time: one statement raises them
   * all) those that reached their count or lie in a finalized block, a coin still watched; one
   * transaction. Only ids and counts are read, not whole rows.
   */
  private async confirmPending(
    chainId: number,
    eth: WatchedCoin,
    tokens: ReadonlyMap<string, WatchedCoin>,
    tip: number,
    finalized: number | null,
  ): Promise<number> {
    const credited = await this.options.db.transaction(async (tx) => {
      const pending = await tx
        .select({
          id: chainDeposits.id,
          depositId: chainDeposits.depositId,
          blockNumber: chainDeposits.blockNumber,
          tokenAddress: chainDeposits.tokenAddress,
          confirmationsRequired: chainDeposits.confirmationsRequired,
        })
        .from(chainDeposits)
        .where(
          and(
            eq(chainDeposits.chainId, chainId),
            eq(chainDeposits.status, 'PENDING'),
            isNotNull(chainDeposits.depositId),
          ),
        )
        .orderBy(asc(chainDeposits.blockNumber), asc(chainDeposits.id));
      const chainIdOf = new Map(pending.map((row) => [row.depositId!, row.id]));
      const done: RecordedDeposit[] = [];
      for (let index = 0; index < pending.length; index += CONFIRM_BATCH) {
        const part = pending.slice(index, index + CONFIRM_BATCH);
        const settled = await this.options.wallet.confirmDepositsInTx(
          tx,
          part.map((row) => ({
            depositId: row.depositId!,
            confirmations: confirmationsOf(row.blockNumber, tip),
            confirmationsRequired: row.confirmationsRequired,
            isFinal: finalized !== null && row.blockNumber <= finalized,
            // A coin no longer watched is only counted, not credited.
            mayCredit: (row.tokenAddress === null ? eth : tokens.get(row.tokenAddress)) !== undefined,
          })),
        );
        const ids = settled.map((deposit) => chainIdOf.get(deposit.row.id)!);
        if (ids.length > 0)
          await tx
            .update(chainDeposits)
            .set({ status: 'CREDITED' })
            .where(sql`${chainDeposits.id} = ANY(${pgArrayLiteral(ids)}::bigint[])`);
        done.push(...settled.filter((deposit) => deposit.isCreditedNow));
      }
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
