import { investorEndpoints, type TaxFormInput } from '@meridian/contracts/kyc';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `POST investor/tax`: file a W-9 or a W-8BEN-style self-certification; the form on file is superseded. */
export function fileTaxForm(form: TaxFormInput) {
  return callEndpoint(investorEndpoints.fileTax, { body: form }, { silent: true });
}
