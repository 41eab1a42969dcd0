import { z } from 'zod';
import { uuidString } from '../limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { usTaxIdSchema } from '../kyc-rules.ts';
import { investorStateSchema, investorDraftSchema } from './investor.ts';
import { amlStateSchema, amlAnswersSchema } from './aml.ts';

// ---------------------------------------------------------------- tax forms

/** Days within which a change of circumstances must be reported with a new form. */
export const TAX_CHANGE_REPORT_DAYS = 30;

/** CRS reasons for giving no TIN: A the country issues none, B the holder cannot obtain one, C the country does not require it. */
export const NO_TIN_REASONS = ['A', 'B', 'C'] as const;

/**
 * `POST investor/tax`: a W-9 for US persons (citizenship, residence or US birthplace) with an SSN or
 * ITIN checked against the never-issued ranges; otherwise a W-8BEN-style self-certification listing
 * each tax residence with its TIN or a reason code for none (OECD CRS).
 */
export const taxFormSchema = z.discriminatedUnion(
  'form',
  [
    z.object({
      form: z.literal('W9'),
      usPersonBasis: z.enum(['citizen', 'resident', 'birthplace'], { error: 'validation.required' }),
      tin: usTaxIdSchema,
    }),
    z.object({
      form: z.literal('W8BEN'),
      isUsBorn: z.boolean({ error: 'validation.required' }),
      residences: z
        .array(
          z
            .object({
              country: z
                .string({ error: 'validation.country' })
                .max(2, { abort: true })
                .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
              tin: z.string().trim().max(40, { error: 'validation.tooLong' }).optional(),
              noTinReason: z.enum(NO_TIN_REASONS, { error: 'validation.noTinReason' }).optional(),
            })
            .refine((value) => (value.tin ?? '') !== '' || value.noTinReason !== undefined, {
              error: 'validation.tinOrReason',
              path: ['tin'],
            }),
          { error: 'validation.required' },
        )
        .min(1, { error: 'validation.required' })
        .max(5),
    }),
  ],
  { error: 'validation.taxForm' },
);
export type TaxFormInput = z.output<typeof taxFormSchema>;

/** `GET/POST investor/tax`: the form on file (the TIN masked) and the 30-day rule. */
export const taxStateSchema = z.object({
  current: z
    .object({
      id: z.number().int(),
      form: z.enum(['W9', 'W8BEN']),
      summary: z.record(z.string(), z.unknown()),
      createdAt: z.string(),
    })
    .nullable(),
  supersededCount: z.number().int(),
  changeReportDays: z.number().int(),
  /**
   * Whether a new form is asked for: an approved change of country of residence superseded the
   * form on file.
   */
  isNewFormRequired: z.boolean(),
  /** ISO time by which the new form is due (30 days after the change was approved); null when none is asked for. */
  newFormDueAt: z.string().nullable(),
});
export type TaxState = z.infer<typeof taxStateSchema>;

export const investorEndpoints = {
  investor: defineEndpoint({
    method: 'GET',
    path: '/user/identity/investor',
    tag: 'kyc',
    summary: 'Investor profile: draft and review state',
    auth: 'user',
    kyc: 'basic',
    content: investorStateSchema,
  }),
  saveInvestor: defineEndpoint({
    method: 'POST',
    path: '/user/identity/investor',
    tag: 'kyc',
    summary: 'Save the investor profile draft',
    auth: 'user',
    kyc: 'basic',
    body: investorDraftSchema,
    content: investorStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  commitInvestor: defineEndpoint({
    method: 'POST',
    path: '/user/identity/commit',
    tag: 'kyc',
    summary: 'Submit the investor profile for review',
    auth: 'user',
    kyc: 'basic',
    content: investorStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  aml: defineEndpoint({
    method: 'GET',
    path: '/investor/aml',
    tag: 'kyc',
    summary: 'The AML questionnaire on file',
    auth: 'user',
    kyc: 'basic',
    content: amlStateSchema,
  }),
  answerAml: defineEndpoint({
    method: 'POST',
    path: '/investor/aml',
    tag: 'kyc',
    summary: 'Answer the AML questionnaire (scored; high risk goes to enhanced review; every version kept)',
    auth: 'user',
    kyc: 'basic',
    body: amlAnswersSchema,
    content: amlStateSchema,
  }),
  tax: defineEndpoint({
    method: 'GET',
    path: '/investor/tax',
    tag: 'kyc',
    summary: 'The tax form on file',
    auth: 'user',
    kyc: 'basic',
    content: taxStateSchema,
  }),
  fileTax: defineEndpoint({
    method: 'POST',
    path: '/investor/tax',
    tag: 'kyc',
    summary: 'File a W-9 (US persons) or a W-8BEN-style self-certification; the previous form is superseded',
    auth: 'user',
    kyc: 'basic',
    body: taxFormSchema,
    content: taxStateSchema,
  }),
};

/** The `:step` of a path. */
export const stepParamsSchema = z.object({
  userId: uuidString({ error: 'validation.required' }),
  step: z.enum(['investor', 'aml', 'qualified', 'residence']),
});
