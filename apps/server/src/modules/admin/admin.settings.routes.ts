import { backOfficeSettingsEndpoints, type SettingChange } from '@meridian/contracts/back-office-settings';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ProductSettings } from './admin.settings.ts';

/** The state every decided change had before its decision: proposed, undecided. */
function asProposed(change: SettingChange): SettingChange {
  return { ...change, status: 'proposed', decidedBy: null, decidedAt: null };
}

/**
 * Products and settings of the back office, registered from `backOfficeSettingsEndpoints`
 * (`/api/admin/settings/…`; reads for any operator, writes for admins). Each write notes its target
 * and before/after for the audit hook; a PUT's `after` also lists the fee or spread it proposed.
 */
export function backOfficeSettingsRoutes(settings: ProductSettings) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeSettingsEndpoints, {
      listNetworkSettings: async () => settings.listNetworks(),
      listPairSettings: async () => settings.listPairs(),
      listSettingChanges: async (request) => settings.listChanges(request.query),
      updateNetworkSetting: async (request) => {
        const { coin, network } = request.params;
        noteAudit(request, { targetType: 'network', targetId: `${coin}/${network}` });
        const { before, setting, proposed } = await settings.updateNetwork(
          currentOperator(request),
          coin,
          network,
          request.body,
        );
        noteAudit(request, { before, after: { ...setting, proposed } });
        return { setting, proposed };
      },
      updatePairSetting: async (request) => {
        noteAudit(request, { targetType: 'pair', targetId: request.params.pair });
        const { before, setting, proposed } = await settings.updatePair(
          currentOperator(request),
          request.params.pair,
          request.body,
        );
        noteAudit(request, { before, after: { ...setting, proposed } });
        return { setting, proposed };
      },
      approveSettingChange: async (request) => {
        noteAudit(request, { targetType: 'settingChange', targetId: request.params.id });
        const change = await settings.approve(currentOperator(request), request.params.id);
        noteAudit(request, { before: asProposed(change), after: change });
        return change;
      },
      rejectSettingChange: async (request) => {
        noteAudit(request, { targetType: 'settingChange', targetId: request.params.id });
        const change = await settings.reject(currentOperator(request), request.params.id);
        noteAudit(request, { before: asProposed(change), after: change });
        return change;
      },
    });
  };
}
