import { fundWireEndpoints } from '@meridian/contracts/fund-wires';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type IncomingWireQuery = z.input<typeof fundWireEndpoints.listWires.query>;
export type OutgoingWireQuery = z.input<typeof fundWireEndpoints.listOutgoingWires.query>;

/** `GET admin/wires?status=`: USD wires received on Meridian's account, newest first. */
export function listIncomingWires(query: IncomingWireQuery) {
  return adminFetch(fundWireEndpoints.listWires, { query });
}

/** `GET admin/wires/outgoing?status=`: USD wires owed to users for redemptions, oldest first. */
export function listOutgoingWires(query: OutgoingWireQuery) {
  return adminFetch(fundWireEndpoints.listOutgoingWires, { query });
}

/** The received wires' table page for `query`; the previous page stays shown while the next loads. */
export function useIncomingWires(query: IncomingWireQuery) {
  return useQuery({
    queryKey: [...adminKeys.wires, 'incoming', query],
    queryFn: () => listIncomingWires(query),
    placeholderData: keepPreviousData,
  });
}

/** The outgoing wires' table page for `query`. */
export function useOutgoingWires(query: OutgoingWireQuery) {
  return useQuery({
    queryKey: [...adminKeys.wires, 'outgoing', query],
    queryFn: () => listOutgoingWires(query),
    placeholderData: keepPreviousData,
  });
}
