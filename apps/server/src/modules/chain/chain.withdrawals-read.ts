import type {
  ChainWithdrawal,
  ChainWithdrawalQuery,
  HotWallet,
  WithdrawalChain,
} from '@meridian/contracts/chain-withdrawals';
import { toDecimalString } from '@meridian/contracts/assets';
import { type AssetCode, parseAmountMinor } from '@meridian/contracts/money';
import type { Page } from '@meridian/contracts/pagination';
import Decimal from 'decimal.js';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { chainHotWalletAlerts, chainHotWallets, chainWithdrawals } from './chain.tables.ts';

/** The back office's and the user's reads of the chain withdrawals. */
export interface ChainWithdrawalReads {
  /** Chain withdrawals, newest first, optionally of one status. */
  list(query: ChainWithdrawalQuery): Promise<Page<ChainWithdrawal>>;
  /** The hot wallet (null fields before it exists) and its balance alerts, open ones first. */
  hotWallet(): Promise<HotWallet>;
  /**
   * The chain transaction of withdrawal `withdrawalId` of `userId`: every field null when it is not
   * the user's or not sent by the hot wallet (yet), so the two cannot be told apart.
   */
  ofUser(userId: string, withdrawalId: number): Promise<WithdrawalChain>;
}

/**
 * The link of a transaction on the block explorer: `{hash}` in `template` replaced by the hash,
 * else the hash appended (EVM_EXPLORER_TX_URL). Null without a hash.
 */
export function explorerUrlOf(template: string, txHash: string | null): string | null {
  if (txHash === null) return null;
  return template.includes('{hash}') ? template.replace('{hash}', txHash) : `${template}${txHash}`;
}

const gweiOf = (wei: bigint) => new Decimal(wei.toString()).div(1e9).toFixed();

/** EVM_EXPLORER_TX_URL's default. */
export const DEFAULT_EXPLORER_TX_URL = 'https://etherscan.io/tx/{hash}';

/** What the hot wallet's read shows of its balances: the node's answer and the thresholds. */
export interface HotWalletBalanceSource {
  /** Per coin, ETH first, the balance of `address` in minor units now, null when the node did not answer. */
  read(address: string): Promise<{ coin: AssetCode; minor: bigint | null }[]>;
  /** EVM_HOT_WALLET_MIN / _MAX: decimal amounts by coin code. */
  min: Readonly<Record<string, string>>;
  max: Readonly<Record<string, string>>;
}

/** A configured threshold of `coin` as a decimal string of its precision, or null. */
function thresholdOf(limits: Readonly<Record<string, string>>, coin: AssetCode): string | null {
  const limit = limits[coin];
  return limit === undefined ? null : toDecimalString(parseAmountMinor(limit, coin), coin);
}

/** The balances of the hot wallet at `address` (none without a source or an address) with their thresholds. */
async function balancesOf(source: HotWalletBalanceSource | undefined, address: string | null) {
  if (!source || address === null) return [];
  return (await source.read(address)).map(({ coin, minor }) => ({
    coinCode: coin,
    balance: minor === null ? null : toDecimalString(minor, coin),
    min: thresholdOf(source.min, coin),
    max: thresholdOf(source.max, coin),
  }));
}

/**
 * Reads over `db` for chain `chainId`, links made with `explorerTxUrl`, the hot wallet's balances
 * from `balances` (none without it: no node).
 */
export function createChainWithdrawalReads(
  db: Db,
  chainIdOf: () => Promise<number>,
  explorerTxUrl: string,
  balances?: HotWalletBalanceSource,
): ChainWithdrawalReads {
  const toContent = (row: typeof chainWithdrawals.$inferSelect): ChainWithdrawal => ({
    id: String(row.id),
    withdrawalId: String(row.withdrawalId),
    nonce: row.nonce,
    coinCode: row.coinCode,
    tokenAddress: row.tokenAddress,
    toAddress: row.toAddress,
    amountRaw: row.amountRaw.toString(),
    gasLimit: row.gasLimit.toString(),
    maxFeePerGasGwei: gweiOf(row.maxFeePerGasWei),
    maxPriorityFeePerGasGwei: gweiOf(row.maxPriorityFeePerGasWei),
    status: row.status as ChainWithdrawal['status'],
    txHash: row.txHash,
    explorerUrl: explorerUrlOf(explorerTxUrl, row.txHash),
    attempts: row.attempts,
    minedBlock: row.minedBlock,
    failureReason: row.failureReason,
    createTime: row.createdAt.toISOString(),
    broadcastTime: row.broadcastAt?.toISOString() ?? null,
    updateTime: row.updatedAt?.toISOString() ?? null,
  });
  return {
    list: async (query) => {
      const where = query.status ? eq(chainWithdrawals.status, query.status) : undefined;
      const [total] = await db.select({ n: count() }).from(chainWithdrawals).where(where);
      const rows = await db
        .select()
        .from(chainWithdrawals)
        .where(where)
        .orderBy(desc(chainWithdrawals.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map(toContent),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: Math.ceil(totalCount / query.pageSize),
        totalCount,
      };
    },
    hotWallet: async () => {
      const [wallet] = await db
        .select()
        .from(chainHotWallets)
        .where(eq(chainHotWallets.chainId, await chainIdOf()));
      if (!wallet) return { address: null, nextNonce: null, balances: [], alerts: [] };
      const alerts = await db
        .select()
        .from(chainHotWalletAlerts)
        .where(eq(chainHotWalletAlerts.hotWalletId, wallet.id))
        .orderBy(asc(chainHotWalletAlerts.status), desc(chainHotWalletAlerts.id))
        .limit(100);
      return {
        address: wallet.address,
        nextNonce: wallet.nextNonce,
        balances: await balancesOf(balances, wallet.address),
        alerts: alerts.map((alert) => ({
          id: String(alert.id),
          coinCode: alert.coinCode,
          kind: alert.kind as 'low' | 'excess',
          balance: toDecimalString(alert.balanceMinor, alert.coinCode as AssetCode),
          limit: toDecimalString(alert.limitMinor, alert.coinCode as AssetCode),
          status: alert.status as 'open' | 'resolved',
          createTime: alert.createdAt.toISOString(),
          resolvedTime: alert.resolvedAt?.toISOString() ?? null,
        })),
      };
    },
    ofUser: async (userId, withdrawalId) => {
      const [row] = await db
        .select()
        .from(chainWithdrawals)
        .where(and(eq(chainWithdrawals.withdrawalId, withdrawalId), eq(chainWithdrawals.userId, userId)));
      if (!row) return { status: null, txHash: null, explorerUrl: null };
      return {
        status: row.status as WithdrawalChain['status'],
        txHash: row.txHash,
        explorerUrl: explorerUrlOf(explorerTxUrl, row.txHash),
      };
    },
  };
}
