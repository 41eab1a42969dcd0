import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';

/** `GET admin/dashboard`: queues against their SLA, today's flows, the ledger check, liabilities. */
export function getDashboard() {
  return adminFetch(backOfficeUserEndpoints.dashboard, {});
}

/** The dashboard, refreshed every minute while shown. */
export function useDashboard() {
  return useQuery({ queryKey: adminKeys.dashboard, queryFn: getDashboard, refetchInterval: 60_000 });
}
