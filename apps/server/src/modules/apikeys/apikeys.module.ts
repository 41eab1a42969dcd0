import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import { createWindowStore } from '../../platform/ratelimit/window-store.ts';
import { readOrCreateSecret } from '../../platform/security/secrets.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { FreezeLinkService } from './apikeys.freeze.ts';
import { apiKeyRoutes } from './apikeys.routes.ts';
import { ApiKeyService } from './apikeys.service.ts';

/** What `buildApp` hands the API-key module. */
export interface ApiKeysModuleDeps {
  config: Config;
  database: Database;
  identity: IdentityService;
  wallet: Pick<WalletService, 'cancelPendingWithdrawals'>;
  /** Key prefix of the replay cache and per-key limits in Redis (tests share one server). */
  nameSpace?: string;
  /** The app's clock, in milliseconds since the epoch (signed requests' timestamps are checked against it). */
  now: () => number;
}

/**
 * Wire the developer API (docs/api.md) and the freeze links (docs/freeze-links.md):
 * routes `user/apiKeys*` and `user/freeze`; the service is also the `ApiKeyAuthProvider` handed to
 * `registerAuth`. Unbinding the authenticator revokes the user's keys (a security-event listener).
 * `stop` closes the replay cache's Redis connection.
 */
export function createApiKeysModule(
  deps: ApiKeysModuleDeps,
): AppModule<ApiKeyService> & { freezeLinks: FreezeLinkService } {
  const { config } = deps;
  const vaultKey =
    config.apiKeyVaultKey ??
    (config.database.kind === 'memory'
      ? randomBytes(48).toString('base64url')
      : readOrCreateSecret(config.dataDir, 'api-key-vault-key'));
  const store = createWindowStore(config.redisUrl, `${deps.nameSpace ?? 'meridian-'}apikey-`);
  const service = new ApiKeyService({
    db: deps.database.db,
    vaultKey,
    identity: deps.identity,
    store,
    requestsPerMinute: config.apiKeyRequestsPerMinute,
    now: deps.now,
  });
  deps.identity.addSecurityEventListener(async (event) => {
    if (event.kind === 'mfa.unbound') await service.revokeAll(event.userId, 'mfa_off');
  });
  const freezeLinks = new FreezeLinkService({ identity: deps.identity, apiKeys: service, wallet: deps.wallet });
  return {
    service,
    freezeLinks,
    routes: apiKeyRoutes({ apiKeys: service, freezeLinks }),
    jobs: [],
    stop: async () => store.close(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Developer API keys (tests). */
    apiKeys: ApiKeyService;
  }
}
