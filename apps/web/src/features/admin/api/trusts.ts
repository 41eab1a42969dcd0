import { opsTrustEndpoints } from '@meridian/contracts/trust';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type TrustQuery = z.input<typeof opsTrustEndpoints.listTrusts.query>;

/** `GET admin/trusts?state=`: trusts by state (claim by default), with settlor and beneficiaries. */
export function listTrusts(query: TrustQuery) {
  return adminFetch(opsTrustEndpoints.listTrusts, { query });
}

/** The trusts table's page; the previous page stays shown while the next loads. */
export function useTrusts(query: TrustQuery) {
  return useQuery({
    queryKey: [...adminKeys.trusts, 'list', query],
    queryFn: () => listTrusts(query),
    placeholderData: keepPreviousData,
  });
}

/**
 * `POST admin/trusts/:id/release` (role finance): after the beneficiaries were verified, the trust's
 * BTC moves to the payout account for the off-platform payout named by `reference`.
 * @throws ApiError on a refusal (TRUST_STATE_CHANGED when it is no longer in claim).
 */
export async function releaseTrust(input: { id: number; reference: string; verificationNote: string }) {
  const { id, reference, verificationNote } = input;
  return unwrap(
    await adminCall(opsTrustEndpoints.releaseTrust, { params: { id }, body: { reference, verificationNote } }),
  );
}

/** Release mutation of the trusts page. */
export function useReleaseTrust() {
  return useAdminMutation(releaseTrust, [adminKeys.trusts, adminKeys.dashboard]);
}
