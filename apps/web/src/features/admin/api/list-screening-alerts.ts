import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type ScreeningAlertQuery = z.input<typeof opsWalletEndpoints.listScreeningAlerts.query>;

/** `GET admin/screening/alerts?status=`: sanctions-list hits, oldest first. */
export function listScreeningAlerts(query: ScreeningAlertQuery) {
  return adminFetch(opsWalletEndpoints.listScreeningAlerts, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useScreeningAlerts(query: ScreeningAlertQuery) {
  return useQuery({
    queryKey: [...adminKeys.screening, 'list', query],
    queryFn: () => listScreeningAlerts(query),
    placeholderData: keepPreviousData,
  });
}
