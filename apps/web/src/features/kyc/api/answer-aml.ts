import { type AmlAnswersInput, investorEndpoints } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `POST investor/aml`: answer the AML questionnaire; the answer is the outcome (accepted or enhanced review). */
export function answerAml(answers: AmlAnswersInput) {
  return callEndpoint(investorEndpoints.answerAml, { body: answers }, { silent: true });
}
