import type { BasicKycDraft } from '@meridian/contracts/kyc';

/** The basic KYC form's steps and the draft fields each one holds (documents and review hold none). */
export const BASIC_STEPS = [
  { key: 'personal', fields: ['firstName', 'lastName', 'nameChinese', 'dateOfBirth', 'nationality', 'residence'] },
  { key: 'id', fields: ['idType', 'idNumber'] },
  { key: 'address', fields: ['address', 'proofOfAddressDate'] },
  { key: 'documents', fields: [] },
  { key: 'review', fields: [] },
] as const satisfies readonly { key: string; fields: readonly (keyof BasicKycDraft)[] }[];
/** Index of the documents step in {@link BASIC_STEPS}. */
export const DOCUMENTS_STEP = 3;
/** Index of the review step in {@link BASIC_STEPS}. */
export const REVIEW_STEP = 4;
/** Every draft field, in the order of the steps (and of the review). */
export const BASIC_FIELDS: (keyof BasicKycDraft)[] = BASIC_STEPS.flatMap((step) => [...step.fields]);

/** The draft to save from the form's values: the fields holding a string (empty ones are left out). */
export function draftOf(values: Record<string, unknown>): BasicKycDraft {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string')) as BasicKycDraft;
}

/** The index of the first step holding one of the `failing` fields, or -1 when none does. */
export function firstFailingStep(failing: readonly string[]): number {
  return BASIC_STEPS.findIndex((step) => step.fields.some((name: string) => failing.includes(name)));
}
