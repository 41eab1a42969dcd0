import { opsCardEndpoints } from '@meridian/contracts/card-ops';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type LimitRequestQuery = z.input<typeof opsCardEndpoints.listLimitRequests.query>;
export type OpsCardQuery = z.input<typeof opsCardEndpoints.listCards.query>;
export type SuspenseQuery = z.input<typeof opsCardEndpoints.listSuspense.query>;

/** `GET admin/cards/limit-requests?state=`: limit-change requests, pending (oldest first) then decided. */
export function listLimitRequests(query: LimitRequestQuery) {
  return adminFetch(opsCardEndpoints.listLimitRequests, { query });
}

/** `GET admin/cards?status=&kind=&userId=`: cards with masked numbers only, newest first. */
export function listOpsCards(query: OpsCardQuery) {
  return adminFetch(opsCardEndpoints.listCards, { query });
}

/** `GET admin/cards/suspense?state=`: card clearings and refunds booked to suspense. */
export function listCardSuspense(query: SuspenseQuery) {
  return adminFetch(opsCardEndpoints.listSuspense, { query });
}

/** The limit requests' table page for `query`; the previous page stays shown while the next loads. */
export function useLimitRequests(query: LimitRequestQuery) {
  return useQuery({
    queryKey: [...adminKeys.cards, 'limit-requests', query],
    queryFn: () => listLimitRequests(query),
    placeholderData: keepPreviousData,
  });
}

/** The cards' table page for `query`. */
export function useOpsCards(query: OpsCardQuery) {
  return useQuery({
    queryKey: [...adminKeys.cards, 'cards', query],
    queryFn: () => listOpsCards(query),
    placeholderData: keepPreviousData,
  });
}

/** The suspense table page for `query`. */
export function useCardSuspense(query: SuspenseQuery) {
  return useQuery({
    queryKey: [...adminKeys.cards, 'suspense', query],
    queryFn: () => listCardSuspense(query),
    placeholderData: keepPreviousData,
  });
}
