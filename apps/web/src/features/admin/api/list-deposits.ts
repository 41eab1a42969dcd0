import { backOfficeDepositEndpoints } from '@meridian/contracts/back-office';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type DepositQuery = z.input<typeof backOfficeDepositEndpoints.listDeposits.query>;

/** `GET admin/deposits?status=&coin=`: pending, credited and frozen deposits, newest first. */
export function listDeposits(query: DepositQuery) {
  return adminFetch(backOfficeDepositEndpoints.listDeposits, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useDeposits(query: DepositQuery) {
  return useQuery({
    queryKey: [...adminKeys.deposits, 'list', query],
    queryFn: () => listDeposits(query),
    placeholderData: keepPreviousData,
  });
}
