import type { AssetCode } from '@meridian/contracts/money';
import type { Tx } from '../../platform/db/client.ts';
import type { ObservedDeposit, PendingConfirmation, RecordedDeposit } from '../wallet/wallet.service.ts';

/**
 * A source of deposits: how coins arriving on a network reach the wallet. Every source records and
 * credits through the wallet's one credit path (`WalletService.recordDepositInTx`), keyed by
 * (network, tx hash, output or log index), so a transfer is credited once whichever way it came.
 *
 * Two kinds exist:
 * - the EVM chain watcher (`EvmWatcher`): follows an Ethereum node (EVM_RPC_URL) for ETH, USDT and
 *   USDC on Ethereum;
 * - the custody webhook (`custodyWebhookSource`): a custody provider signs a `deposit` event
 *   to `POST /api/custody/webhook` (Bitcoin and TRC20 always; ETH and ERC20 when EVM_RPC_URL is
 *   unset). Plugging another custody provider in means sending those events (docs/chain.md).
 */
export interface DepositSource {
  /** For logs and `GET /api/admin/chain/status`: 'evm-watcher' or 'custody-webhook'. */
  readonly name: string;
  /** Network names (as in `coin_networks`) whose deposits this source reports. */
  readonly networks: readonly string[];
  /** Begin reporting (a polling loop, a subscription); no-op for a pushed source. */
  start(): Promise<void>;
  /** Stop reporting; resolves when no work of the source is in flight. */
  stop(): Promise<void>;
}

/** One incoming value transfer in a block: a transaction's ETH value or an ERC-20 `Transfer` log. */
export interface EvmTransfer {
  txHash: string;
  /** The log's index in its block; -1 for a transaction's own ETH value. */
  logIndex: number;
  /** The ERC-20 contract (lowercase 0x…), or null for ETH. */
  token: string | null;
  /** Lowercase 0x… addresses. */
  from: string;
  to: string;
  /** In the token's base units (wei for ETH). */
  value: bigint;
}

/** A block as the watcher needs it. Hashes are 0x… lowercase. */
export interface EvmBlock {
  number: number;
  hash: string;
  parentHash: string;
  /** Every ETH transfer (transactions with a `to` and a value) and every ERC-20 `Transfer` log of the block. */
  transfers: EvmTransfer[];
}

/**
 * What the watcher asks of an Ethereum node (`createViemNode` over JSON-RPC; a synthetic one in
 * the benchmark). Block numbers are plain numbers (safe up to 2^53).
 */
export interface EvmNode {
  chainId(): Promise<number>;
  latestBlockNumber(): Promise<number>;
  /** The node's `finalized` block number, or null when the node has none. */
  finalizedBlockNumber(): Promise<number | null>;
  /** The hash of canonical block `number`, or null past the tip. */
  blockHash(number: number): Promise<string | null>;
  /** Canonical block `number` with its transfers, or null past the tip. */
  readBlock(number: number): Promise<EvmBlock | null>;
  /** `decimals()` of an ERC-20 contract. */
  tokenDecimals(token: string): Promise<number>;
  /** Timestamp (seconds since the epoch) of canonical block `number`, or null past the tip; the back office's lag. */
  blockTimestamp?(number: number): Promise<number | null>;
}

/** What the watcher needs of the wallet (`WalletService`); a narrow port for the tests and the bench. */
export interface ChainWallet {
  recordDepositInTx(tx: Tx, input: ObservedDeposit): Promise<RecordedDeposit>;
  /** `recordDepositInTx` for a block's transfers at once (distinct keys), results in input order. */
  recordDepositsInTx(tx: Tx, inputs: readonly ObservedDeposit[]): Promise<RecordedDeposit[]>;
  /**
   * Raise PENDING deposits' confirmations and credit (or freeze) those due, set-based; those no longer
   * PENDING after it, in input order (`wallet.deposit-batch.ts` `confirmDepositsInTx`).
   */
  confirmDepositsInTx(tx: Tx, items: readonly PendingConfirmation[]): Promise<RecordedDeposit[]>;
  notifyDepositCredited(recorded: Pick<RecordedDeposit, 'userId' | 'coinCode' | 'amount'>): Promise<void>;
  /** `notifyDepositCredited` for a block's credits at once (a few statements, one message each); never throws. */
  notifyDepositsCredited(recorded: readonly Pick<RecordedDeposit, 'userId' | 'coinCode' | 'amount'>[]): Promise<void>;
  dropPendingDepositInTx(tx: Tx, depositId: number): Promise<boolean>;
  /** Deposit addresses on `chain` with id above `afterId`, in id order, at most `limit`. */
  depositAddressesAfter(
    chain: 'evm',
    afterId: number,
    limit: number,
  ): Promise<{ id: number; userId: string; address: string }[]>;
  /** Status of deposit `depositId` ('PENDING' | 'CREDITED' | 'FROZEN'), or undefined. */
  depositStatusInTx(tx: Tx, depositId: number): Promise<string | undefined>;
}

/** A coin the watcher credits: where it moves, its on-chain decimals, and the rules. */
export interface WatchedCoin {
  coin: AssetCode;
  /** 'Ethereum' (ETH) or 'ERC20'. */
  network: string;
  /** On-chain decimals (18 for ETH, the contract's `decimals()`). */
  decimals: number;
  /** Confirmations before it is credited. */
  confirmationsRequired: number;
  /** Smallest amount credited, in minor units of `coin`; smaller ones are held for review. */
  minimumMinor: bigint;
}

/** Outcome counters of one poll (logs, tests, the bench). */
export interface PollReport {
  blocksProcessed: number;
  depositsFound: number;
  depositsCredited: number;
  reorgs: number;
  tip: number;
}
