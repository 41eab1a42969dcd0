import { backOfficeAdjustmentEndpoints } from '@meridian/contracts/back-office';
import type { z } from 'zod';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type ProposeAdjustmentInput = z.input<typeof backOfficeAdjustmentEndpoints.proposeAdjustment.body>;
const refreshed = [adminKeys.adjustments, adminKeys.dashboard];

/** `POST admin/adjustments`: a balanced entry with a reason, waiting for a second finance operator. */
export async function proposeAdjustment(body: ProposeAdjustmentInput) {
  return unwrap(await adminCall(backOfficeAdjustmentEndpoints.proposeAdjustment, { body }));
}

/** `POST admin/adjustments/:id/approve`: posts it (never by its proposer). */
export async function approveAdjustment(id: number) {
  return unwrap(await adminCall(backOfficeAdjustmentEndpoints.approveAdjustment, { params: { id } }));
}

/** `POST admin/adjustments/:id/reject` with a reason. */
export async function rejectAdjustment(input: { id: number; reason: string }) {
  const { id, reason } = input;
  return unwrap(await adminCall(backOfficeAdjustmentEndpoints.rejectAdjustment, { params: { id }, body: { reason } }));
}

/** Propose mutation of the adjustments page. */
export function useProposeAdjustment() {
  return useAdminMutation(proposeAdjustment, refreshed);
}

/** Approve mutation of the adjustments page. */
export function useApproveAdjustment() {
  return useAdminMutation(approveAdjustment, refreshed);
}

/** Reject mutation of the adjustments page. */
export function useRejectAdjustment() {
  return useAdminMutation(rejectAdjustment, refreshed);
}
