import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';

/** `GET admin/session`: the signed-in operator (a 101 sends the page to the sign-in). */
export function getOperatorSession() {
  return adminFetch(backOfficeAccessEndpoints.session, {});
}

/** The operator session of the back-office layout; not retried, as a refusal means "sign in". */
export function useOperatorSession() {
  return useQuery({ queryKey: adminKeys.session, queryFn: getOperatorSession, retry: false, staleTime: 60_000 });
}
