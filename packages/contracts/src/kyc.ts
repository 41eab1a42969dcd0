/**
 * Basic identity verification (`status.user` / `identity.basic`,
 * rules, `user/info`, `user/commit`; "KYC review within 1 working day"). The user saves a
 * draft on every step (`POST user/info`), uploads the documents (`POST user/identity/document`,
 * multipart), then submits (`POST user/commit`); an operator with the `compliance` role approves or
 * rejects it through `/api/admin/kyc/...`.
 */
export * from './kyc/status.ts';
export * from './kyc/documents.ts';
export {
  basicKycDraftSchema,
  type BasicKycDraft,
  basicKycSubmissionSchema,
  type BasicKycSubmission,
  basicKycStateSchema,
  type BasicKycState,
  kycEndpoints,
} from './kyc/basic.ts';
export * from './kyc/review.ts';
export * from './kyc/investor.ts';
export * from './kyc/aml.ts';
export {
  TAX_CHANGE_REPORT_DAYS,
  NO_TIN_REASONS,
  taxFormSchema,
  type TaxFormInput,
  taxStateSchema,
  type TaxState,
  investorEndpoints,
} from './kyc/tax.ts';
export * from './kyc/qualify.ts';
export * from './kyc/residence.ts';
export * from './kyc/terms.ts';
