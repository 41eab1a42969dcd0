import { z } from 'zod';
import { englishNameSchema } from '../kyc-rules.ts';
import { type KycDocumentKind } from './documents.ts';

// ---------------------------------------------------------------- investor profile (level 2)

/** Documents a company investor profile needs. */
export const COMPANY_DOCUMENT_KINDS = [
  'certificateOfIncorporation',
  'registerOfDirectors',
] as const satisfies readonly KycDocumentKind[];

/** Smallest share of a beneficial owner who must be declared, in percent (owners of 25 % or more). */
export const BENEFICIAL_OWNER_SHARE_PERCENT_MIN = 25;

export const NET_WORTH_USD_BANDS = ['under100k', 'from100kTo1m', 'from1mTo5m', 'atLeast5m'] as const;
export const ANNUAL_INCOME_USD_BANDS = ['under50k', 'from50kTo200k', 'from200kTo1m', 'atLeast1m'] as const;
export const INVESTMENT_EXPERIENCE = ['none', 'underOneYear', 'oneToFiveYears', 'overFiveYears'] as const;

const requiredText = (lengthMax: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(lengthMax, { error: 'validation.tooLong' });

/** A share in percent with at most 2 decimals (`25`, `33.33`), kept as text: compared in hundredths, never as a float. */
const sharePercentSchema = z
  .string({ error: 'validation.required' })
  .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'validation.sharePercent' })
  .refine(
    (value) => {
      const hundredths = percentHundredths(value);
      return hundredths >= BENEFICIAL_OWNER_SHARE_PERCENT_MIN * 100 && hundredths <= 100 * 100;
    },
    { error: 'validation.sharePercent' },
  );

/** `"33.3"` → 3330: a percent with at most 2 decimals in hundredths of a percent. */
export function percentHundredths(value: string): number {
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The investor profile at `user/identity/commit`: an individual states net worth,
 * income and experience; a company states its name, registration number and registered address
 * (none empty), country of incorporation, directors and beneficial owners of 25 % or more, and
 * uploads its certificate of incorporation and register of directors/shareholders.
 */
export const investorSubmissionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('individual'),
      individual: z.object({
        netWorthUsdBand: z.enum(NET_WORTH_USD_BANDS, { error: 'validation.required' }),
        annualIncomeUsdBand: z.enum(ANNUAL_INCOME_USD_BANDS, { error: 'validation.required' }),
        investmentExperience: z.enum(INVESTMENT_EXPERIENCE, { error: 'validation.required' }),
      }),
    }),
    z.object({
      type: z.literal('company'),
      company: z.object({
        companyName: requiredText(200),
        registrationNumber: requiredText(50),
        registeredAddress: requiredText(200),
        countryOfIncorporation: z
          .string({ error: 'validation.country' })
          .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
        directors: z
          .array(z.object({ name: englishNameSchema, idNumber: requiredText(40) }), { error: 'validation.required' })
          .min(1, { error: 'validation.required' })
          .max(20),
        beneficialOwners: z
          .array(z.object({ name: englishNameSchema, idNumber: requiredText(40), sharePercent: sharePercentSchema }), {
            error: 'validation.required',
          })
          .max(4, { error: 'validation.sharePercent' }),
      }),
    }),
  ],
  { error: 'validation.investorType' },
);
export type InvestorSubmission = z.output<typeof investorSubmissionSchema>;

/** The investor draft (`POST user/identity/investor`, saved silently): any shape of the form, checked only at commit. */
export const investorDraftSchema = z
  .object({
    type: z.string().max(20).optional(),
    individual: z.record(z.string(), z.unknown()).optional(),
    company: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type InvestorDraft = z.infer<typeof investorDraftSchema>;

/** `GET user/identity/investor`: draft and review state (`status.investor`, `identity.investor`). */
export const investorStateSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  draft: investorDraftSchema,
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  expectedDecisionAt: z.string().nullable(),
});
export type InvestorState = z.infer<typeof investorStateSchema>;
