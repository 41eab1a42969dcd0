import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

const refreshed = [adminKeys.screening, adminKeys.dashboard];

/** `POST admin/screening/alerts/:id/release`: cleared; a frozen deposit is credited (once). The note is optional. */
export async function releaseScreeningAlert(input: { id: string; note: string }) {
  const note = input.note.trim();
  const body = note ? { note } : {};
  return unwrap(await adminCall(opsWalletEndpoints.releaseScreeningAlert, { params: { id: input.id }, body }));
}

/** `POST admin/screening/alerts/:id/confirm`: the hit stands; why is required. */
export async function confirmScreeningAlert(input: { id: string; note: string }) {
  const { id, note } = input;
  return unwrap(await adminCall(opsWalletEndpoints.confirmScreeningAlert, { params: { id }, body: { note } }));
}

/** Release mutation of the screening page. */
export function useReleaseScreeningAlert() {
  return useAdminMutation(releaseScreeningAlert, refreshed);
}

/** Confirm mutation of the screening page. */
export function useConfirmScreeningAlert() {
  return useAdminMutation(confirmScreeningAlert, refreshed);
}
