import { type ApplySuspenseWireBody, fundWireEndpoints, type RecordWireBody } from '@meridian/contracts/fund-wires';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

const refreshed = [adminKeys.wires, adminKeys.dashboard];

/**
 * `POST admin/wires`: a USD wire received on Meridian's account. Its reference credits the pending
 * fund subscription once; an unknown reference (or an amount that differs) goes to suspense.
 * Recording the same bank transaction again answers the first record (`isDuplicate`).
 * @throws ApiError on a refusal (120 names the bad fields in `response.content.fields`).
 */
export async function recordWire(body: RecordWireBody) {
  return unwrap(await adminCall(fundWireEndpoints.recordWire, { body }));
}

/** `POST admin/wires/outgoing/:id/sent`: the redemption's wire went out (an optional note). */
export async function markWireSent(input: { id: string; note: string }) {
  const { id, note } = input;
  const body = note === '' ? {} : { note };
  return unwrap(await adminCall(fundWireEndpoints.markWireSent, { params: { id }, body }));
}

/** `POST admin/wires/outgoing/:id/failed` with the reason: the shares return to the user's current fund. */
export async function markWireFailed(input: { id: string; note: string }) {
  const { id, note } = input;
  return unwrap(await adminCall(fundWireEndpoints.markWireFailed, { params: { id }, body: { note } }));
}

/**
 * `POST admin/wires/:id/apply`: a wire in suspense pays the pending USD subscription of `reference`
 * (same amount), with the operator's note on how they matched.
 * @throws ApiError 171 when the reference names no pending USD subscription of the wire's amount; 170 when decided.
 */
export async function applySuspenseWire(input: { id: string } & ApplySuspenseWireBody) {
  const { id, ...body } = input;
  return unwrap(await adminCall(fundWireEndpoints.applySuspenseWire, { params: { id }, body }));
}

/** `POST admin/wires/:id/return` with the reason: a wire in suspense goes back to its sender. */
export async function returnSuspenseWire(input: { id: string; note: string }) {
  const { id, note } = input;
  return unwrap(await adminCall(fundWireEndpoints.returnSuspenseWire, { params: { id }, body: { note } }));
}

/** Apply-from-suspense mutation of the wires page. */
export function useApplySuspenseWire() {
  return useAdminMutation(applySuspenseWire, refreshed);
}

/** Return-to-sender mutation of the wires page. */
export function useReturnSuspenseWire() {
  return useAdminMutation(returnSuspenseWire, refreshed);
}

/** Record mutation of the wires page; refreshes the wires and the dashboard. */
export function useRecordWire() {
  return useAdminMutation(recordWire, refreshed);
}

/** Mark-sent mutation of the wires page. */
export function useMarkWireSent() {
  return useAdminMutation(markWireSent, refreshed);
}

/** Mark-failed mutation of the wires page. */
export function useMarkWireFailed() {
  return useAdminMutation(markWireFailed, refreshed);
}
