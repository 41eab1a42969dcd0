import { type AmlAnswersInput, amlAnswersSchema, type AmlState } from '@meridian/contracts/kyc';
import type { FieldPath } from './server-field-errors.ts';

/** The questionnaire's choice lists, read from the contract (the scoring table's own lists). */
const shape = amlAnswersSchema.shape;
export const OCCUPATIONS = shape.occupation.shape.status.options;
export const INDUSTRIES = shape.occupation.shape.industry.options;
export const FUNDS = shape.sourcesOfFunds.element.options;
export const WEALTH = shape.sourcesOfWealth.element.options;
export const VOLUMES = shape.expectedMonthlyVolumeUsdBand.options;
export const PURPOSES = shape.purposes.element.options;

/** The AML form's steps and the field paths each one holds (the review holds none). */
export const AML_STEPS = [
  { key: 'occupation', fields: [['occupation', 'status'], ['occupation', 'industry'], ['employer']] },
  { key: 'funds', fields: [['sourcesOfFunds'], ['sourcesOfWealth'], ['expectedMonthlyVolumeUsdBand'], ['purposes']] },
  { key: 'declarations', fields: [['isPoliticallyExposed'], ['hasSanctionsLinks'], ['sanctionsCountryLinks']] },
  { key: 'review', fields: [] },
] as const satisfies readonly { key: string; fields: readonly FieldPath[] }[];
/** Index of the review step in {@link AML_STEPS}. */
export const AML_REVIEW_STEP = 3;
/** The form's top-level fields a server refusal may name. */
export const AML_FORM_ROOTS = [
  'occupation',
  'employer',
  'sourcesOfFunds',
  'sourcesOfWealth',
  'expectedMonthlyVolumeUsdBand',
  'purposes',
  'isPoliticallyExposed',
  'sanctionsCountryLinks',
];

/** The form's values: the answers, plus whether there are links to sanctioned countries at all. */
export type AmlValues = Partial<AmlAnswersInput> & { hasSanctionsLinks?: boolean };

/** The form's starting values: the current answers when there are some (to answer again), else none. */
export function initialAmlValues(state: AmlState): AmlValues {
  const previous = (state.current?.answers ?? {}) as Partial<AmlAnswersInput>;
  return state.current ? { ...previous, hasSanctionsLinks: (previous.sanctionsCountryLinks ?? []).length > 0 } : {};
}

/**
 * The answers to send from the form's values: the employer trimmed, missing lists empty, and no
 * sanctioned countries unless the answer to "links to sanctioned countries" is yes.
 */
export function amlAnswersOf(values: AmlValues): AmlAnswersInput {
  return {
    occupation: values.occupation,
    employer: (values.employer ?? '').trim(),
    sourcesOfFunds: values.sourcesOfFunds ?? [],
    sourcesOfWealth: values.sourcesOfWealth ?? [],
    expectedMonthlyVolumeUsdBand: values.expectedMonthlyVolumeUsdBand,
    purposes: values.purposes ?? [],
    isPoliticallyExposed: values.isPoliticallyExposed,
    sanctionsCountryLinks: values.hasSanctionsLinks ? (values.sanctionsCountryLinks ?? []) : [],
  } as AmlAnswersInput;
}

/** The index of the step holding the field whose path starts with `root`, or -1 when none does. */
export function amlStepOf(root: string): number {
  return AML_STEPS.findIndex((step) => step.fields.some((path: readonly string[]) => path[0] === root));
}
