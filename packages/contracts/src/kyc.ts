import { z } from 'zod';
import { uuidString } from './limits.ts';
import { defineEndpoint, type KycRequirement } from './endpoint.ts';
import {
  dateOfBirthSchema,
  englishNameSchema,
  ID_TYPES_WITH_BACK,
  idNumberSchemaFor,
  idTypeSchema,
  type IdType,
  usTaxIdSchema,
} from './kyc-rules.ts';
import { pageSchema } from './pagination.ts';
import { decimalAmountSchema } from './money.ts';

/**
 * Basic identity verification (`status.user` / `identity.basic`,
 * rules, `user/info`, `user/commit`; "KYC review within 1 working day"). The user saves a
 * draft on every step (`POST user/info`), uploads the documents (`POST user/identity/document`,
 * multipart), then submits (`POST user/commit`); an operator with the `compliance` role approves or
 * rejects it through `/api/admin/kyc/...`.
 */

// ---------------------------------------------------------------- review status

/**
 * Review status of a submission (`status.user.status`; labels): 0 not submitted,
 * 1 Verified, 2 Under Review, 3 Failed (the reviewer's reason is `message`), 4 Expired (a qualified-investor status past its 12 months).
 */
export const KYC_STATUS = { NONE: 0, VERIFIED: 1, UNDER_REVIEW: 2, FAILED: 3, EXPIRED: 4 } as const;
export type KycStatus = (typeof KYC_STATUS)[keyof typeof KYC_STATUS];

/** Working days (Hong Kong business calendar) within which a submission is decided. */
export const KYC_REVIEW_WORKING_DAYS = 1;

/** Longest age of a proof of address, in days, counted from its issue date to the submission. */
export const PROOF_OF_ADDRESS_AGE_DAYS_MAX = 90;

// ---------------------------------------------------------------- levels and gates

/** Verification levels: 0 registered, 1 basic verified, 2 investor, 3 qualified investor. */
export type KycLevel = 0 | 1 | 2 | 3;

/** One step of verification: the level it gives, the page of the web that takes it, its name in both languages. */
export interface KycStep {
  step: KycRequirement;
  level: KycLevel;
  /** The web page of the step (under the product's `/identity` site). */
  route: string;
  name: { 'en-US': string; 'zh-HK': string };
}

/**
 * The level table, enforced by the server through each
 * endpoint's `kyc` and shown by the web:
 * - 0 registered (email): deposit, market, messages;
 * - 1 basic verified (basic KYC approved): withdraw, exchange, flash exchange, card application;
 * - 2 investor (level 1 + investor profile approved + AML questionnaire accepted + tax form on file):
 *   funds subscribe/redeem, trust, loans;
 * - 3 qualified investor (level 2 + QI approved): fixed funds marked professional-only.
 */
export const KYC_STEPS: Record<KycRequirement, KycStep> = {
  basic: {
    step: 'basic',
    level: 1,
    route: '/identity/basic',
    name: { 'en-US': 'basic identity verification', 'zh-HK': '基本身份認證' },
  },
  investor: {
    step: 'investor',
    level: 2,
    route: '/identity/investor',
    name: {
      'en-US': 'investor verification (investor profile, AML questionnaire and tax form)',
      'zh-HK': '投資者認證（投資者資料、反洗錢問卷及稅務表格）',
    },
  },
  qualified: {
    step: 'qualified',
    level: 3,
    route: '/identity/qualify',
    name: { 'en-US': 'qualified investor verification', 'zh-HK': '合格投資者認證' },
  },
};

/** What a refused call answers in `content` (code 143 KYC_REQUIRED): the missing step and where the web takes it. */
export const kycRequiredContentSchema = z.object({
  step: z.enum(['basic', 'investor', 'qualified']),
  route: z.string(),
  requiredLevel: z.number().int(),
  level: z.number().int(),
});
export type KycRequiredContent = z.infer<typeof kycRequiredContentSchema>;

