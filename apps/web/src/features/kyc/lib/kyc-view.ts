import {
  AML_STATUSES,
  type AmlState,
  type BasicKycState,
  type InvestorState,
  KYC_STATUS,
  type TaxState,
} from '@meridian/contracts/kyc';

/** The state of one step as the overview shows it. */
export type StepState = 'todo' | 'draft' | 'review' | 'done' | 'failed' | 'locked';

/** A reviewed step's state (`KYC_STATUS`); `hasDraft` tells a started form from an untouched one. */
export function reviewedStepState(
  state: Pick<BasicKycState | InvestorState, 'status' | 'draft'> | undefined,
): StepState {
  if (!state) return 'todo';
  if (state.status === KYC_STATUS.VERIFIED) return 'done';
  if (state.status === KYC_STATUS.UNDER_REVIEW) return 'review';
  if (state.status === KYC_STATUS.FAILED) return 'failed';
  return Object.keys(state.draft).length > 0 ? 'draft' : 'todo';
}

/** The AML step: accepted is done, enhanced review is under review, rejected failed (docs/kyc.md). */
export function amlStepState(state: AmlState | undefined): StepState {
  const status = state?.current?.status;
  if (status === AML_STATUSES[0]) return 'done';
  if (status === AML_STATUSES[1]) return 'review';
  if (status === AML_STATUSES[2]) return 'failed';
  return 'todo';
}

/** The tax step: done when a form is on file. */
export function taxStepState(state: TaxState | undefined): StepState {
  return state?.current ? 'done' : 'todo';
}

/**
 * A `returnTo` query value that is safe to navigate to: a path of this site (starting with one `/`),
 * else null — never another origin (`//evil`, `https:`).
 */
export function safeReturnTo(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
