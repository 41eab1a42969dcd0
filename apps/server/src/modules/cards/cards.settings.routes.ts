import { cardSettingsEndpoints } from '@meridian/contracts/card-settings';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { CardSettingsService } from './cards.settings.ts';

/**
 * The back office's card settings under /api (`cardSettingsEndpoints`, `admin/card-settings*`):
 * any operator reads, an admin writes. Each handler notes target, before and after for the audit
 * log: `card-settings` / issuing | top-up | limits:<currency> for
 * the immediate changes, `card-setting-change` / <id> for the fee and rate-table proposals and their
 * decisions (an approval's before and after are the values it replaced and set).
 */
export function cardSettingsRoutes(settings: CardSettingsService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, cardSettingsEndpoints, {
      getCardSettings: async () => settings.view(),
      updateCardIssuing: async (request) => {
        const { before, after, settings: view } = await settings.updateIssuing(request.body);
        noteAudit(request, { targetType: 'card-settings', targetId: 'issuing', before, after });
        return view;
      },
      updateCardTopUp: async (request) => {
        const { before, after, settings: view } = await settings.updateTopUp(request.body);
        noteAudit(request, { targetType: 'card-settings', targetId: 'top-up', before, after });
        return view;
      },
      updateCardLimits: async (request) => {
        const { currency } = request.params;
        const { before, after, settings: view } = await settings.updateLimits(currency, request.body);
        noteAudit(request, { targetType: 'card-settings', targetId: `limits:${currency}`, before, after });
        return view;
      },
      proposeCardFxRates: async (request) => {
        const change = await settings.proposeFxRates(currentOperator(request), request.body);
        noteAudit(request, {
          targetType: 'card-setting-change',
          targetId: String(change.id),
          before: change.before,
          after: change.after,
        });
        return change;
      },
      proposeCardFees: async (request) => {
        const change = await settings.propose(currentOperator(request), request.body);
        noteAudit(request, {
          targetType: 'card-setting-change',
          targetId: String(change.id),
          before: change.before,
          after: change.after,
        });
        return change;
      },
      approveCardSettingChange: async (request) => {
        noteAudit(request, { targetType: 'card-setting-change', targetId: String(request.params.id) });
        const change = await settings.approve(currentOperator(request), request.params.id);
        noteAudit(request, { before: change.before, after: change.after });
        return change;
      },
      rejectCardSettingChange: async (request) => {
        noteAudit(request, { targetType: 'card-setting-change', targetId: String(request.params.id) });
        const change = await settings.reject(currentOperator(request), request.params.id);
        noteAudit(request, { before: { status: 'proposed' }, after: { status: change.status } });
        return change;
      },
    });
  };
}