/**
 * The gate of a call that needs `requirement` for a user at `level`: null when it may pass, else
 * the first missing step (levels are climbed in order: a level-0 user asked for `investor` is sent
 * to basic verification first).
 */
export function kycGate(level: number, requirement: KycRequirement): KycRequiredContent | null {
  const requiredLevel = KYC_STEPS[requirement].level;
  if (level >= requiredLevel) return null;
  const missing = Object.values(KYC_STEPS).find((step) => step.level === Math.max(level + 1, 1))!;
  return { step: missing.step, route: missing.route, requiredLevel, level };
}

// ---------------------------------------------------------------- documents

/** The document kinds of basic KYC and of a company investor profile; a multipart file's field name is its kind. */
export const KYC_DOCUMENT_KINDS = [
  'idFront',
  'idBack',
  'selfie',
  'proofOfAddress',
  'certificateOfIncorporation',
  'registerOfDirectors',
  'qualifiedEvidence',
] as const;
export type KycDocumentKind = (typeof KYC_DOCUMENT_KINDS)[number];

/** The documents a submission with `idType` needs: the back only for types that have one. */
export function requiredDocumentKinds(idType: IdType): KycDocumentKind[] {
  return ID_TYPES_WITH_BACK.has(idType)
    ? ['idFront', 'idBack', 'selfie', 'proofOfAddress']
    : ['idFront', 'selfie', 'proofOfAddress'];
}

/** One stored document as its owner sees it (the bytes are read through `documentRead`). */
export const kycDocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(KYC_DOCUMENT_KINDS),
  fileName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;

// ---------------------------------------------------------------- draft and submission

const draftText = (lengthMax: number) =>
  z.string({ error: 'validation.required' }).max(lengthMax, { error: 'validation.tooLong' });

/**
 * The basic-KYC draft (`POST user/info`): every field optional and only bounded in length, so any
 * step can be saved half-filled. The full rules apply at `user/commit`. Country codes are ISO
 * 3166-1 alpha-2; dates `YYYY-MM-DD`.
 */
export const basicKycDraftSchema = z
  .object({
    firstName: draftText(50),
    lastName: draftText(50),
    /** Name in Chinese characters, as on the document when it has one. */
    nameChinese: draftText(50),
    dateOfBirth: draftText(10),
    nationality: draftText(2),
    residence: draftText(2),
    idType: draftText(20),
    idNumber: draftText(40),
    address: draftText(200),
    /** Issue date of the proof of address (at most 90 days before the submission). */
    proofOfAddressDate: draftText(10),
  })
  .partial()
  .strict();
export type BasicKycDraft = z.infer<typeof basicKycDraftSchema>;

/** A country code the server knows (`user/country/list`); checked against the list by the server. */
const countryCodeSchema = z
  .string({ error: 'validation.country' })
  .max(2, { abort: true })
  .regex(/^[A-Z]{2}$/, { error: 'validation.country' });

/** A residential address: not empty, at most 200 characters. */
const residentialAddressSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(200, { error: 'validation.tooLong' });

/** The issue date of a proof of address, `YYYY-MM-DD` (its 90-day age is checked by the server). */
const proofOfAddressDateSchema = z
  .string({ error: 'validation.required' })
  .max(10, { abort: true })
  .pipe(z.iso.date({ error: 'validation.proofOfAddressDate' }).max(10));

/**
 * The rules a submission must pass at `user/commit`: names in English characters, 18 or
 * older, an ID number valid for its type, a non-empty address and a proof-of-address date. The
 * server adds the checks that need data (country list, documents, the 90-day age of the proof).
 * `today` is the local date of the check (`YYYY-MM-DD`).
 */
