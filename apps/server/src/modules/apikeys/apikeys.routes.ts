import { apiKeyEndpoints } from '@meridian/contracts/api-keys';
import { freezeLinkEndpoints } from '@meridian/contracts/freeze-links';
import { isLocale } from '@meridian/contracts/locale';
import { HEADER_USER_LANG } from '@meridian/contracts/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import { perIpLimit } from '../../platform/ratelimit/rate-limit.ts';
import type { RequestMeta } from '../identity/identity.service.ts';
import type { FreezeLinkService } from './apikeys.freeze.ts';
import type { ApiKeyService } from './apikeys.service.ts';

/** The identity audit log's view of a request. */
function metaOf(request: FastifyRequest): RequestMeta {
  const header = request.headers[HEADER_USER_LANG.toLowerCase()];
  return {
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    locale: isLocale(header) ? header : requestLocale(request),
    deviceId: null,
  };
}

/**
 * Routes under /api: the user's API keys (`user/apiKeys`, sessions only) and the public freeze link
 * (`POST user/freeze`, limited per IP: a token is 256 random bits, the limit only keeps scanners out).
 */
export function apiKeyRoutes(options: { apiKeys: ApiKeyService; freezeLinks: FreezeLinkService }) {
  const { apiKeys, freezeLinks } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, apiKeyEndpoints, {
      list: async (request) => apiKeys.list(currentUser(request).userId),
      create: async (request) =>
        apiKeys.create(currentUser(request).userId, request.body, sensitiveActionOf(request), metaOf(request)),
      remove: async (request) => {
        await apiKeys.remove(currentUser(request).userId, request.params.id, metaOf(request));
        return null;
      },
    });
    registerEndpoints(app, freezeLinkEndpoints, {
      freeze: [
        async (request) => freezeLinks.freeze(request.body.token, metaOf(request)),
        { rateLimit: perIpLimit(20, 60_000) },
      ],
    });
  };
}
