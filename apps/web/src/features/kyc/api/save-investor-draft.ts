import { type InvestorDraft, investorEndpoints } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `POST user/identity/investor`: save the investor-profile draft (any step, partly filled). Quiet: the form shows its own progress. */
export function saveInvestorDraft(draft: InvestorDraft) {
  return callEndpoint(investorEndpoints.saveInvestor, { body: draft }, { quietSuccess: true });
}
