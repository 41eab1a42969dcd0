import { type BasicKycDraft, kycEndpoints } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';
import { BASIC_KYC_QUERY_KEY, useBasicKycInfo } from '../../../lib/kyc-identity.ts';

/** Query keys of the identity-verification pages. */
export const kycKeys = {
  basic: BASIC_KYC_QUERY_KEY,
  investor: ['kyc', 'investor'] as const,
  aml: ['kyc', 'aml'] as const,
  tax: ['kyc', 'tax'] as const,
};

/** `GET user/info`: the basic-KYC draft, review status, documents on file. */
export const useBasicKyc = useBasicKycInfo;

/** `POST user/info`: save a (partial) draft; the answer is the new state. Quiet: the form shows its own progress. */
export function saveBasicDraft(draft: BasicKycDraft) {
  return callEndpoint(kycEndpoints.saveDraft, { body: draft }, { quietSuccess: true });
}

/** `POST user/commit`: submit the saved draft for review (422 code 120 names every failing field). */
export function commitBasicKyc() {
  return callEndpoint(kycEndpoints.commit, {});
}
