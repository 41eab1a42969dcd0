import { fundEndpoints } from '@meridian/contracts/funds';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { fundKeys } from './fund-keys.ts';

/** `GET fund/v2/earnings?days=` (`fundEndpoints.earnings`): interest accrued per Hong Kong day, up to yesterday. */
export async function getFundEarnings(days: number, signal?: AbortSignal) {
  return unwrap(await callEndpoint(fundEndpoints.earnings, { query: { days } }, { signal }));
}

/** The daily earnings of the last `days` days (the fund account's chart). */
export function useFundEarnings(days: number) {
  const userId = useUserId();
  return useQuery({
    queryKey: fundKeys.earnings(days),
    enabled: userId !== null,
    queryFn: ({ signal }) => getFundEarnings(days, signal),
    retry: false,
  });
}
