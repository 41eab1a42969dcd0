import { backOfficeBroadcastEndpoints, type SendBroadcastBody } from '@meridian/contracts/back-office';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `GET admin/broadcasts`: the broadcasts sent, newest first, one page. */
export function listBroadcasts(query: { pageID: number; pageSize: number }) {
  return adminFetch(backOfficeBroadcastEndpoints.listBroadcasts, { query });
}

/** The table's page; the previous page stays shown while the next loads. */
export function useBroadcasts(query: { pageID: number; pageSize: number }) {
  return useQuery({
    queryKey: [...adminKeys.broadcasts, 'list', query],
    queryFn: () => listBroadcasts(query),
    placeholderData: keepPreviousData,
  });
}

/**
 * `POST admin/broadcasts`: send the message to every active user of the segment.
 * @throws ApiError on a refusal (120 names the bad fields in `response.content.fields`).
 */
export async function sendBroadcast(body: SendBroadcastBody) {
  return unwrap(await adminCall(backOfficeBroadcastEndpoints.sendBroadcast, { body }));
}

/** Send mutation of the broadcasts page; refreshes the list. */
export function useSendBroadcast() {
  return useAdminMutation(sendBroadcast, [adminKeys.broadcasts]);
}
