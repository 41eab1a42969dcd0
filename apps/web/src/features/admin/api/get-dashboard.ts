import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';

/** `GET admin/dashboard`: queues against their SLA, today's flows, the ledger check, liabilities. */
export function getDashboard() {
  return adminFetch(backOfficeUserEndpoints.dashboard, {});
}

/**
 * The dashboard. Not polled: every call restarts the server's 30-minute idle clock, so a poll would
 * keep an unattended session alive forever; the page has a Refresh button instead.
 */
export function useDashboard() {
  return useQuery({ queryKey: adminKeys.dashboard, queryFn: getDashboard });
}
