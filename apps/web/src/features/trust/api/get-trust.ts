import { trustEndpoints } from '@meridian/contracts/trust';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { trustKeys } from './trust-keys.ts';

/** Rows per page of a trust's history (10). */
export const TRUST_HISTORY_PAGE_SIZE = 10;

/** `GET trust/:id` (`trustEndpoints.getTrust`): one trust with its holding and a page of its history. */
export async function getTrust(id: number, pageID: number) {
  return unwrap(
    await callEndpoint(trustEndpoints.getTrust, {
      params: { id },
      query: { pageID, pageSize: TRUST_HISTORY_PAGE_SIZE },
    }),
  );
}

/** One trust and a page of its history; off for guests; the previous page stays shown while the next loads. */
export function useTrust(id: number, pageID: number) {
  const userId = useUserId();
  return useQuery({
    queryKey: trustKeys.detail(id, pageID),
    enabled: userId !== null && Number.isInteger(id) && id > 0,
    queryFn: () => getTrust(id, pageID),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
