import { type AssetCode, parseAmountMinor } from '@meridian/contracts/money';
import type { Page } from '@meridian/contracts/pagination';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { callOf, gasLimitOf, signAndSend } from './chain.broadcast.ts';
import { currentFees } from './chain.fees.ts';
import { type HotWalletCoinBalance, watchHotWallet } from './chain.hot-wallet.ts';
import type { LeaderLock } from './chain.leader.ts';
import { ensureHotWallet, type HotWalletRow, recordIntentInTx } from './chain.nonces.ts';
import { chainWithdrawals } from './chain.tables.ts';
import { type SenderWallet, type TrackingContext, type TrackReport, trackSent } from './chain.tracking.ts';

/** A processing withdrawal as the wallet lists it for operators (the fields the sender reads). */
export interface QueuedWithdrawal {
  id: string;
  userId: string;
  coinCode: string;
  network: string;
  address: string;
  /** Decimal string in the coin's precision. */
  amount: string;
  type: string;
}

/** What the sender needs of the wallet: its operator list and transitions. */
export interface WithdrawalSenderWallet extends SenderWallet {
  listForOperators(query: { pageID: number; pageSize: number; status?: number }): Promise<Page<QueuedWithdrawal>>;
}

/** What `createWithdrawalSender` needs; `TrackingContext` without the wallet's narrower port. */
export interface WithdrawalSenderOptions extends Omit<TrackingContext, 'wallet'> {
  wallet: WithdrawalSenderWallet;
  /** ERC-20 contracts by coin code (EVM_TOKENS). */
  tokens: Readonly<Record<string, string>>;
  /** EVM_HOT_WALLET_MIN / _MAX: decimal amounts by coin code. */
  hotWalletMin: Readonly<Record<string, string>>;
  hotWalletMax: Readonly<Record<string, string>>;
  /** Only the holder sends (`start`'s loop); `runOnce` does not ask. Shared with the deposit watcher. */
  leader: LeaderLock;
  pollIntervalMs: number;
  onHotWalletAlert?: (kind: 'low' | 'excess', coin: string) => void;
}

/** What one pass did (tests, logs). */
export interface SendReport extends TrackReport {
  /** Withdrawals given a nonce and sent in this pass. */
  sent: number;
  /** Processing withdrawals left unsent: hot wallet low or short, fees over the cap, estimate failed. */
  queued: number;
}

/** The hot-wallet sender of EVM withdrawals (docs/chain.md "Withdrawals"). */
export interface WithdrawalSender {
  /** The hot wallet row (created on first use). */
  hotWallet(): Promise<HotWalletRow>;
  /** One pass: watch the balances, send what is queued, follow what was sent. */
  runOnce(): Promise<SendReport>;
  /** Watch the balances and send the queued withdrawals (no tracking). */
  sendQueued(): Promise<Pick<SendReport, 'sent' | 'queued'>>;
  /** Follow the sent ones (settle, fail, replace). */
  track(): Promise<TrackReport>;
  start(): Promise<void>;
  /** Stop the loop; waits for a pass in flight (the leader is released by the watcher's stop). */
  stop(): Promise<void>;
}

const ETH_WEI_PER_MINOR = 10n ** 10n;
/** Most processing withdrawals read per pass. */
const QUEUE_PAGE_SIZE = 500;

/** The on-chain amount of a withdrawal: ETH has 8 decimals in the ledger and 18 on chain; USDT and USDC 6 and 6. */
function amountRawOf(coin: AssetCode, amount: string): bigint {
  const minor = parseAmountMinor(amount, coin);
  return coin === 'ETH' ? minor * ETH_WEI_PER_MINOR : minor;
}

/**
 * Build the sender: an approved (processing, status 1) OUTER withdrawal of ETH on Ethereum or of a
 * configured token on ERC20 gets the hot wallet's next nonce with its fees recorded (one
 * transaction, `recordIntentInTx`), is signed and sent (`signAndSend`), then followed to N
 * confirmations (`trackSent`). Loops every `pollIntervalMs` while this process leads the chain.
 */
