import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * "This wasn't me" freeze links (docs/freeze-links.md). Every security
 * email carries a one-time link `/freeze/<token>`; the page asks for one press (a GET never
 * freezes: mail scanners fetch links), then this call freezes the account without signing in.
 */

/** Days a freeze link stays usable. */
export const FREEZE_LINK_TTL_DAYS = 7;
/** The web path of a link; the token follows. */
export const FREEZE_LINK_PATH = '/freeze/';

/** A token: 43 base64url characters (32 random bytes). */
export const freezeTokenSchema = z
  .string()
  .max(43, { abort: true })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'validation.freezeToken' });

export const freezeBodySchema = z.object({ token: freezeTokenSchema });

/** What the freeze did. */
export const freezeResultSchema = z.object({
  frozenAt: z.string(),
  sessionsRevoked: z.number().int(),
  apiKeysRevoked: z.number().int(),
  withdrawalsCancelled: z.number().int(),
});
export type FreezeResult = z.infer<typeof freezeResultSchema>;

export const freezeLinkEndpoints = {
  freeze: defineEndpoint({
    method: 'POST',
    path: '/user/freeze',
    tag: 'identity',
    summary: 'Freeze the account with the one-time link of a security email (no sign-in)',
    auth: 'none',
    body: freezeBodySchema,
    content: freezeResultSchema,
    codes: ['FREEZE_LINK_INVALID'],
  }),
};
