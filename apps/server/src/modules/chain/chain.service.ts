import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { chainDeposits, chainReorgAlarms } from './chain.tables.ts';
import type { DepositSource, PollReport } from './chain.types.ts';
import type { EvmWatcher } from './chain.watcher.ts';
import type { WithdrawalSender } from './chain.withdrawals.ts';
import type { ChainWithdrawalReads } from './chain.withdrawals-read.ts';

/** A back-office item: a chain deposit held for finance (below minimum, unknown token, dust). */
export type ChainReviewItem = typeof chainDeposits.$inferSelect;
/** A back-office item: a credited deposit orphaned by a reorganisation, its amount held. */
export type ChainReorgAlarmRow = typeof chainReorgAlarms.$inferSelect;

/**
 * Custody webhook as a deposit source: pushed by the provider to `POST /api/custody/webhook`,
 * so nothing to start. It reports Bitcoin and TRC20 deposits, and the EVM networks too when no
 * chain watcher runs (EVM_RPC_URL unset).
 */
export function custodyWebhookSource(networks: readonly string[]): DepositSource {
  return { name: 'custody-webhook', networks, start: async () => {}, stop: async () => {} };
}

/**
 * The chain module's facade: the deposit sources in use, the EVM watcher when EVM_RPC_URL is
 * set, and the back-office lists (deposits held for review, reorganisation alarms).
 */
export interface ChainService {
  /** The EVM watcher, or null when EVM deposits come by the custody webhook. */
  readonly watcher: EvmWatcher | null;
  readonly sources: readonly DepositSource[];
  /**
   * The hot-wallet sender of EVM withdrawals and its reads (docs/chain.md "Withdrawals"), or null
   * when EVM_RPC_URL is unset (custody sends withdrawals). `withdrawals.sender.runOnce()` runs one
   * pass whether or not this process leads (tests, CLIs).
   */
  readonly withdrawals: { sender: WithdrawalSender; reads: ChainWithdrawalReads } | null;
  /**
   * One poll of the EVM watcher now, whether or not this process leads (tests, CLIs).
   * @throws Error when no watcher is configured.
   */
  pollOnce(): Promise<PollReport>;
  /** Chain deposits held for review (status REVIEW), newest first, at most `limit`. */
  listReviewItems(limit?: number): Promise<ChainReviewItem[]>;
  /** Reorganisation alarms, newest first, optionally of one status. */
  listReorgAlarms(status?: 'open' | 'resolved'): Promise<ChainReorgAlarmRow[]>;
}

/** Build the facade over `db`, the sources and the withdrawal sender. */
export function createChainService(
  db: Db,
  watcher: EvmWatcher | null,
  sources: DepositSource[],
  withdrawals: ChainService['withdrawals'] = null,
): ChainService {
  return {
    watcher,
    sources,
    withdrawals,
    pollOnce: async () => {
      if (!watcher) throw new Error('no chain watcher: EVM_RPC_URL is not set');
      return watcher.pollOnce();
    },
    listReviewItems: async (limit = 100) =>
      db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.status, 'REVIEW'))
        .orderBy(desc(chainDeposits.id))
        .limit(limit),
    listReorgAlarms: async (status) =>
      db
        .select()
        .from(chainReorgAlarms)
        .where(status ? and(eq(chainReorgAlarms.status, status)) : undefined)
        .orderBy(desc(chainReorgAlarms.id)),
  };
}
