import { investorEndpoints } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `POST user/identity/commit`: submit the saved investor profile for review (422 code 120 names every failing field). */
export function commitInvestor() {
  return callEndpoint(investorEndpoints.commitInvestor, {}, { silent: true });
}
