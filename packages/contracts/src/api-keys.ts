import { z } from 'zod';
import { uuidString } from './limits.ts';
import { API_KEY_SCOPES, defineEndpoint } from './endpoint.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Developer API keys (docs/api.md). A user creates keys with scopes
 * (`read`, `trade`, `withdraw`), an optional IP allowlist, after the security check with the
 * authenticator (event API_KEY_CREATE). A machine then calls the routes whose descriptor names an
 * `apiKeyScope`, signing each request with HMAC-SHA256 (the key's secret) over
 *
 *     canonical = timestamp + METHOD + requestTarget + body
 *
 * - `timestamp`: milliseconds since the Unix epoch as decimal digits (also sent in `X-MERIDIAN-TIMESTAMP`);
 *   refused when more than `API_RECV_WINDOW_MS` from the server's clock;
 * - `METHOD`: upper case (`GET`, `POST`);
 * - `requestTarget`: the path and, when there is one, `?` and the query string exactly as sent
 *   (`/api/wallet/records?pageID=1&pageSize=10`);
 * - `body`: the raw body text exactly as sent (empty for none).
 *
 * The signature is lower-case hex in `X-MERIDIAN-SIGNATURE`; the key in `X-MERIDIAN-APIKEY`. A
 * signature is accepted once (replays within the window are refused).
 */

/** Header carrying the public key id (`mk_…`). */
export const HEADER_API_KEY = 'X-MERIDIAN-APIKEY';
/** Header carrying the request's timestamp in milliseconds since the epoch. */
export const HEADER_API_TIMESTAMP = 'X-MERIDIAN-TIMESTAMP';
/** Header carrying the hex HMAC-SHA256 of the canonical string. */
export const HEADER_API_SIGNATURE = 'X-MERIDIAN-SIGNATURE';
/** How far (either way) a request's timestamp may be from the server's clock (the large exchanges' recvWindow). */
export const API_RECV_WINDOW_MS = 5_000;
/** Keys one user may keep. */
export const API_KEYS_PER_USER_MAX = 10;
/** Entries of one key's IP allowlist. */
export const API_KEY_IPS_MAX = 10;
/** Signed requests one key may make per minute (then 108 with Retry-After). */
export const API_KEY_REQUESTS_PER_MINUTE = 600;

/**
 * The string a request's signature covers (see the file comment).
 * @param timestamp milliseconds since the epoch, as sent in `X-MERIDIAN-TIMESTAMP`
 * @param requestTarget path plus `?query` exactly as sent
 * @param body the raw body text, '' for none
 */
export function apiCanonicalString(timestamp: string, method: string, requestTarget: string, body: string): string {
  return `${timestamp}${method.toUpperCase()}${requestTarget}${body}`;
}

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

const ipEntrySchemas = [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()] as const;
/** One allowlist entry: an IPv4 or IPv6 address, or a CIDR range. */
export const ipAllowlistEntrySchema = z
  .string()
  .max(64, { error: 'validation.ipAddress' })
  .refine((value) => ipEntrySchemas.some((schema) => schema.safeParse(value).success), {
    error: 'validation.ipAddress',
  });

/** `POST user/apiKeys` body: name, scopes, optional IP allowlist, and the security check's factors. */
export const createApiKeyBodySchema = sensitiveFactorsSchema.extend({
  label: z.string().trim().min(1, { error: 'validation.apiKeyLabel' }).max(40, { error: 'validation.apiKeyLabel' }),
  scopes: z
    .array(apiKeyScopeSchema, { error: 'validation.apiKeyScopes' })
    .min(1, { error: 'validation.apiKeyScopes' })
    .max(API_KEY_SCOPES.length, { error: 'validation.apiKeyScopes' })
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'validation.apiKeyScopes' }),
  ipAllowlist: z
    .array(ipAllowlistEntrySchema, { error: 'validation.ipAddress' })
    .max(API_KEY_IPS_MAX, { error: 'validation.ipAddress' })
    .default([]),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

/** One key as its owner lists it (never its secret; the key id only by its first characters). */
export const apiKeySchema = z.object({
  id: uuidString(),
  label: z.string(),
  /** The first 8 characters of the key id (`mk_12345…`), to recognise it. */
  keyPrefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  /** Empty: any IP. */
  ipAllowlist: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of `POST user/apiKeys`: the key with its id and secret, shown this once. */
export const createdApiKeySchema = apiKeySchema.extend({ apiKey: z.string(), secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyIdParamsSchema = z.object({ id: uuidString() });

/** The API-key calls of the account's security area (sessions only: a key cannot manage keys). */
export const apiKeyEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/user/apiKeys',
    tag: 'identity',
    summary: "The user's API keys: scopes, IP allowlist, last use",
    auth: 'user',
    content: z.array(apiKeySchema),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/user/apiKeys',
    tag: 'identity',
    summary: 'Create an API key (authenticator required); the secret is answered once',
    auth: 'user',
    sensitiveAction: 'API_KEY_CREATE',
    body: createApiKeyBodySchema,
    content: createdApiKeySchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED', 'ACCOUNT_FROZEN', 'API_KEY_LIMIT_REACHED'],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/user/apiKeys/:id',
    tag: 'identity',
    summary: 'Delete an API key (it stops working at once)',
    auth: 'user',
    params: apiKeyIdParamsSchema,
    content: z.null(),
    codes: ['NOT_FOUND'],
  }),
};
