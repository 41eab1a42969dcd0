import { opsKycEndpoints, opsKycStepEndpoints } from '@meridian/contracts/kyc';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** The steps decided through `admin/kyc/:userId/:step/...`; basic KYC has its own calls. */
export type LaterKycStep = 'investor' | 'aml' | 'qualified' | 'residence';
export type ReviewStep = 'basic' | LaterKycStep;

/** The descriptor an approval of `step` calls (the page hides the button with the same one). */
export function approveDescriptorOf(step: ReviewStep) {
  return step === 'basic' ? opsKycEndpoints.approve : opsKycStepEndpoints.approveStep;
}

/** The descriptor a rejection of `step` calls. */
export function rejectDescriptorOf(step: ReviewStep) {
  return step === 'basic' ? opsKycEndpoints.reject : opsKycStepEndpoints.rejectStep;
}

/** `POST admin/kyc/:userId/approve` (basic) or `admin/kyc/:userId/:step/approve`. */
export async function approveKyc(input: { userId: string; step: ReviewStep }) {
  const { userId, step } = input;
  if (step === 'basic') return unwrap(await adminCall(opsKycEndpoints.approve, { params: { userId } }));
  return unwrap(await adminCall(opsKycStepEndpoints.approveStep, { params: { userId, step } }));
}

/** `POST admin/kyc/:userId/reject` (basic) or `admin/kyc/:userId/:step/reject`, with the reason shown to the user. */
export async function rejectKyc(input: { userId: string; step: ReviewStep; reason: string }) {
  const { userId, step, reason } = input;
  if (step === 'basic')
    return unwrap(await adminCall(opsKycEndpoints.reject, { params: { userId }, body: { reason } }));
  return unwrap(await adminCall(opsKycStepEndpoints.rejectStep, { params: { userId, step }, body: { reason } }));
}

/** Approve mutation of the review page; refreshes the queue and the review. */
export function useApproveKyc() {
  return useAdminMutation(approveKyc, [adminKeys.kyc, adminKeys.dashboard]);
}

/** Reject mutation of the review page. */
export function useRejectKyc() {
  return useAdminMutation(rejectKyc, [adminKeys.kyc, adminKeys.dashboard]);
}
