import { adminEndpoints } from '@meridian/contracts/admin';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

const refreshed = [adminKeys.withdrawals, adminKeys.dashboard];

/** `POST admin/withdrawals/:id/approve`: the second approval of a large withdrawal. */
export async function approveWithdrawal(id: string) {
  return unwrap(await adminCall(adminEndpoints.approveWithdrawal, { params: { id } }));
}

/** `POST admin/withdrawals/:id/process`: 0 waiting → 1 processing. */
export async function processWithdrawal(id: string) {
  return unwrap(await adminCall(adminEndpoints.processWithdrawal, { params: { id } }));
}

/** `POST admin/withdrawals/:id/complete` with the chain transaction that paid it: 1 → 2 success. */
export async function completeWithdrawal(input: { id: string; txHash: string }) {
  const { id, txHash } = input;
  return unwrap(await adminCall(adminEndpoints.completeWithdrawal, { params: { id }, body: { txHash } }));
}

/** `POST admin/withdrawals/:id/fail` with the reason shown to the user: 0/1 → 3, funds returned. */
export async function failWithdrawal(input: { id: string; reason: string }) {
  const { id, reason } = input;
  return unwrap(await adminCall(adminEndpoints.failWithdrawal, { params: { id }, body: { reason } }));
}

/** Second-approval mutation of the withdrawals page. */
export function useApproveWithdrawal() {
  return useAdminMutation(approveWithdrawal, refreshed);
}

/** Process mutation of the withdrawals page. */
export function useProcessWithdrawal() {
  return useAdminMutation(processWithdrawal, refreshed);
}

/** Complete mutation of the withdrawals page. */
export function useCompleteWithdrawal() {
  return useAdminMutation(completeWithdrawal, refreshed);
}

/** Fail mutation of the withdrawals page. */
export function useFailWithdrawal() {
  return useAdminMutation(failWithdrawal, refreshed);
}
