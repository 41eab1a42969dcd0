import { chainWithdrawalEndpoints } from '@meridian/contracts/chain-withdrawals';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ChainWithdrawalReads } from './chain.withdrawals-read.ts';

/**
 * HTTP routes of the chain module, mounted under /api: the back office's reads of the hot
 * wallet's withdrawals and balance alerts (`admin/chain/*`, role finance) and the user's link to
 * the explorer of one withdrawal (`wallet/withdraw/:id/chain`).
 */
export function chainRoutes(reads: ChainWithdrawalReads) {
  return async (app: FastifyInstance) => {
    registerEndpoints(app, chainWithdrawalEndpoints, {
      listChainWithdrawals: async (request) => reads.list(request.query),
      hotWallet: async () => reads.hotWallet(),
      withdrawalChain: async (request) => reads.ofUser(currentUser(request).userId, Number(request.params.id)),
    });
  };
}
