import { qualifyEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** Query key of the qualified-investor state. */
export const QUALIFICATION_QUERY_KEY = ['kyc', 'qualified'] as const;

/** `GET investor/qualify`: the qualified-investor status (needs level 2; silent, as a refusal is shown by the page). */
export function useQualification(enabled = true) {
  return useQuery({
    queryKey: QUALIFICATION_QUERY_KEY,
    enabled,
    retry: false,
    queryFn: async () => unwrap(await callEndpoint(qualifyEndpoints.qualification, {}, { silent: true })),
  });
}
