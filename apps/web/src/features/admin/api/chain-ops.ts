import { chainOpsEndpoints } from '@meridian/contracts/chain-ops';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** How often the chain page asks for the watcher's state again (head, lag, queues). */
export const CHAIN_STATE_POLL_MS = 10_000;

const refreshed = [adminKeys.chain, adminKeys.dashboard];

/** `GET admin/chain/state`: head block, cursor, lag, pending deposits, review items, unresolved alarms; polled. */
export function useChainState() {
  return useQuery({
    queryKey: adminKeys.chain,
    queryFn: () => adminFetch(chainOpsEndpoints.getState, {}),
    refetchInterval: CHAIN_STATE_POLL_MS,
  });
}

/** `POST admin/chain/review/:id/approve`: the first approval of a large review item. */
export async function approveChainReview(input: { id: number }) {
  return unwrap(await adminCall(chainOpsEndpoints.approveReview, { params: { id: String(input.id) } }));
}

/** `POST admin/chain/review/:id/release` or `…/reject`, with the note. */
export async function decideChainReview(input: { id: number; action: 'release' | 'reject'; note: string }) {
  const endpoint = input.action === 'release' ? chainOpsEndpoints.releaseReview : chainOpsEndpoints.rejectReview;
  return unwrap(await adminCall(endpoint, { params: { id: String(input.id) }, body: { note: input.note } }));
}

/** `POST admin/chain/alarms/:id/acknowledge`. */
export async function acknowledgeChainAlarm(input: { id: number }) {
  return unwrap(await adminCall(chainOpsEndpoints.acknowledgeAlarm, { params: { id: String(input.id) }, body: {} }));
}

/** `POST admin/chain/alarms/:id/resolve` with the resolution and the note. */
export async function resolveChainAlarm(input: { id: number; resolution: 'RELEASE_HOLD' | 'RECOVER'; note: string }) {
  const { id, resolution, note } = input;
  return unwrap(
    await adminCall(chainOpsEndpoints.resolveAlarm, { params: { id: String(id) }, body: { resolution, note } }),
  );
}

/** The chain page's writes, each refreshing the state and the dashboard. */
export function useChainMutations() {
  return {
    approve: useAdminMutation(approveChainReview, refreshed),
    decide: useAdminMutation(decideChainReview, refreshed),
    acknowledge: useAdminMutation(acknowledgeChainAlarm, refreshed),
    resolve: useAdminMutation(resolveChainAlarm, refreshed),
  };
}
