import { type ResidenceChangeInput, residenceEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** Query key of the newest reported change of residence. */
export const residenceKey = ['kyc', 'residence'] as const;

/**
 * `GET user/identity/residence` (docs/kyc.md "Change of residence"): the newest reported
 * change and its review state (`current` null when none). Needs level 1: only asked for once basic
 * KYC is Verified (`enabled`).
 */
export function useResidenceChange(enabled: boolean) {
  return useQuery({
    queryKey: residenceKey,
    enabled,
    queryFn: async () => unwrap(await callEndpoint(residenceEndpoints.residence, {}, { silent: true })),
  });
}

/**
 * `POST user/identity/residence`: report the new country, address and the proof's issue date (the
 * proof uploaded first as `proofOfAddress`). Refusals (code 120 naming each field, 141 while one is
 * Under Review) are the caller's to show: silent.
 */
export function reportResidenceChange(body: ResidenceChangeInput) {
  return callEndpoint(residenceEndpoints.reportResidence, { body }, { silent: true });
}
