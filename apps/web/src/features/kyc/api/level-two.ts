import { investorEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { kycKeys } from './basic-kyc.ts';

/**
 * The level-2 states: investor profile, AML answers and tax form.
 * Each needs level 1, so they are only asked for once basic KYC is Verified (`enabled`); silent, as
 * a refusal there is expected and shown by the overview itself.
 */
export function useInvestorState(enabled: boolean) {
  return useQuery({
    queryKey: kycKeys.investor,
    enabled,
    queryFn: async () => unwrap(await callEndpoint(investorEndpoints.investor, {}, { silent: true })),
  });
}

/** `GET investor/aml`: the current AML answers with their score and status. */
export function useAmlState(enabled: boolean) {
  return useQuery({
    queryKey: kycKeys.aml,
    enabled,
    queryFn: async () => unwrap(await callEndpoint(investorEndpoints.aml, {}, { silent: true })),
  });
}

/** `GET investor/tax`: the tax form on file. */
export function useTaxState(enabled: boolean) {
  return useQuery({
    queryKey: kycKeys.tax,
    enabled,
    queryFn: async () => unwrap(await callEndpoint(investorEndpoints.tax, {}, { silent: true })),
  });
}
