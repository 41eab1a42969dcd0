import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { countryCodeSchema, residentialAddressSchema, proofOfAddressDateSchema } from './basic.ts';

// ---------------------------------------------------------------- change of residence

/**
 * `POST user/identity/residence`: a verified user reports a new country of residence and address,
 * with a new proof of address uploaded first as `proofOfAddress` (dated within 90 days). It is
 * reviewed like basic KYC (`--step residence`) while the user keeps level 1; when it changes the
 * country, the tax form on file is superseded and a new one is due within 30 days.
 */
export const residenceChangeSchema = z.object({
  residence: countryCodeSchema,
  address: residentialAddressSchema,
  proofOfAddressDate: proofOfAddressDateSchema,
});
export type ResidenceChangeInput = z.output<typeof residenceChangeSchema>;

/** `GET/POST user/identity/residence`: the newest reported change and its review state. */
export const residenceChangeStateSchema = z.object({
  current: z
    .object({
      /** `KYC_STATUS`: 2 Under Review, 1 Verified (applied), 3 Failed (`message` says why). */
      status: z.number().int(),
      message: z.string(),
      previousResidence: z.string(),
      submitted: z.record(z.string(), z.unknown()),
      submittedAt: z.string(),
      expectedDecisionAt: z.string().nullable(),
      /** When it changed the country and was approved: the new tax form's due time (ISO). */
      taxFormDueAt: z.string().nullable(),
    })
    .nullable(),
});
export type ResidenceChangeState = z.infer<typeof residenceChangeStateSchema>;

/** A verified user's change of residence (needs level 1 and a verified basic KYC). */
export const residenceEndpoints = {
  residence: defineEndpoint({
    method: 'GET',
    path: '/user/identity/residence',
    tag: 'kyc',
    summary: 'The newest reported change of residence and its review state',
    auth: 'user',
    kyc: 'basic',
    content: residenceChangeStateSchema,
  }),
  reportResidence: defineEndpoint({
    method: 'POST',
    path: '/user/identity/residence',
    tag: 'kyc',
    summary:
      'Report a change of residence (country, address, proof of address uploaded first); reviewed; a new country asks for a new tax form within 30 days',
    auth: 'user',
    kyc: 'basic',
    body: residenceChangeSchema,
    content: residenceChangeStateSchema,
    codes: ['KYC_LOCKED', 'KYC_NOT_VERIFIED'],
  }),
};
