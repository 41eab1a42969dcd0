import { chainWithdrawalEndpoints, type ChainWithdrawalStatus } from '@meridian/contracts/chain-withdrawals';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';
import { CHAIN_STATE_POLL_MS } from './chain-ops.ts';

/** The page of the hot wallet's withdrawals to show: 1-based page, its size, optionally one status. */
export interface ChainWithdrawalsQuery {
  pageID: number;
  pageSize: number;
  status?: ChainWithdrawalStatus | undefined;
}

/**
 * `GET admin/chain/withdrawals`: withdrawals sent from the hot wallet (nonce, fees in gwei, gas
 * limit, attempts, status, hash with its explorer link), newest first; polled with the chain state,
 * the previous page kept while the next loads.
 */
export function useChainWithdrawals(query: ChainWithdrawalsQuery) {
  const { status, ...page } = query;
  return useQuery({
    queryKey: [...adminKeys.chain, 'withdrawals', query],
    queryFn: () =>
      adminFetch(chainWithdrawalEndpoints.listChainWithdrawals, { query: { ...page, ...(status && { status }) } }),
    placeholderData: keepPreviousData,
    refetchInterval: CHAIN_STATE_POLL_MS,
  });
}

/** `GET admin/chain/hot-wallet`: address, next nonce, balance per coin against its thresholds, balance alerts; polled. */
export function useHotWallet() {
  return useQuery({
    queryKey: [...adminKeys.chain, 'hot-wallet'],
    queryFn: () => adminFetch(chainWithdrawalEndpoints.hotWallet, {}),
    refetchInterval: CHAIN_STATE_POLL_MS,
  });
}
