import {
  backOfficeSettingsEndpoints,
  type SettingChangeStatus,
  type UpdateNetworkSettingBody,
  type UpdatePairSettingBody,
} from '@meridian/contracts/back-office-settings';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** Query keys of the product settings (under `admin`, forgotten at sign-out). */
export const settingsKeys = {
  networks: ['admin', 'settings', 'networks'] as const,
  pairs: ['admin', 'settings', 'pairs'] as const,
  changes: ['admin', 'settings', 'changes'] as const,
};
const ALL_SETTINGS = [settingsKeys.networks, settingsKeys.pairs, settingsKeys.changes];

/** `GET admin/settings/networks`: every coin network (amounts as decimal strings of the coin). */
export function useNetworkSettings() {
  return useQuery({
    queryKey: settingsKeys.networks,
    queryFn: () => adminFetch(backOfficeSettingsEndpoints.listNetworkSettings, {}),
  });
}

/** `GET admin/settings/pairs`: every swap pair (spread in basis points, limits in the `from` coin). */
export function usePairSettings() {
  return useQuery({
    queryKey: settingsKeys.pairs,
    queryFn: () => adminFetch(backOfficeSettingsEndpoints.listPairSettings, {}),
  });
}

/** `GET admin/settings/changes?status=`: fee and spread changes, newest first. */
export function useSettingChanges(status?: SettingChangeStatus) {
  return useQuery({
    queryKey: [...settingsKeys.changes, status ?? 'all'],
    queryFn: () => adminFetch(backOfficeSettingsEndpoints.listSettingChanges, { query: { status } }),
  });
}

/** `PUT admin/settings/networks/:coin/:network` (admin): a fee change is proposed, the rest applies at once. */
export function useUpdateNetworkSetting() {
  return useAdminMutation(
    async (input: { coin: string; network: string; body: UpdateNetworkSettingBody }) =>
      unwrap(
        await adminCall(backOfficeSettingsEndpoints.updateNetworkSetting, {
          params: { coin: input.coin as never, network: input.network },
          body: input.body,
        }),
      ),
    ALL_SETTINGS,
  );
}

/** `PUT admin/settings/pairs/:pair` (admin; `FROM/TO` sent as `FROM-TO`): a spread change is proposed. */
export function useUpdatePairSetting() {
  return useAdminMutation(
    async (input: { pair: string; body: UpdatePairSettingBody }) =>
      unwrap(
        await adminCall(backOfficeSettingsEndpoints.updatePairSetting, {
          params: { pair: input.pair.replace('/', '-') },
          body: input.body,
        }),
      ),
    ALL_SETTINGS,
  );
}

/** `POST admin/settings/changes/:id/approve|reject` (admin; approve not by the proposer). */
export function useDecideSettingChange() {
  return useAdminMutation(
    async (input: { id: number; decision: 'approve' | 'reject' }) =>
      unwrap(
        await adminCall(
          input.decision === 'approve'
            ? backOfficeSettingsEndpoints.approveSettingChange
            : backOfficeSettingsEndpoints.rejectSettingChange,
          { params: { id: input.id } },
        ),
      ),
    ALL_SETTINGS,
  );
}
