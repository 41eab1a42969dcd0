import { createHash, randomBytes } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import {
  API_KEY_REQUESTS_PER_MINUTE,
  API_KEYS_PER_USER_MAX,
  API_RECV_WINDOW_MS,
  type ApiKey,
  type CreatedApiKey,
  HEADER_API_KEY,
  HEADER_API_SIGNATURE,
  HEADER_API_TIMESTAMP,
} from '@meridian/contracts/api-keys';
import { type BusinessCodeName, businessMessage } from '@meridian/contracts/codes';
import type { ApiKeyScope } from '@meridian/contracts/endpoint';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/client.ts';
import type { ApiKeyAuthProvider, PendingApiKeyRequest, SensitiveAction } from '../../platform/http/auth.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { WindowStore } from '../../platform/ratelimit/window-store.ts';
import { isValidApiSignature, isWithinRecvWindow } from '../../platform/security/request-signing.ts';
import { SecretBox } from '../../platform/security/secret-box.ts';
import type { IdentityService, RequestMeta } from '../identity/identity.service.ts';
import { apiKeys } from './apikeys.tables.ts';

/** What the API-key service needs. */
export interface ApiKeyServiceDeps {
  db: Db;
  /** API_KEY_VAULT_KEY: seals the HMAC secrets at rest. */
  vaultKey: string;
  identity: Pick<IdentityService, 'apiKeyOwner' | 'assertNotFrozen' | 'audit'>;
  /** Replay cache and per-key rate limits (Redis when REDIS_URL is set, memory otherwise). */
  store: WindowStore;
  /** Signed requests one key may make per minute (API_KEY_REQUESTS_PER_MINUTE, default `API_KEY_REQUESTS_PER_MINUTE` of the contracts). */
  requestsPerMinute?: number;
  now: () => number;
}

/** Why a key stopped working. */
export type ApiKeyRevocation = 'deleted' | 'mfa_off' | 'freeze_link';

const KEY_ID_PATTERN = /^mk_[A-Za-z0-9_-]{24}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Whether `ip` is in `allowlist` (addresses or CIDR ranges); an empty list allows every IP. */
export function isIpAllowed(ip: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowlist) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address ?? '') ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  const plain = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
}

function toApiKey(row: typeof apiKeys.$inferSelect): ApiKey {
  return {
    id: row.id,
    label: row.label,
    keyPrefix: row.keyPrefix,
    scopes: row.scopes as ApiKeyScope[],
    ipAllowlist: row.ipAllowlist,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
  };
}

/**
 * Developer API keys (docs/api.md): a user's keys with scopes and an IP
 * allowlist, and the signed-request check the platform's auth hook calls (`ApiKeyAuthProvider`).
 * A key works only while its owner has the authenticator bound; unbinding it, deleting the key or
 * the freeze link revokes it.
 */
export class ApiKeyService implements ApiKeyAuthProvider {
  private readonly secrets: SecretBox;

  constructor(private readonly deps: ApiKeyServiceDeps) {
    this.secrets = new SecretBox(deps.vaultKey, 'api-key-secret');
  }

