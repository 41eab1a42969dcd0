import { randomBytes } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import { type Address, createPublicClient, http } from 'viem';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import type { AssetCode } from '@meridian/contracts/money';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { readOrCreateSecret } from '../../platform/security/secrets.ts';
import type { MarketPrices } from '../market/market.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { inProcessLeader, type LeaderLock, postgresLeader } from './chain.leader.ts';
import { gweiToWei } from './chain.fees.ts';
import { readHotWalletBalances } from './chain.hot-wallet.ts';
import { createViemNode } from './chain.node.ts';
import { ensureHotWallet, openHotWalletSigner } from './chain.nonces.ts';
import { createChainOps } from './chain.ops.ts';
import { chainRoutes } from './chain.routes.ts';
import { type ChainService, createChainService, custodyWebhookSource } from './chain.service.ts';
import type { EvmNode } from './chain.types.ts';
import type { HotWalletSigner } from './chain.signer.ts';
import { EvmWatcher, type WatcherFaultPoint } from './chain.watcher.ts';
import { createWithdrawalSender, lazyWithdrawalSender, type WithdrawalSender } from './chain.withdrawals.ts';
import { createChainWithdrawalReads, DEFAULT_EXPLORER_TX_URL } from './chain.withdrawals-read.ts';

/** What `buildApp` hands the chain module. */
export interface ChainModuleDeps {
  config: Config;
  database: Database;
  clock: Clock;
  wallet: WalletService;
  /** USD per one coin (the market's prices): the back office's USD values and the large-item rule. */
  prices?: MarketPrices;
  /** The app's Prometheus registry: the watcher's block gauge and reorganisation alarm counter. */
  metrics?: Registry;
  log: {
    info(detail: object, message: string): void;
    warn(detail: object, message: string): void;
    error(detail: object, message: string): void;
  };
  /** Tests: another node than EVM_RPC_URL's JSON-RPC (a synthetic one), and a fault point. */
  node?: EvmNode;
  faultPoint?: (point: WatcherFaultPoint, blockNumber: number) => void;
  /**
   * The hot wallet's signer when a KMS holds the key (`HotWalletSigner`, a viem custom account);
   * default: a key sealed with CHAIN_VAULT_KEY in `chain_hot_wallets`.
   */
  signer?: HotWalletSigner;
}

/** Valued at 1 USD when no price source answers (as the wallet does). */
const STABLECOINS: readonly AssetCode[] = ['USDT', 'USDC', 'USDE'];

/** USD per one `coin` from the market's prices (as the wallet values balances), or null when it has none. */
async function marketPrice(prices: MarketPrices | undefined, coin: AssetCode): Promise<string | null> {
  if (!prices || !(MARKET_COIN_CODES as readonly string[]).includes(coin)) return null;
  return (await prices.usdPrice(coin as MarketCoinCode).catch(() => null))?.priceUsd.toFixed() ?? null;
}

/** The networks the custody webhook keeps whatever the configuration. */
const CUSTODY_NETWORKS = ['Bitcoin', 'TRC20', 'Gnosis'] as const;

/**
 * Wire the chain module (docs/chain.md). Without EVM_RPC_URL it only names the custody webhook as
 * the deposit source of every network (as before: `npm start` needs no node). With it, an
 * `EvmWatcher` follows the node for ETH, USDT and USDC on Ethereum: started when the app is ready
 * if JOBS_ENABLED (the scheduler's switch), polling every EVM_POLL_INTERVAL_MS while this process
 * leads — on PostgreSQL the holder of a session-level advisory lock on its own connection, on
 * PGlite the one process — and stopped before the app closes. Its back-office routes
 * (`/api/admin/chain/…`, `chain.routes.ts`) are there either way: without a node they show the
 * watcher off and the items already recorded.
 */
