import { type BasicKycDraft, kycEndpoints } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** Query keys of the identity-verification pages. */
export const kycKeys = {
  basic: ['kyc', 'basic'] as const,
  investor: ['kyc', 'investor'] as const,
  aml: ['kyc', 'aml'] as const,
  tax: ['kyc', 'tax'] as const,
  countries: ['kyc', 'countries'] as const,
};

/** `GET user/info`: the basic-KYC draft, review status, documents on file (issue 15, spec §7). */
export function useBasicKyc(enabled = true) {
  return useQuery({ queryKey: kycKeys.basic, enabled, queryFn: async () => unwrap(await callEndpoint(kycEndpoints.info, {})) });
}

/** `POST user/info`: save a (partial) draft; the answer is the new state. Quiet: the form shows its own progress. */
export function saveBasicDraft(draft: BasicKycDraft) {
  return callEndpoint(kycEndpoints.saveDraft, { body: draft }, { quietSuccess: true });
}

/** `POST user/commit`: submit the saved draft for review (422 code 120 names every failing field). */
export function commitBasicKyc() {
  return callEndpoint(kycEndpoints.commit, {});
}
