import { type QualifySubmission, qualifySubmissionSchema } from '@meridian/contracts/kyc';

/** The qualified-investor form's steps. */
export const QUALIFIED_STEPS = ['declaration', 'evidence', 'review'] as const;
/** The form's fields a server refusal may name (all on the declaration step). */
export const QUALIFIED_FORM_ROOTS = ['type', 'portfolioHkd', 'totalAssetsHkd', 'isDeclared'];
/** The amount rules of the contract (a HK$ decimal string at or above the threshold). */
export const portfolioSchema = qualifySubmissionSchema.options[0].shape.portfolioHkd;
export const totalAssetsSchema = qualifySubmissionSchema.options[1].shape.totalAssetsHkd;

/** The qualified-investor form's values (the amount held is the one of the `type` chosen). */
export interface QualifyValues {
  type?: 'individual' | 'corporation';
  portfolioHkd?: string;
  totalAssetsHkd?: string;
  isDeclared?: boolean;
}

/** The submission from the form's values: a corporation's total assets or an individual's portfolio, trimmed. */
export function qualifyBodyOf(values: QualifyValues): QualifySubmission {
  return (
    values.type === 'corporation'
      ? { type: 'corporation', totalAssetsHkd: (values.totalAssetsHkd ?? '').trim(), isDeclared: values.isDeclared }
      : { type: 'individual', portfolioHkd: (values.portfolioHkd ?? '').trim(), isDeclared: values.isDeclared }
  ) as QualifySubmission;
}

/** The amount the review shows: the total assets for a corporation, else the portfolio. */
export function qualifyAmountOf(values: QualifyValues): string | undefined {
  return values.type === 'corporation' ? values.totalAssetsHkd : values.portfolioHkd;
}