export function createChainModule(deps: ChainModuleDeps): AppModule<ChainService> {
  const { config } = deps;
  const evm = config.evm;
  const opsFor = (node: EvmNode | null) =>
    createChainOps({
      db: deps.database.db,
      node,
      wallet: deps.wallet,
      usdPerCoin: async (coin) => (await marketPrice(deps.prices, coin)) ?? (STABLECOINS.includes(coin) ? '1' : null),
      largeUsd: config.wallet.largeWithdrawalUsd,
      now: () => deps.clock.now(),
    });
  if (!evm) {
    const service = createChainService(deps.database.db, null, [
      custodyWebhookSource([...CUSTODY_NETWORKS, 'Ethereum', 'ERC20']),
    ]);
    // No hot wallet without a node: the user's link answers nulls, the back office an empty list.
    const reads = createChainWithdrawalReads(deps.database.db, async () => 0, DEFAULT_EXPLORER_TX_URL);
    return { service, routes: chainRoutes(opsFor(null), reads), jobs: [] };
  }
  const node = deps.node ?? createViemNode(evm.rpcUrl);
  // The leader's session lock needs a session: the direct connection, never through a pooler.
  const postgresUrl = deps.database.directUrl;
  const leader: LeaderLock = postgresUrl
    ? postgresLeader(postgresUrl, () => node.chainId(), deps.log)
    : inProcessLeader();
  const reorgAlarms = deps.metrics
    ? new Counter({
        name: 'chain_reorg_credited_deposits_total',
        help: 'Credited deposits whose block was orphaned by a chain reorganisation (held for finance)',
        registers: [deps.metrics],
      })
    : undefined;
  const lastBlock = deps.metrics
    ? new Gauge({
        name: 'chain_watcher_block',
        help: 'Last block processed by the EVM watcher',
        registers: [deps.metrics],
      })
    : undefined;
  const coins = {
    confirmationsFor: async (coin: AssetCode, network: string) =>
      evm.confirmations[coin] ??
      (await deps.wallet.listNetworks(coin)).find((net) => net.network === network)?.confirmationsRequired,
    minimumOf: (coin: AssetCode) => evm.depositMinimums[coin] ?? '0',
    tokens: evm.tokens,
  };
  // A withdrawal is settled at the confirmations a deposit of its coin needs (12 on Ethereum by default).
  const withdrawalConfirmations = {
    confirmationsFor: async (coin: string) =>
      (await coins.confirmationsFor(coin as AssetCode, coin === 'ETH' ? 'Ethereum' : 'ERC20')) ?? 12,
  };
  const watcher = new EvmWatcher({
    db: deps.database.db,
    node,
    wallet: deps.wallet,
    coins,
    leader,
    pollIntervalMs: evm.pollIntervalMs,
    blocksPerPoll: evm.blocksPerPoll,
    startBlock: evm.startBlock,
    now: () => deps.clock.now(),
    log: deps.log,
    onReorgAlarm: () => reorgAlarms?.inc(),
    onBlock: (blockNumber) => lastBlock?.set(blockNumber),
    ...(deps.faultPoint && { faultPoint: deps.faultPoint }),
  });
  const sender = createSender(deps, leader, (coin) => withdrawalConfirmations.confirmationsFor(coin));
  const readClient = createPublicClient({ transport: http(evm.rpcUrl, { timeout: 10_000, retryCount: 0 }) });
  const reads = createChainWithdrawalReads(deps.database.db, () => watcher.chainId(), evm.withdrawals.explorerTxUrl, {
    read: (address) => readHotWalletBalances(readClient, address as Address, evm.tokens),
    min: evm.withdrawals.hotWalletMin,
    max: evm.withdrawals.hotWalletMax,
  });
  const service = createChainService(deps.database.db, watcher, [watcher, custodyWebhookSource(CUSTODY_NETWORKS)], {
    sender,
    reads,
  });
  return {
    service,
    routes: chainRoutes(opsFor(node), reads),
    jobs: [],
    start: async () => {
      if (!config.jobsEnabled) return;
      await watcher.start();
      await sender.start();
    },
    stop: async () => {
      await sender.stop();
      await watcher.stop();
    },
  };
}

/** CHAIN_VAULT_KEY, else generated into DATA_DIR (in memory for a memory database, whose rows die with it). */
function chainVaultKey(config: Config): string {
  const configured = config.evm?.withdrawals.vaultKey;
  if (configured) return configured;
  return config.database.kind === 'memory'
    ? randomBytes(48).toString('base64url')
    : readOrCreateSecret(config.dataDir, 'chain-vault-key');
}

/**
 * The hot-wallet sender of EVM withdrawals (docs/chain.md "Withdrawals"), set up at first use: the
 * node's chain id, then the signer (the KMS one of `deps.signer`, else the sealed key of
 * `chain_hot_wallets`, created on the first run). Sends on the leader only, with the watcher's lock.
 */
function createSender(
  deps: ChainModuleDeps,
  leader: LeaderLock,
  confirmationsFor: (coin: string) => Promise<number>,
): WithdrawalSender {
  const evm = deps.config.evm!;
  const settings = evm.withdrawals;
  const counter = deps.metrics
    ? new Counter({
        name: 'chain_hot_wallet_alerts_total',
        help: 'Hot-wallet balance alerts opened (low: withdrawals queue; excess: move to cold storage)',
        labelNames: ['kind', 'coin'],
        registers: [deps.metrics],
      })
    : undefined;
  return lazyWithdrawalSender(async () => {
    const client = createPublicClient({ transport: http(evm.rpcUrl, { timeout: 10_000, retryCount: 2 }) });
    const chainId = await client.getChainId();
    const signer =
      deps.signer ?? (await openHotWalletSigner(deps.database.db, chainId, chainVaultKey(deps.config))).signer;
    if (deps.signer) await ensureHotWallet(deps.database.db, chainId, deps.signer);
    return createWithdrawalSender({
      db: deps.database.db,
      client,
      signer,
      chainId,
      now: () => deps.clock.now(),
      wallet: deps.wallet,
      confirmationsFor,
      replaceAfterMs: settings.replaceAfterMs,
      maxFeeWei: gweiToWei(settings.maxFeeGwei),
      log: deps.log,
      tokens: evm.tokens,
      hotWalletMin: settings.hotWalletMin,
      hotWalletMax: settings.hotWalletMax,
      leader,
      pollIntervalMs: evm.pollIntervalMs,
      onHotWalletAlert: (kind, coin) => counter?.inc({ kind, coin }),
    });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The chain module's service: deposit sources and the EVM watcher (tests, CLIs). */
    chain: ChainService;
  }
}
