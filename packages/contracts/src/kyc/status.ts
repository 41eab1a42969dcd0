import { z } from 'zod';
import { type KycRequirement } from '../endpoint.ts';

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