export function basicKycSubmissionSchema(today?: () => string) {
  return z
    .object({
      firstName: englishNameSchema,
      lastName: englishNameSchema,
      nameChinese: z
        .string()
        .trim()
        .max(50, { error: 'validation.tooLong' })
        .optional()
        .transform((value) => (value === '' ? undefined : value)),
      dateOfBirth: dateOfBirthSchema(today),
      nationality: countryCodeSchema,
      residence: countryCodeSchema,
      address: residentialAddressSchema,
      proofOfAddressDate: proofOfAddressDateSchema,
      idType: idTypeSchema,
      idNumber: z
        .string({ error: 'validation.required' })
        .min(1, { error: 'validation.required' })
        .max(40, { error: 'validation.idNumber' }),
    })
    .transform((value, ctx) => {
      const parsed = idNumberSchemaFor(value.idType).safeParse(value.idNumber);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: ['idNumber'], message: issue.message });
        return z.NEVER;
      }
      return { ...value, idNumber: parsed.data };
    });
}
export type BasicKycSubmission = z.output<ReturnType<typeof basicKycSubmissionSchema>>;

/** `GET user/info`: the draft, the state of the review and the documents on file. */
export const basicKycStateSchema = z.object({
  /** Spec `status.user`: `status` per `KYC_STATUS`, `message` the reviewer's reason when Failed. */
  status: z.number().int(),
  message: z.string(),
  draft: basicKycDraftSchema,
  /** The frozen submission while Under Review or once Verified; null before the first commit. */
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  /** When a decision is due: 1 Hong Kong working day after the submission (ISO time); null when none is pending. */
  expectedDecisionAt: z.string().nullable(),
  /** Current document of each kind (the newest upload). */
  documents: z.array(kycDocumentSchema),
  /** The documents the chosen ID type needs. */
  requiredDocuments: z.array(z.enum(KYC_DOCUMENT_KINDS)),
});
export type BasicKycState = z.infer<typeof basicKycStateSchema>;

const documentIdParamsSchema = z.object({ id: uuidString({ error: 'validation.required' }) });

