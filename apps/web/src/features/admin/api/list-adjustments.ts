import { backOfficeAdjustmentEndpoints } from '@meridian/contracts/back-office';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type AdjustmentQuery = z.input<typeof backOfficeAdjustmentEndpoints.listAdjustments.query>;

/** `GET admin/adjustments?status=`: manual adjustments, newest first. */
export function listAdjustments(query: AdjustmentQuery) {
  return adminFetch(backOfficeAdjustmentEndpoints.listAdjustments, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useAdjustments(query: AdjustmentQuery) {
  return useQuery({
    queryKey: [...adminKeys.adjustments, 'list', query],
    queryFn: () => listAdjustments(query),
    placeholderData: keepPreviousData,
  });
}
