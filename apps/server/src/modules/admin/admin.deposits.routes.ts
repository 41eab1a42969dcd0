import { backOfficeDepositEndpoints, type OpsDeposit } from '@meridian/contracts/back-office';
import type { AssetCode } from '@meridian/contracts/money';
import type { Page } from '@meridian/contracts/pagination';
import type { FastifyInstance } from 'fastify';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';

/** What the deposits list needs: the wallet's deposits, the identity module's emails. */
export interface BackOfficeDepositDeps {
  wallet: Pick<WalletService, 'listDepositsForOperators'>;
  identity: Pick<IdentityService, 'emailsOf'>;
}

/**
 * `GET admin/deposits`: the wallet's page of deposits, newest first, by
 * status and coin, with each owner's email from the identity module (null for an unknown user).
 */
export async function listDeposits(
  deps: BackOfficeDepositDeps,
  query: { pageID: number; pageSize: number; status?: OpsDeposit['status'] | undefined; coin?: AssetCode | undefined },
): Promise<Page<OpsDeposit>> {
  const page = await deps.wallet.listDepositsForOperators({
    pageID: query.pageID,
    pageSize: query.pageSize,
    status: query.status,
    coinCode: query.coin,
  });
  const emails = await deps.identity.emailsOf(page.list.map((row) => row.userId));
  return { ...page, list: page.list.map((row) => ({ ...row, userEmail: emails.get(row.userId) ?? null })) };
}

/**
 * The back office's deposits list (`backOfficeDepositEndpoints`), mounted under /api: read by
 * finance, compliance, support and admin (roles checked from the descriptor). Read only.
 */
export function backOfficeDepositRoutes(deps: BackOfficeDepositDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeDepositEndpoints, {
      listDeposits: async (request) => listDeposits(deps, request.query),
    });
  };
}