export function createWithdrawalSender(options: WithdrawalSenderOptions): WithdrawalSender {
  let hotWalletRow: HotWalletRow | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> | undefined;
  let isStopped = true;
  const context: TrackingContext = { ...options };

  const hotWallet = async () => {
    hotWalletRow ??= await ensureHotWallet(options.db, options.chainId, options.signer);
    return hotWalletRow;
  };

  const sendQueued = async () => {
    const wallet = await hotWallet();
    const balances = await watchHotWallet({
      db: options.db,
      client: options.client,
      hotWalletId: wallet.id,
      address: options.signer.address,
      tokens: options.tokens,
      min: options.hotWalletMin,
      max: options.hotWalletMax,
      now: options.now,
      log: options.log,
      ...(options.onHotWalletAlert && { onAlert: options.onHotWalletAlert }),
    });
    await resendSigned(wallet);
    return sendNew(wallet, balances);
  };

  /** Intents recorded by a process that died before signing: sent now with their recorded fees. */
  const resendSigned = async (wallet: HotWalletRow) => {
    const signed = await options.db
      .select()
      .from(chainWithdrawals)
      .where(and(eq(chainWithdrawals.hotWalletId, wallet.id), eq(chainWithdrawals.status, 'SIGNED')))
      .orderBy(asc(chainWithdrawals.nonce));
    for (const row of signed) await signAndSend(context, row, row);
  };

  const sendNew = async (wallet: HotWalletRow, balances: HotWalletCoinBalance[]) => {
    const result = { sent: 0, queued: 0 };
    const queue = await sendable();
    if (queue.length === 0) return result;
    const fees = await currentFees(options.client, options.maxFeeWei);
    const remaining = new Map(balances.map((balance) => [balance.coin as string, balance.raw]));
    const isLow = new Set(balances.filter((balance) => balance.isLow).map((balance) => balance.coin as string));
    for (const withdrawal of queue) {
      const coin = withdrawal.coinCode as AssetCode;
      const amountRaw = amountRawOf(coin, withdrawal.amount);
      const tokenAddress = coin === 'ETH' ? null : getAddress(options.tokens[coin]!);
      const toAddress = getAddress(withdrawal.address);
      const call = callOf({ tokenAddress, toAddress, amountRaw });
      const gasLimit = fees && !isLow.has('ETH') && !isLow.has(coin) ? await estimate(withdrawal, call) : undefined;
      const ethNeeded = (coin === 'ETH' ? amountRaw : 0n) + (gasLimit ?? 0n) * (fees?.maxFeePerGasWei ?? 0n);
      const coinNeeded = coin === 'ETH' ? ethNeeded : amountRaw;
      if (!fees || gasLimit === undefined || ethNeeded > remaining.get('ETH')! || coinNeeded > remaining.get(coin)!) {
        result.queued += 1;
        continue;
      }
      const intent = {
        withdrawalId: Number(withdrawal.id),
        userId: withdrawal.userId,
        chainId: options.chainId,
        coinCode: coin,
      };
      const { row, isNew } = await options.db.transaction((tx) =>
        recordIntentInTx(
          tx,
          wallet.id,
          { ...intent, tokenAddress, toAddress, amountRaw, gasLimit, fees },
          options.now(),
        ),
      );
      if (!isNew) continue;
      remaining.set('ETH', remaining.get('ETH')! - ethNeeded);
      if (coin !== 'ETH') remaining.set(coin, remaining.get(coin)! - amountRaw);
      await signAndSend(context, row, fees);
      result.sent += 1;
    }
    return result;
  };

  /** Processing OUTER withdrawals on the EVM networks without a chain withdrawal yet, oldest first. */
  const sendable = async (): Promise<QueuedWithdrawal[]> => {
    const page = await options.wallet.listForOperators({ pageID: 1, pageSize: QUEUE_PAGE_SIZE, status: 1 });
    const onChain = page.list
      .filter(
        (w) =>
          w.type === 'OUTER' &&
          ((w.network === 'Ethereum' && w.coinCode === 'ETH') ||
            (w.network === 'ERC20' && options.tokens[w.coinCode] !== undefined)),
      )
      .sort((a, b) => Number(a.id) - Number(b.id));
    if (onChain.length === 0) return [];
    const ids = onChain.map((w) => Number(w.id));
    const taken = await options.db
      .select({ withdrawalId: chainWithdrawals.withdrawalId })
      .from(chainWithdrawals)
      .where(inArray(chainWithdrawals.withdrawalId, ids));
    const takenIds = new Set(taken.map((row) => row.withdrawalId));
    return onChain.filter((w) => !takenIds.has(Number(w.id)));
  };

  const estimate = async (withdrawal: QueuedWithdrawal, call: ReturnType<typeof callOf>) => {
    try {
      return await gasLimitOf(options.client, options.signer.address as Address, call);
    } catch (error) {
      options.log.warn({ err: error, withdrawalId: withdrawal.id }, 'withdrawal gas estimate failed: it stays queued');
      return undefined;
    }
  };

  const runOnce = async (): Promise<SendReport> => {
    const sent = await sendQueued();
    const tracked = await trackSent(context);
    return { ...sent, ...tracked };
  };

  const tick = async () => {
    try {
      if (await options.leader.acquire()) await runOnce();
    } catch (error) {
      options.log.error({ err: error }, 'chain withdrawal sender pass failed');
    }
  };

  const schedule = (delayMs: number) => {
    if (isStopped) return;
    timer = setTimeout(() => {
      inFlight = tick().finally(() => schedule(options.pollIntervalMs));
    }, delayMs);
    timer.unref?.();
  };

  return {
    hotWallet,
    runOnce,
    sendQueued,
    track: () => trackSent(context),
    start: async () => {
      isStopped = false;
      schedule(0);
    },
    stop: async () => {
      isStopped = true;
      if (timer) clearTimeout(timer);
      await inFlight?.catch(() => undefined);
    },
  };
}

/**
 * A sender whose setup (the node's chain id, the hot wallet's signer and row) happens at first
 * use: `npm start` and the tests build the app without waiting on the node.
 */
export function lazyWithdrawalSender(build: () => Promise<WithdrawalSender>): WithdrawalSender {
  let built: Promise<WithdrawalSender> | undefined;
  let isStarted = false;
  const sender = () => (built ??= build());
  return {
    hotWallet: async () => (await sender()).hotWallet(),
    runOnce: async () => (await sender()).runOnce(),
    sendQueued: async () => (await sender()).sendQueued(),
    track: async () => (await sender()).track(),
    start: async () => {
      isStarted = true;
      await (await sender()).start();
    },
    stop: async () => {
      if (isStarted) await (await sender()).stop();
    },
  };
}
