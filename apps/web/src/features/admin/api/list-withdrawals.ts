import { adminEndpoints } from '@meridian/contracts/admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type WithdrawalQuery = z.input<typeof adminEndpoints.listWithdrawals.query>;

/** `GET admin/withdrawals?status=`: a page of withdrawals, optionally in one state. */
export function listWithdrawals(query: WithdrawalQuery) {
  return adminFetch(adminEndpoints.listWithdrawals, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useWithdrawals(query: WithdrawalQuery) {
  return useQuery({
    queryKey: [...adminKeys.withdrawals, 'list', query],
    queryFn: () => listWithdrawals(query),
    placeholderData: keepPreviousData,
  });
}
