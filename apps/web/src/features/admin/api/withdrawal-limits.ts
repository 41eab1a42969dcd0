import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `GET admin/withdrawal-limits`: USD per 24 hours and per month, per identity level. */
export function listWithdrawalLimits() {
  return adminFetch(opsWalletEndpoints.listWithdrawalLimits, {});
}

/** `PUT admin/withdrawal-limits/:level`: USD decimal strings (at most 2 decimals), audited. */
export async function setWithdrawalLimit(input: { level: number; usdPer24h: string; usdPerMonth: string }) {
  const { level, usdPer24h, usdPerMonth } = input;
  return unwrap(
    await adminCall(opsWalletEndpoints.setWithdrawalLimit, { params: { level }, body: { usdPer24h, usdPerMonth } }),
  );
}

/** The limits table of the settings page. */
export function useWithdrawalLimits() {
  return useQuery({ queryKey: adminKeys.limits, queryFn: listWithdrawalLimits });
}

/** Edit mutation of the settings page. */
export function useSetWithdrawalLimit() {
  return useAdminMutation(setWithdrawalLimit, [adminKeys.limits]);
}
