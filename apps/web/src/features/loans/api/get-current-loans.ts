import { LOAN_CURRENT_STATUSES, loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { loanKeys } from './loan-keys.ts';

/**
 * The most current loans the loan page lists. A user's current loans are bounded by the per-user
 * maximum and each loan's minimum principal; the page shows the first 50 and links the history.
 */
export const CURRENT_LOANS_SHOWN_MAX = 50;

/** `GET loan/order/list?isCurrent=true` (`loanEndpoints.orderList`): the current orders (statuses 0, 2, 3, 4). */
export async function getCurrentLoans(signal?: AbortSignal) {
  return unwrap(
    await callEndpoint(
      loanEndpoints.orderList,
      { query: { isCurrent: 'true', pageID: 1, pageSize: CURRENT_LOANS_SHOWN_MAX } },
      { signal },
    ),
  );
}

/** The signed-in user's current loans, refreshed with the price (their LTV moves with it). */
export function useCurrentLoans(enabled = true) {
  const userId = useUserId();
  return useQuery({
    queryKey: loanKeys.current,
    enabled: enabled && userId !== null,
    queryFn: ({ signal }) => getCurrentLoans(signal),
    select: (page) => ({ ...page, list: page.list.filter((loan) => LOAN_CURRENT_STATUSES.includes(loan.status)) }),
    refetchInterval: 30_000,
    retry: false,
  });
}
