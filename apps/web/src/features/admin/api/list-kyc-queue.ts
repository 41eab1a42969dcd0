import { opsKycEndpoints } from '@meridian/contracts/kyc';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type KycQueueQuery = z.input<typeof opsKycEndpoints.list.query>;

/** `GET admin/kyc`: the review queue over every step, oldest submission first, filtered by step and status. */
export function listKycQueue(query: KycQueueQuery) {
  return adminFetch(opsKycEndpoints.list, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useKycQueue(query: KycQueueQuery) {
  return useQuery({
    queryKey: [...adminKeys.kyc, 'list', query],
    queryFn: () => listKycQueue(query),
    placeholderData: keepPreviousData,
  });
}
