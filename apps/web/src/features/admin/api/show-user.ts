import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import { adminFetch, adminKeys } from './admin-call.ts';

/** `GET admin/users/:userId`: profile, verification, balances, sessions, history, messages, notes. */
export function showUser(userId: string) {
  return adminFetch(backOfficeUserEndpoints.showUser, { params: { userId } });
}

/** One user's page. */
export function useUser(userId: string) {
  return useQuery({ queryKey: adminKeys.user(userId), queryFn: () => showUser(userId) });
}
