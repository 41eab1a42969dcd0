/**
 * "This wasn't me" freeze links (docs/freeze-links.md): every security
 * email carries `<publicUrl>/freeze/<token>`. The token is 32 random bytes (base64url); only its
 * SHA-256 is stored, it is usable once and for `FREEZE_LINK_TTL_DAYS`. Redeeming it freezes the
 * account in the back office's frozen state (`freezeAccount` of `identity.operator.ts`, the one
 * `assertNotFrozen` reads: withdrawals, swaps and card payments refused) and revokes every
 * session; the API keys and pending withdrawals are the callers' (modules/apikeys). Unfreezing is
 * the back office's (`unfreezeAccount`) after identity checks.
 */
import { randomBytes } from 'node:crypto';
import { FREEZE_LINK_PATH, FREEZE_LINK_TTL_DAYS } from '@meridian/contracts/freeze-links';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { audit } from './identity.audit.ts';
import { forgetSessions, type IdentityContext, sha256 } from './identity.internal.ts';
import { freezeTokens, sessions, users } from './identity.tables.ts';
import type { RequestMeta } from './identity.types.ts';

const DAY_MS = 86_400_000;

/** What redeeming a freeze link did in the identity module. */
export interface FreezeOutcome {
  userId: string;
  frozenAt: Date;
  /** Sessions revoked now (live ones only). */
  sessionsRevoked: number;
}

/**
 * Make a one-time freeze link for `userId`, stored on `db` (the transaction of the mail that carries
 * it, when there is one). @returns the absolute URL of the web page `/freeze/<token>`.
 */
export async function issueFreezeLink(ctx: IdentityContext, userId: string, db: DbOrTx = ctx.db): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(freezeTokens).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(ctx.clock.now().getTime() + FREEZE_LINK_TTL_DAYS * DAY_MS),
  });
  const origin = (ctx.options.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  return `${origin}${FREEZE_LINK_PATH}${token}`;
}

/** The freeze-link part of the identity service. */
export function createFreezeLinkService(ctx: IdentityContext) {
  return {
    /** See `issueFreezeLink`. */
    issueFreezeLink: (userId: string, db?: DbOrTx): Promise<string> => issueFreezeLink(ctx, userId, db),

    /**
     * What the developer API (modules/apikeys) needs of a key's owner on each signed
     * request: whether the account is active, has the authenticator on (keys are off without it),
     * is frozen, and its identity-verification level. Undefined for an unknown user.
     */
    async apiKeyOwner(
      userId: string,
    ): Promise<{ isActive: boolean; hasTotp: boolean; isFrozen: boolean; kycLevel: number } | undefined> {
      const [row] = await ctx.db
        .select({
          status: users.status,
          mfaSecret: users.mfaSecret,
          frozenAt: users.frozenAt,
          kycLevel: users.kycLevel,
        })
        .from(users)
        .where(eq(users.id, userId));
      if (!row) return undefined;
      return {
        isActive: row.status === 'active',
        hasTotp: row.mfaSecret !== null,
        isFrozen: row.frozenAt !== null,
        kycLevel: row.kycLevel,
      };
    },

    /**
     * Redeem a freeze link: use the token up (one conditional UPDATE: a second use, an expired or
     * unknown token is refused), freeze the account (already frozen by the back office: it stays so,
     * with its reason) and revoke every session, in one transaction. Audit rows `freeze_link.used`
     * and `account.frozen` (actor `freeze-link`).
     * @throws DomainError FREEZE_LINK_INVALID (278) for an unknown, used or expired token.
     */
    async redeemFreezeToken(token: string, meta: RequestMeta): Promise<FreezeOutcome> {
      const now = ctx.clock.now();
      const outcome = await ctx.db.transaction(async (tx) => {
        const [used] = await tx
          .update(freezeTokens)
          .set({ usedAt: now, usedIp: meta.ip })
          .where(
            and(
              eq(freezeTokens.tokenHash, sha256(token)),
              isNull(freezeTokens.usedAt),
              gt(freezeTokens.expiresAt, now),
            ),
          )
          .returning({ userId: freezeTokens.userId });
        if (!used) throw new DomainError('FREEZE_LINK_INVALID');
        const [frozen] = await tx
          .update(users)
          .set({ frozenAt: now, frozenReason: 'Frozen by the user with the link of a security email' })
          .where(and(eq(users.id, used.userId), isNull(users.frozenAt)))
          .returning({ frozenAt: users.frozenAt });
        const [user] = frozen
          ? [frozen]
          : await tx.select({ frozenAt: users.frozenAt }).from(users).where(eq(users.id, used.userId));
        const revoked = await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.userId, used.userId), isNull(sessions.revokedAt)))
          .returning({ id: sessions.id });
        return {
          userId: used.userId,
          frozenAt: user?.frozenAt ?? now,
          sessionsRevoked: revoked.length,
          wasFrozenNow: frozen !== undefined,
        };
      });
      forgetSessions(ctx, outcome.userId);
      await audit(ctx, outcome.userId, 'freeze_link.used', meta, { sessionsRevoked: outcome.sessionsRevoked });
      if (outcome.wasFrozenNow)
        await audit(ctx, outcome.userId, 'account.frozen', meta, { operator: 'freeze-link', reason: 'freeze link' });
      return { userId: outcome.userId, frozenAt: outcome.frozenAt, sessionsRevoked: outcome.sessionsRevoked };
    },
  };
}
