import { qualifyEndpoints, type QualifySubmission } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `POST investor/qualify`: the professional-investor declaration, with the evidence already uploaded. */
export function applyQualified(submission: QualifySubmission) {
  return callEndpoint(qualifyEndpoints.qualify, { body: submission }, { silent: true });
}
