import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type UserSearchQuery = z.input<typeof backOfficeUserEndpoints.searchUsers.query>;

/** `GET admin/users?q=`: a page of users matching email, uid, name or phone. */
export function searchUsers(query: UserSearchQuery) {
  return adminFetch(backOfficeUserEndpoints.searchUsers, { query });
}

/** The users table's page; the previous page stays shown while the next loads. */
export function useSearchUsers(query: UserSearchQuery) {
  return useQuery({
    queryKey: [...adminKeys.users, 'search', query],
    queryFn: () => searchUsers(query),
    placeholderData: keepPreviousData,
  });
}