  /** `GET user/apiKeys`: the user's live keys, newest first. */
  async list(userId: string): Promise<ApiKey[]> {
    const rows = await this.deps.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt));
    return rows.map(toApiKey);
  }

  /**
   * `POST user/apiKeys` (security check API_KEY_CREATE: the authenticator code always): make a key
   * id and secret, keep the id's hash and the sealed secret, answer both once. Audit row
   * `api_key.created` (a security event: the user is messaged and mailed, with a freeze link).
   * @throws DomainError ACCOUNT_FROZEN (152), API_KEY_LIMIT_REACHED (277); the factor check's errors.
   */
  async create(
    userId: string,
    body: { label: string; scopes: ApiKeyScope[]; ipAllowlist: string[] },
    factors: SensitiveAction,
    meta: RequestMeta,
  ): Promise<CreatedApiKey> {
    await this.deps.identity.assertNotFrozen(userId);
    const [live] = await this.deps.db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if ((live?.n ?? 0) >= API_KEYS_PER_USER_MAX)
      throw new DomainError('API_KEY_LIMIT_REACHED', { max: API_KEYS_PER_USER_MAX });
    await factors.check();
    const keyId = `mk_${randomBytes(18).toString('base64url')}`;
    const secret = randomBytes(32).toString('base64url');
    const row = await this.deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(apiKeys)
        .values({
          userId,
          label: body.label,
          keyIdHash: sha256(keyId),
          keyPrefix: keyId.slice(0, 8),
          secretSealed: this.secrets.seal(secret),
          scopes: [...body.scopes],
          ipAllowlist: [...body.ipAllowlist],
        })
        .returning();
      await factors.consume(tx);
      return created!;
    });
    await this.deps.identity.audit(userId, 'api_key.created', meta, {
      keyPrefix: row.keyPrefix,
      scopes: row.scopes,
      ipAllowlist: row.ipAllowlist,
    });
    return { ...toApiKey(row), apiKey: keyId, secret };
  }

  /**
   * `DELETE user/apiKeys/:id`: the key stops working at once. Audit row `api_key.deleted`.
   * @throws DomainError NOT_FOUND (not the user's, or already gone).
   */
  async remove(userId: string, id: string, meta: RequestMeta): Promise<void> {
    const [gone] = await this.deps.db
      .update(apiKeys)
      .set({ revokedAt: new Date(this.deps.now()), revokedReason: 'deleted' })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ keyPrefix: apiKeys.keyPrefix });
    if (!gone) throw new DomainError('NOT_FOUND');
    await this.deps.identity.audit(userId, 'api_key.deleted', meta, { keyPrefix: gone.keyPrefix });
  }

  /** Revoke every live key of `userId` (authenticator unbound, freeze link). @returns how many. */
  async revokeAll(userId: string, reason: ApiKeyRevocation): Promise<number> {
    const revoked = await this.deps.db
      .update(apiKeys)
      .set({ revokedAt: new Date(this.deps.now()), revokedReason: reason })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return revoked.length;
  }

  /** A refusal of a signed request, naming the header at fault in the caller's language. */
  private refuse(
    request: FastifyRequest,
    code: BusinessCodeName,
    field: string,
    params: Record<string, string | number> = {},
  ): DomainError {
    const message = businessMessage(code, requestLocale(request), params);
    return new DomainError(code, params, { fields: [{ field, message }] });
  }

  /** See `ApiKeyAuthProvider.authenticateKey` (platform/http/auth.ts). */
  async authenticateKey(request: FastifyRequest, scope: ApiKeyScope): Promise<PendingApiKeyRequest> {
    const header = (name: string) => {
      const value = request.headers[name.toLowerCase()];
      return typeof value === 'string' ? value : '';
    };
    const keyId = header(HEADER_API_KEY);
    const timestamp = header(HEADER_API_TIMESTAMP);
    const signature = header(HEADER_API_SIGNATURE);
    if (!KEY_ID_PATTERN.test(keyId)) throw this.refuse(request, 'API_KEY_INVALID', HEADER_API_KEY);
    const [key] = await this.deps.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyIdHash, sha256(keyId)), isNull(apiKeys.revokedAt)));
    if (!key) throw this.refuse(request, 'API_KEY_INVALID', HEADER_API_KEY);
    // Keys work only while the authenticator is on: unbinding it switches them off.
    const owner = await this.deps.identity.apiKeyOwner(key.userId);
    if (!owner?.isActive || !owner.hasTotp) throw this.refuse(request, 'API_KEY_INVALID', HEADER_API_KEY);
    const nowMs = this.deps.now();
    if (!isWithinRecvWindow(timestamp, nowMs, API_RECV_WINDOW_MS))
      throw this.refuse(request, 'API_TIMESTAMP_OUTSIDE_WINDOW', HEADER_API_TIMESTAMP, {
        windowMs: API_RECV_WINDOW_MS,
      });
    if (!isIpAllowed(request.ip, key.ipAllowlist))
      throw this.refuse(request, 'API_IP_NOT_ALLOWED', HEADER_API_KEY, { ip: request.ip });
    if (!key.scopes.includes(scope)) throw this.refuse(request, 'API_SCOPE_MISSING', HEADER_API_KEY, { scope });
    const secret = this.secrets.open(key.secretSealed);
    return {
      auth: {
        userId: key.userId,
        sessionId: '',
        kycLevel: owner.kycLevel,
        apiKey: { id: key.id, scopes: key.scopes as ApiKeyScope[] },
      },
      verifySignature: async (rawBody) => {
        const parts = { timestamp, method: request.method, requestTarget: request.url, body: rawBody };
        if (!isValidApiSignature(secret, parts, signature))
          throw this.refuse(request, 'API_SIGNATURE_INVALID', HEADER_API_SIGNATURE);
        // A signature is good once: a replay inside (twice) the window is refused.
        if (!(await this.deps.store.claimOnce(`sig:${signature}`, 2 * API_RECV_WINDOW_MS)))
          throw this.refuse(request, 'API_REQUEST_REPLAYED', HEADER_API_SIGNATURE);
        const { count: hits, msLeft } = await this.deps.store.hit(`key:${key.id}`, 60_000);
        if (hits > (this.deps.requestsPerMinute ?? API_KEY_REQUESTS_PER_MINUTE))
          throw new DomainError('RATE_LIMITED', { seconds: Math.ceil(msLeft / 1000) });
        await this.deps.db
          .update(apiKeys)
          .set({ lastUsedAt: new Date(nowMs), lastUsedIp: request.ip })
          .where(eq(apiKeys.id, key.id));
      },
    };
  }
}
