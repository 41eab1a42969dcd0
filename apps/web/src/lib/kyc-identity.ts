import { kycEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from './api-client.ts';

/** Query key of `GET user/info` (basic KYC state), shared by the identity pages and the profile. */
export const BASIC_KYC_QUERY_KEY = ['kyc', 'basic'] as const;

/** `GET user/info`: the basic-KYC draft, review status, frozen submission and documents (docs/kyc.md). */
export function useBasicKycInfo(enabled = true) {
  return useQuery({
    queryKey: BASIC_KYC_QUERY_KEY,
    enabled,
    queryFn: async () => unwrap(await callEndpoint(kycEndpoints.info, {})),
  });
}

/**
 * The ID number as shown once verified (docs/kyc.md "Web"): the first 2 and last 2 characters,
 * every other character replaced by `*`. Numbers of 4 characters or fewer are fully masked.
 */
export function maskIdNumber(idNumber: string): string {
  if (idNumber.length <= 4) return '*'.repeat(idNumber.length);
  return `${idNumber.slice(0, 2)}${'*'.repeat(idNumber.length - 4)}${idNumber.slice(-2)}`;
}
