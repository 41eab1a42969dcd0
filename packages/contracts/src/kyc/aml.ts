import { z } from 'zod';

// ---------------------------------------------------------------- AML questionnaire

/** AML answer status: accepted (low or medium risk), enhanced review (high), or rejected by a reviewer. */
export const AML_STATUSES = ['accepted', 'enhancedReview', 'rejected'] as const;
export type AmlStatus = (typeof AML_STATUSES)[number];

/** What the customer mainly does for a living. */
export const AML_OCCUPATION_STATUSES = [
  'employed',
  'selfEmployed',
  'businessOwner',
  'student',
  'retired',
  'unemployed',
  'homemaker',
] as const;
/** The industry of the occupation; the last four are the cash-intensive or money-handling trades FATF names as higher risk. */
export const AML_INDUSTRIES = [
  'finance',
  'technology',
  'healthcare',
  'education',
  'government',
  'retail',
  'manufacturing',
  'realEstate',
  'other',
  'moneyServices',
  'gambling',
  'preciousMetalsAndStones',
  'armsAndDefence',
] as const;
/** Where the money put on the platform comes from. */
export const AML_FUND_SOURCES = [
  'salary',
  'businessIncome',
  'investments',
  'savings',
  'propertySale',
  'inheritance',
  'gift',
  'loan',
  'cryptoMining',
  'other',
] as const;
/** How the customer's overall wealth was built. */
export const AML_WEALTH_SOURCES = [
  'employment',
  'business',
  'investments',
  'propertySale',
  'inheritance',
  'gift',
  'cryptoAssets',
  'other',
] as const;
/** Expected monthly volume in US dollars, by band (lower bound inclusive, upper exclusive). */
export const AML_MONTHLY_VOLUME_USD_BANDS = [
  'under10k',
  'from10kTo50k',
  'from50kTo250k',
  'from250kTo1m',
  'atLeast1m',
] as const;
/** Why the customer uses the platform. */
export const AML_ACCOUNT_PURPOSES = ['investment', 'savings', 'trading', 'payments', 'remittance', 'other'] as const;

/**
 * `POST investor/aml`: the questionnaire. The choice lists above are the only copy: the
 * form offers them and the server's scoring table (apps/server/src/modules/kyc/kyc.aml-scoring.ts)
 * scores them.
 */
export const amlAnswersSchema = z
  .object({
    occupation: z.object({
      status: z.enum(AML_OCCUPATION_STATUSES, { error: 'validation.required' }),
      industry: z.enum(AML_INDUSTRIES, { error: 'validation.required' }),
    }),
    /** Employer's name; empty when not employed. */
    employer: z.string().trim().max(200, { error: 'validation.tooLong' }).default(''),
    sourcesOfFunds: z
      .array(z.enum(AML_FUND_SOURCES), { error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(10),
    sourcesOfWealth: z
      .array(z.enum(AML_WEALTH_SOURCES), { error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(8),
    expectedMonthlyVolumeUsdBand: z.enum(AML_MONTHLY_VOLUME_USD_BANDS, { error: 'validation.required' }),
    purposes: z
      .array(z.enum(AML_ACCOUNT_PURPOSES), { error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(6),
    /** A politically exposed person, a family member or a close associate of one (FATF R.12). */
    isPoliticallyExposed: z.boolean({ error: 'validation.required' }),
    /** ISO 3166-1 alpha-2 codes of countries under sanctions the customer has links with (residence, business, family, funds). */
    sanctionsCountryLinks: z
      .array(
        z
          .string()
          .max(2, { abort: true })
          .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
      )
      .max(20)
      .default([]),
  })
  .strict();
export type AmlAnswersInput = z.output<typeof amlAnswersSchema>;

/** `GET/POST investor/aml`: the current version with its score, and how many versions are kept. */
export const amlStateSchema = z.object({
  current: z
    .object({
      version: z.number().int(),
      answers: z.record(z.string(), z.unknown()),
      points: z.number().int(),
      level: z.enum(['low', 'medium', 'high']),
      status: z.enum(AML_STATUSES),
      createdAt: z.string(),
    })
    .nullable(),
  versionCount: z.number().int(),
});
export type AmlState = z.infer<typeof amlStateSchema>;
