import {
  AML_STATUSES,
  type AmlState,
  type BasicKycState,
  type InvestorState,
  KYC_STATUS,
  type KycLevel,
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
 * The tax step as it counts toward level 2: a form on file, or — after an approved change of
 * country superseded it — the 30 days to file a new one not yet over (the server keeps level 2
 * until then; docs/kyc.md "Change of residence"). `nowMs`: the current time, ms since the epoch.
 */
export function taxLevelState(state: TaxState | undefined, nowMs: number): StepState {
  if (state?.current) return 'done';
  const dueMs = state?.isNewFormRequired && state.newFormDueAt ? Date.parse(state.newFormDueAt) : Number.NaN;
  return dueMs > nowMs ? 'done' : 'todo';
}

/**
 * The level the states give (issue 15 level table): 1 once basic KYC is Verified; 2 when the investor
 * profile is Verified too, the AML answers accepted and a tax form on file. Level 3 is not shown here.
 */
export function levelOf(basic: StepState, investor: StepState, aml: StepState, tax: StepState): KycLevel {
  if (basic !== 'done') return 0;
  return investor === 'done' && aml === 'done' && tax === 'done' ? 2 : 1;
}

/**
 * A `returnTo` query value that is safe to navigate to: a path of this site (starting with one `/`),
 * else null — never another origin (`//evil`, `https:`).
 */
export function safeReturnTo(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
