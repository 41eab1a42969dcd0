import { liabilitiesEndpoints, opsLiabilitiesEndpoints } from '@meridian/contracts/liabilities';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { LiabilitiesService } from './liabilities.service.ts';

/**
 * The proof-of-liabilities routes under /api: the public snapshots, the signed-in user's proof, and
 * the operators' comparison with the holdings (`npm run ops -- liabilities compare`).
 */
export function liabilitiesRoutes(options: { liabilities: LiabilitiesService }) {
  const { liabilities } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, liabilitiesEndpoints, {
      getSnapshots: async () => liabilities.snapshots(),
      getProof: async (request) => liabilities.proofFor(currentUser(request).userId, request.query.date),
    });
    registerEndpoints(app, opsLiabilitiesEndpoints, {
      compare: async (request) => liabilities.compare(request.query.date),
    });
  };
}
