import {
  type CardStepTarget,
  type DecideLimitRequestBody,
  opsCardEndpoints,
  type ResolveSuspenseBody,
} from '@meridian/contracts/card-ops';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

const refreshed = [adminKeys.cards];

/**
 * `POST admin/cards/limit-requests/:id/decide`: approve with the limits to apply (card currency;
 * omitted = those requested) or reject; `reply` is the answer to the user.
 * @throws ApiError 219 when already decided; 120 naming `reply` or `limits.*`.
 */
export async function decideLimitRequest(input: { id: number } & DecideLimitRequestBody) {
  const { id, ...body } = input;
  return unwrap(await adminCall(opsCardEndpoints.decideLimitRequest, { params: { id: String(id) }, body }));
}

/**
 * `POST admin/cards/:id/status`: one production step of a physical card.
 * @throws ApiError 220 when the step is not allowed from the card's status.
 */
export async function stepCard(input: { id: number; status: CardStepTarget }) {
  return unwrap(
    await adminCall(opsCardEndpoints.setCardStatus, {
      params: { id: String(input.id) },
      body: { status: input.status },
    }),
  );
}

/** `POST admin/cards/:id/unblock-pin`: lift the block of five wrong PINs. @throws ApiError 221 when not blocked. */
export async function unblockCardPin(id: number) {
  return unwrap(await adminCall(opsCardEndpoints.unblockPin, { params: { id: String(id) } }));
}

/** Decide mutation of the limit requests tab. */
export function useDecideLimitRequest() {
  return useAdminMutation(decideLimitRequest, refreshed);
}

/** Step mutation of the cards tab. */
export function useStepCard() {
  return useAdminMutation(stepCard, refreshed);
}

/** Unblock mutation of the cards tab. */
export function useUnblockCardPin() {
  return useAdminMutation(unblockCardPin, refreshed);
}

/**
 * `POST admin/cards/suspense/:id/resolve`: charge or credit the card the item names, or write it off.
 * @throws ApiError 222 when already resolved; 223 when no card matches (write off instead); 130 when
 *   the card's balance is below a clearing; 120 naming `note`.
 */
export async function resolveCardSuspense(input: { id: number } & ResolveSuspenseBody) {
  const { id, ...body } = input;
  return unwrap(await adminCall(opsCardEndpoints.resolveSuspense, { params: { id: String(id) }, body }));
}

/** Resolve mutation of the suspense tab. */
export function useResolveCardSuspense() {
  return useAdminMutation(resolveCardSuspense, refreshed);
}