export const kycEndpoints = {
  info: defineEndpoint({
    method: 'GET',
    path: '/user/info',
    tag: 'kyc',
    summary: 'Basic identity verification: draft, review state and documents',
    auth: 'user',
    content: basicKycStateSchema,
  }),
  saveDraft: defineEndpoint({
    method: 'POST',
    path: '/user/info',
    tag: 'kyc',
    summary: 'Save the basic identity draft (any step, partly filled)',
    auth: 'user',
    body: basicKycDraftSchema,
    content: basicKycStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  commit: defineEndpoint({
    method: 'POST',
    path: '/user/commit',
    tag: 'kyc',
    summary: 'Submit the basic identity draft for review (every rule checked, documents required)',
    auth: 'user',
    content: basicKycStateSchema,
    codes: ['KYC_LOCKED'],
  }),
  uploadDocuments: defineEndpoint({
    method: 'POST',
    path: '/user/identity/document',
    tag: 'kyc',
    summary:
      'Upload identity documents: multipart/form-data, one file per part, the part name its kind (idFront, idBack, selfie, proofOfAddress); JPG, PNG or PDF by content, at most 10 MB each, 10 files, names of at most 50 characters',
    auth: 'user',
    content: z.array(kycDocumentSchema),
    codes: ['KYC_LOCKED'],
  }),
  readDocument: defineEndpoint({
    method: 'GET',
    path: '/user/identity/document/:id',
    tag: 'kyc',
    summary: 'The bytes of one of the caller’s documents (its own content type; never another user’s)',
    auth: 'user',
    params: documentIdParamsSchema,
    content: z.unknown(),
    codes: ['NOT_FOUND'],
  }),
};

// ---------------------------------------------------------------- operators

/** A submission as a reviewer sees it. */
export const opsKycSubmissionSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  status: z.number().int(),
  message: z.string(),
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  expectedDecisionAt: z.string().nullable(),
  documents: z.array(kycDocumentSchema),
  decisions: z.array(
    z.object({
      subject: z.string(),
      decision: z.enum(['approve', 'reject']),
      operatorEmail: z.string(),
      reason: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** The investor profile's state, when one was started. */
  investor: z
    .object({ status: z.number().int(), message: z.string(), submitted: z.record(z.string(), z.unknown()).nullable() })
    .nullable(),
  /** The current AML answers' score, when answered. */
  aml: z
    .object({
      status: z.string(),
      level: z.string(),
      points: z.number().int(),
      matchedRules: z.array(z.object({ id: z.string(), points: z.number().int() })),
    })
    .nullable(),
  /** The qualified-investor application, when one was made. */
  qualified: z
    .object({
      status: z.number().int(),
      submitted: z.record(z.string(), z.unknown()).nullable(),
      validUntil: z.string().nullable(),
    })
    .nullable(),
});
export type OpsKycSubmission = z.infer<typeof opsKycSubmissionSchema>;

/**
 * The steps a reviewer decides on, in the order of the levels: basic KYC, the investor profile,
 * AML answers in enhanced review, qualified-investor applications, and changes of residence
 * reported by verified users.
 */
export const KYC_REVIEW_STEPS = ['basic', 'investor', 'aml', 'qualified', 'residence'] as const;
export type KycReviewStep = (typeof KYC_REVIEW_STEPS)[number];

/**
 * AML answer statuses as review statuses (`KYC_STATUS`), so one `status` filters every step:
 * accepted 1, enhanced review 2 (awaiting a decision), rejected 3.
 */
export const AML_STATUS_AS_KYC_STATUS: Record<AmlStatus, KycStatus> = {
  accepted: KYC_STATUS.VERIFIED,
  enhancedReview: KYC_STATUS.UNDER_REVIEW,
  rejected: KYC_STATUS.FAILED,
};

/**
 * `GET admin/kyc`: the review queue. `step` narrows it to one step (default every step); `status`
 * (`KYC_STATUS`, default 2: awaiting a decision — Under Review, or AML answers in enhanced review).
 */
export const opsKycListQuerySchema = z.object({
  pageID: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  /** Only this step; every step when absent. */
  step: z.enum(KYC_REVIEW_STEPS, { error: 'validation.reviewStep' }).optional(),
  /** Only this status (`KYC_STATUS`); default Under Review. */
  status: z.coerce.number().int().min(0).max(4).default(KYC_STATUS.UNDER_REVIEW),
});

/**
 * One entry of the review queue: the user as `admin/kyc/:userId` shows them, with `step` naming what
 * is queued. `status`, `message`, `submitted`, `submittedAt` and `expectedDecisionAt` are that
 * step's (for `basic` they are basic KYC's, as before `step` existed; for `aml` the answers, with
 * a decision due 1 working day after they were given).
 */
export const opsKycQueueItemSchema = opsKycSubmissionSchema.extend({ step: z.enum(KYC_REVIEW_STEPS) });
export type OpsKycQueueItem = z.infer<typeof opsKycQueueItemSchema>;

export const opsKycRejectBodySchema = z.object({
  reason: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(500, { error: 'validation.tooLong' }),
});

const userIdParamsSchema = z.object({ userId: uuidString({ error: 'validation.required' }) });

/** The reviewers' API (`/api/admin/kyc/...`): read by `support` and `compliance`, decided by `compliance` (and `admin`). */
export const opsKycEndpoints = {
  readDocument: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc/documents/:id',
    tag: 'back-office',
    summary: 'The bytes of one identity document (reviewers: compliance or viewer), in its own content type',
    auth: 'operator',
    roles: ['compliance', 'support'],
    params: documentIdParamsSchema,
    content: z.unknown(),
    codes: ['FORBIDDEN', 'NOT_FOUND'],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc',
    tag: 'back-office',
    summary:
      'The review queue over every step (basic, investor, aml, qualified, residence), oldest submission first; filter by step and status (default: awaiting a decision)',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: opsKycListQuerySchema,
    content: pageSchema(opsKycQueueItemSchema),
    codes: ['FORBIDDEN'],
  }),
  show: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc/:userId',
    tag: 'back-office',
    summary: 'One basic KYC submission with its documents and decisions',
    auth: 'operator',
    roles: ['compliance', 'support'],
    params: userIdParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND'],
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/approve',
    tag: 'back-office',
    summary: 'Approve: Verified, level 1',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/reject',
    tag: 'back-office',
    summary: 'Reject with a reason shown to the user: Failed',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: opsKycRejectBodySchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
};

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

const stepParamsSchema = z.object({
  userId: uuidString({ error: 'validation.required' }),
  step: z.enum(['investor', 'aml', 'qualified', 'residence']),
});

// ---------------------------------------------------------------- qualified investor (level 3)

/** The Hong Kong professional-investor thresholds (Securities and Futures (Professional Investor) Rules, Cap. 571D): HK$ amounts. */
export const QUALIFIED_INDIVIDUAL_PORTFOLIO_HKD_MIN = '8000000';
export const QUALIFIED_CORPORATION_ASSETS_HKD_MIN = '40000000';
/** How long an approval lasts, and how long before its end the user is told. */
export const QUALIFIED_VALIDITY_MONTHS = 12;
export const QUALIFIED_REMINDER_DAYS = 30;

/** Decimals of a HK$ amount (cents). */
const HKD_DECIMALS = 2;

/**
 * A HK$ amount: the contracts' wire amount (`decimalAmountSchema`: a plain non-negative decimal
 * string, never a JS number) with at most 2 decimals. A refused format aborts, so the threshold
 * refinements below only ever see a well-formed amount.
 */
const hkdAmountSchema = decimalAmountSchema.refine((value) => (value.split('.')[1]?.length ?? 0) <= HKD_DECIMALS, {
  error: 'validation.amountPrecision',
  params: { decimals: HKD_DECIMALS },
  abort: true,
});

/**
 * Whether decimal strings `a` ≥ `b` (both non-negative, at most 2 decimals), compared in cents as
 * bigint. False (never a throw) when either is not such a decimal.
 */
export function isHkdAtLeast(a: string, b: string): boolean {
  const cents = (value: string): bigint | null => {
    const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
    if (!match) return null;
    return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(HKD_DECIMALS, '0'));
  };
  const left = cents(a);
  const right = cents(b);
  return left !== null && right !== null && left >= right;
}

