import type { Page } from '@meridian/contracts/pagination';
import type { AddressBookEntry, BalanceContent, DepositAddressContent, WalletCoin, WalletRecord, WithdrawCheckBody, WithdrawCheckContent } from '@meridian/contracts/wallet';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';

/**
 * The wallet calls of spec §7 (`coinlist`, `wallet/*`, `account/balance`) and their TanStack Query
 * hooks. Shapes are the contracts of `@meridian/contracts/wallet`, validated by the server.
 */
export const walletKeys = {
  coins: ['wallet', 'coins'] as const,
  balance: ['wallet', 'balance'] as const,
  address: (coin: string, network: string) => ['wallet', 'address', coin, network] as const,
  records: (filters: RecordFilters) => ['wallet', 'records', filters] as const,
  recordsAll: ['wallet', 'records'] as const,
  addressBook: ['wallet', 'addressbook'] as const,
};

/** Filters of the history pages (spec §3 history filter). */
export interface RecordFilters {
  action: 'deposit' | 'withdraw';
  coin?: string;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  status?: number;
  type?: 'INTERNAL' | 'OUTER';
  pageID: number;
  pageSize: number;
}

export const walletApi = {
  coins: () => apiClient.get<WalletCoin[]>('coinlist'),
  balance: () => apiClient.get<BalanceContent>('wallet/balance'),
  depositAddress: (coin: string, net: string) => apiClient.get<DepositAddressContent>('wallet/address', { params: { coin, net, action: 'deposit' } }),
  records: (filters: RecordFilters) => apiClient.get<Page<WalletRecord>>('wallet/record', { params: { ...filters } }),
  /**
   * The withdrawal's dry run (`POST wallet/withdraw/check`, issue 14 item 10): every check of the
   * withdrawal, nothing changed, no code asked. Silent: the form shows its refusals inline.
   */
  checkWithdrawal: (body: WithdrawCheckBody) => apiClient.post<WithdrawCheckContent>('wallet/withdraw/check', body, { silent: true, apiVersion: '2.0' }),
  cancelWithdrawal: (id: string) => apiClient.post<WalletRecord>(`wallet/withdraw/${id}/cancel`),
  addressBook: () => apiClient.get<AddressBookEntry[]>('wallet/addressbook'),
  deleteAddress: (id: number) => apiClient.delete<null>(`wallet/addressbook/${id}`),
};

/** Enabled coins with their networks (public). */
export function useCoins() {
  return useQuery({ queryKey: walletKeys.coins, queryFn: async () => unwrap(await walletApi.coins()), staleTime: 60_000 });
}

/** The signed-in user's balances valued in USD. */
export function useBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.balance, enabled: userId !== null, queryFn: async () => unwrap(await walletApi.balance()) });
}

/** The deposit address of `coin` on `network` (derived on first request). */
export function useDepositAddress(coin: string, network: string | undefined) {
  const userId = useUserId();
  return useQuery({
    queryKey: walletKeys.address(coin, network ?? ''),
    enabled: userId !== null && network !== undefined,
    queryFn: async () => unwrap(await walletApi.depositAddress(coin, network ?? '')),
    staleTime: Infinity,
  });
}

/** One page of the deposit or withdrawal history. */
export function useRecords(filters: RecordFilters) {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.records(filters), enabled: userId !== null, queryFn: async () => unwrap(await walletApi.records(filters)), placeholderData: keepPreviousData });
}

/** The saved withdrawal addresses. */
export function useAddressBook() {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.addressBook, enabled: userId !== null, queryFn: async () => unwrap(await walletApi.addressBook()) });
}

/** Refetch what a money movement changed: balances and histories. */
export function useInvalidateWallet() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: walletKeys.balance });
    void client.invalidateQueries({ queryKey: walletKeys.recordsAll });
  };
}
