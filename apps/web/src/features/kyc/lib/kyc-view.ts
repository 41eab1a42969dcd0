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
 * A `returnTo` query value that is safe to navigate to: a path of this site (starting with one `/`),
 * else null — never another origin (`//evil`, `https:`).
 */
export function safeReturnTo(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/**
 * The level at which each step opens, as the server's gates read it
 * (docs/decisions/0011-verification-level.md, docs/kyc.md): basic KYC for everyone, the investor
 * profile, AML questions and tax form from level 1, the qualified-investor application from level 2.
 */
export const STEP_LEVEL_MIN = { basic: 0, investor: 1, aml: 1, tax: 1, qualified: 2 } as const satisfies Record<
  string,
  KycLevel
>;

/** A step of identity verification. */
export type KycStep = keyof typeof STEP_LEVEL_MIN;

/** Whether a user at `level` (undefined while loading: read as 0) can open `step`. */
export function isStepOpen(step: KycStep, level: KycLevel | undefined): boolean {
  return (level ?? 0) >= STEP_LEVEL_MIN[step];
}

/** A step's state on the overview: `locked` until the user's level opens it. */
export function overviewStepState(step: KycStep, level: KycLevel | undefined, state: StepState): StepState {
  return isStepOpen(step, level) ? state : 'locked';
}