/**
 * `POST investor/qualify`: the professional-investor test by declaration plus evidence
 * files (uploaded as `qualifiedEvidence`): an individual's portfolio of at least HK$8 million, or a
 * corporation's total assets of at least HK$40 million.
 */
export const qualifySubmissionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('individual'),
      portfolioHkd: hkdAmountSchema.refine((value) => isHkdAtLeast(value, QUALIFIED_INDIVIDUAL_PORTFOLIO_HKD_MIN), {
        error: 'validation.qualifiedThreshold',
        params: { minimum: 'HK$8,000,000' },
      }),
      isDeclared: z.literal(true, { error: 'validation.declaration' }),
    }),
    z.object({
      type: z.literal('corporation'),
      totalAssetsHkd: hkdAmountSchema.refine((value) => isHkdAtLeast(value, QUALIFIED_CORPORATION_ASSETS_HKD_MIN), {
        error: 'validation.qualifiedThreshold',
        params: { minimum: 'HK$40,000,000' },
      }),
      isDeclared: z.literal(true, { error: 'validation.declaration' }),
    }),
  ],
  { error: 'validation.investorType' },
);
export type QualifySubmission = z.output<typeof qualifySubmissionSchema>;

/** `GET/POST investor/qualify`: the review state and, once approved, until when it holds. */
export const qualifyStateSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  expectedDecisionAt: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type QualifyState = z.infer<typeof qualifyStateSchema>;

