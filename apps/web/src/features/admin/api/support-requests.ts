import { type DecideSupportBody, opsSupportEndpoints } from '@meridian/contracts/support';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type SupportRequestQuery = z.input<typeof opsSupportEndpoints.listSupportRequests.query>;

/** `GET admin/support/requests?status=`: support requests, open ones first (oldest first), then decided ones. */
export function listSupportRequests(query: SupportRequestQuery) {
  return adminFetch(opsSupportEndpoints.listSupportRequests, { query });
}

/** The support page's table page for `query`; the previous page stays shown while the next loads. */
export function useSupportRequests(query: SupportRequestQuery) {
  return useQuery({
    queryKey: [...adminKeys.support, 'requests', query],
    queryFn: () => listSupportRequests(query),
    placeholderData: keepPreviousData,
  });
}

/**
 * `POST admin/support/requests/:id/reply`: answer the user (message centre); the request becomes In progress.
 * @throws ApiError 301 once decided; 120 naming `reply`.
 */
export async function replySupportRequest(input: { id: string; reply: string }) {
  return unwrap(
    await adminCall(opsSupportEndpoints.replySupportRequest, {
      params: { id: input.id },
      body: { reply: input.reply },
    }),
  );
}

/**
 * `POST admin/support/requests/:id/decide`: DONE closes the account, REJECTED keeps it; `reply` goes to the user.
 * @throws ApiError 111 while the user still holds funds (the request stays open), 302 for a frozen
 *   or closed account, 301 once decided, 120 naming `reply`.
 */
export async function decideSupportRequest(input: { id: string } & DecideSupportBody) {
  const { id, ...body } = input;
  return unwrap(await adminCall(opsSupportEndpoints.decideSupportRequest, { params: { id }, body }));
}

/** Reply mutation of the support page; refreshes the list. */
export function useReplySupportRequest() {
  return useAdminMutation(replySupportRequest, [adminKeys.support]);
}

/** Decide mutation of the support page; refreshes the list. */
export function useDecideSupportRequest() {
  return useAdminMutation(decideSupportRequest, [adminKeys.support]);
}