export const qualifyEndpoints = {
  qualification: defineEndpoint({
    method: 'GET',
    path: '/investor/qualify',
    tag: 'kyc',
    summary: 'Qualified-investor status',
    auth: 'user',
    kyc: 'investor',
    content: qualifyStateSchema,
  }),
  qualify: defineEndpoint({
    method: 'POST',
    path: '/investor/qualify',
    tag: 'kyc',
    summary: 'Apply as a qualified (professional) investor: declaration and evidence files; reviewed; valid 12 months',
    auth: 'user',
    kyc: 'investor',
    body: qualifySubmissionSchema,
    content: qualifyStateSchema,
    codes: ['KYC_LOCKED'],
  }),
};

/** Reviewers' decisions on the investor profile, on an AML questionnaire in enhanced review, and on a qualified-investor application. */
export const opsKycStepEndpoints = {
  approveStep: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/:step/approve',
    tag: 'back-office',
    summary:
      'Approve the investor profile or a qualified-investor application, or accept an AML questionnaire after enhanced review',
    auth: 'operator',
    roles: ['compliance'],
    params: stepParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
  rejectStep: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/:step/reject',
    tag: 'back-office',
    summary:
      'Reject the investor profile, a qualified-investor application or an AML questionnaire, with a reason shown to the user',
    auth: 'operator',
    roles: ['compliance'],
    params: stepParamsSchema,
    body: opsKycRejectBodySchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
};

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

// ---------------------------------------------------------------- announcements of changes of terms

/** Hong Kong working days between the announcement of a change of terms and its effect. */
export const TERMS_NOTICE_WORKING_DAYS = 7;

const termsText = (lengthMax: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(lengthMax, { error: 'validation.tooLong' });

/**
 * `POST admin/terms-changes`: a change of terms in both languages and the Hong Kong date it takes
 * effect, at least 7 Hong Kong working days after today (checked by the server, which names the
 * earliest allowed date on `effectiveOn`).
 */
export const termsChangeInputSchema = z.object({
  titleEn: termsText(100),
  titleZh: termsText(100),
  bodyEn: termsText(1500),
  bodyZh: termsText(1500),
  effectiveOn: z
    .string({ error: 'validation.required' })
    .max(10, { abort: true })
    .pipe(z.iso.date({ error: 'validation.date' }).max(10)),
});
export type TermsChangeInput = z.output<typeof termsChangeInputSchema>;

/** A scheduled change of terms as operators see it. */
export const termsChangeSchema = z.object({
  id: z.string(),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  /** Hong Kong date the change applies from. */
  effectiveOn: z.string(),
  /** Hong Kong date users are told: 7 working days before `effectiveOn`. */
  announceOn: z.string(),
  /** When the messages were sent; null until then. */
  announcedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type TermsChange = z.infer<typeof termsChangeSchema>;

/** Operators' API of changes of terms (bearer token; scheduling needs role admin or compliance). */
export const opsTermsEndpoints = {
  scheduleTerms: defineEndpoint({
    method: 'POST',
    path: '/admin/terms-changes',
    tag: 'back-office',
    summary:
      'Schedule an announcement of a change of terms: messaged to every active user 7 Hong Kong working days before it takes effect',
    auth: 'operator',
    roles: ['compliance'],
    body: termsChangeInputSchema,
    content: termsChangeSchema,
    codes: ['FORBIDDEN'],
  }),
  listTerms: defineEndpoint({
    method: 'GET',
    path: '/admin/terms-changes',
    tag: 'back-office',
    summary: 'Scheduled and announced changes of terms, newest effective date first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: z.object({
      pageID: z.coerce.number().int().min(1).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(20),
    }),
    content: pageSchema(termsChangeSchema),
    codes: ['FORBIDDEN'],
  }),
};
