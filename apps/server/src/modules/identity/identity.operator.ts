/**
 * What the back office (`modules/admin/admin.users.ts`) does to and reads of accounts:
 * search, an operator's view of one account, freeze and unfreeze (money stops moving, sign-in and
 * reading go on), and resetting a user's authenticator. The money-moving services ask
 * `assertNotFrozen` inside their own checks.
 */
import type { Page } from '@meridian/contracts/pagination';
import { totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { audit } from './identity.audit.ts';
import { extendWithdrawalHold, forgetSessions, hours, type IdentityContext } from './identity.internal.ts';
import { mfaRecoveryCodes, sessions, users } from './identity.tables.ts';
import { IDENTITY_RULES, type RequestMeta } from './identity.types.ts';

/** One account as the back office's search lists it (no name: that is the KYC module's). */
export interface OperatorUserRow {
  userId: string;
  email: string;
  /** The bound mobile number as stored (E.164 digits), or null. */
  phone: string | null;
  kycLevel: number;
  isFrozen: boolean;
  /** 'active' | 'closed'. */
  status: string;
  createdAt: Date;
}

/** One account as the back office's user page shows it: the row plus freeze, factors, hold and live sessions. */
export interface OperatorUserView extends OperatorUserRow {
  frozenAt: Date | null;
  frozenReason: string | null;
  hasTotp: boolean;
  /** Withdrawals are held until then after a security change; null when no hold runs. */
  withdrawHoldUntil: Date | null;
  /** Live sessions (not revoked, not expired), newest activity first, at most 50. */
  sessions: { id: string; createdAt: Date; lastSeenAt: Date | null; ip: string | null }[];
}

/** The back office's search: free text and the ids another module matched (KYC names), one page. */
export interface OperatorUserSearch {
  /** Email or phone (substring, case-insensitive) or the exact user id; absent: every account. */
  q?: string | undefined;
  /** Users matched elsewhere (by name in KYC), listed too. */
  alsoUserIds?: readonly string[];
  pageID: number;
  pageSize: number;
}

/** Who acts from the back office, for the identity audit log (`audit_events`). */
export interface OperatorActor {
  email: string;
  ip: string | null;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `text` with LIKE's wildcards escaped, for a substring match. */
function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function rowOf(user: typeof users.$inferSelect): OperatorUserRow {
  return {
    userId: user.id,
    email: user.email,
    phone: user.mobile,
    kycLevel: user.kycLevel,
    isFrozen: user.frozenAt !== null,
    status: user.status,
    createdAt: user.createdAt,
  };
}

/** The operator's request meta for the identity audit log. */
function metaOf(actor: OperatorActor): RequestMeta {
  return { ip: actor.ip, userAgent: null, locale: 'en-US', deviceId: null };
}

/** The back-office part of the identity service: search, view, freeze, unfreeze, authenticator reset. */
export function createOperatorAccountService(ctx: IdentityContext) {
  /** @throws DomainError NOT_FOUND when no account (active or closed) has this id. */
  const requireAnyUser = async (userId: string, db: DbOrTx = ctx.db) => {
    if (!UUID_PATTERN.test(userId)) throw new DomainError('NOT_FOUND');
    const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  };

  /** Whether the account is frozen (false for an unknown id), read on `db` (the caller's transaction when given). */
  const isFrozen = async (userId: string, db: DbOrTx = ctx.db): Promise<boolean> => {
    if (!UUID_PATTERN.test(userId)) return false;
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.frozenAt)))
      .limit(1);
    return row !== undefined;
  };

  return {
    isFrozen,

    /**
     * Refuse to move money for a frozen account: called by every service action that
     * posts to the ledger on the user's request (withdrawal and its dry run, swap, flash exchange),
     * on `db` — the action's transaction when it holds one.
     * @throws DomainError ACCOUNT_FROZEN (152) while the account is frozen.
     */
    async assertNotFrozen(userId: string, db: DbOrTx = ctx.db): Promise<void> {
      if (await isFrozen(userId, db)) throw new DomainError('ACCOUNT_FROZEN');
    },

    /**
     * The emails of `userIds` (at most 500; any status, closed accounts too) in one query, for the
     * back office's lists of other modules' rows (deposits); an unknown id is absent from the map.
     */
    async emailsOf(userIds: readonly string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      if (userIds.length > 500) throw new RangeError('at most 500 users per look-up');
      const rows = await ctx.db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.id, [...new Set(userIds)]));
      return new Map(rows.map((row) => [row.id, row.email]));
    },

    /**
     * The back office's user search (`GET admin/users`), newest account first: the exact user id,
     * or email or mobile containing `q` (case-insensitive), or one of `alsoUserIds`.
     */
    async searchUsersForOperators(search: OperatorUserSearch): Promise<Page<OperatorUserRow>> {
      const q = search.q?.trim() ?? '';
      const matches: SQL[] = [];
      if (q !== '') {
        const pattern = likeSubstring(q);
        matches.push(ilike(users.email, pattern), ilike(users.mobile, pattern));
        if (UUID_PATTERN.test(q)) matches.push(eq(users.id, q.toLowerCase()));
        if (search.alsoUserIds && search.alsoUserIds.length > 0)
          matches.push(inArray(users.id, [...search.alsoUserIds]));
      }
      const where = matches.length > 0 ? or(...matches) : undefined;
      const [total] = await ctx.db.select({ n: count() }).from(users).where(where);
      const rows = await ctx.db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(search.pageSize)
        .offset((search.pageID - 1) * search.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map(rowOf),
        pageID: search.pageID,
        pageSize: search.pageSize,
        totalPage: totalPages(totalCount, search.pageSize),
        totalCount,
      };
    },

    /** The account as the back office's user page shows it. @throws DomainError NOT_FOUND. */
    async operatorViewOf(userId: string): Promise<OperatorUserView> {
      const user = await requireAnyUser(userId);
      const now = ctx.clock.now();
      const live = await ctx.db
        .select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > ${now}`))
        .orderBy(desc(sessions.lastSeenAt))
        .limit(50);
      return {
        ...rowOf(user),
        frozenAt: user.frozenAt,
        frozenReason: user.frozenReason,
        hasTotp: user.mfaSecret !== null,
        withdrawHoldUntil: user.withdrawalHoldUntil && user.withdrawalHoldUntil > now ? user.withdrawalHoldUntil : null,
        sessions: live,
      };
    },

    /**
     * Freeze the account (`POST admin/users/:userId/freeze`): one conditional UPDATE, so two
     * operators cannot both freeze it; audit row `account.frozen` with the operator and reason.
     * Sessions stay: the user can still sign in and see everything.
     * @throws DomainError NOT_FOUND, CONFLICT (121) when it is already frozen.
     */
    async freezeAccount(userId: string, reason: string, actor: OperatorActor): Promise<void> {
      await requireAnyUser(userId);
      const updated = await ctx.db
        .update(users)
        .set({ frozenAt: ctx.clock.now(), frozenReason: reason })
        .where(and(eq(users.id, userId), isNull(users.frozenAt)))
        .returning({ id: users.id });
      if (updated.length === 0) throw new DomainError('CONFLICT');
      await audit(ctx, userId, 'account.frozen', metaOf(actor), { operator: actor.email, reason });
    },

    /**
     * Unfreeze the account (`POST admin/users/:userId/unfreeze`); audit row `account.unfrozen`.
     * @throws DomainError NOT_FOUND, CONFLICT (121) when it is not frozen.
     */
    async unfreezeAccount(userId: string, reason: string, actor: OperatorActor): Promise<void> {
      await requireAnyUser(userId);
      const updated = await ctx.db
        .update(users)
        .set({ frozenAt: null, frozenReason: null })
        .where(and(eq(users.id, userId), isNotNull(users.frozenAt)))
        .returning({ id: users.id });
      if (updated.length === 0) throw new DomainError('CONFLICT');
      await audit(ctx, userId, 'account.unfrozen', metaOf(actor), { operator: actor.email, reason });
    },

    /**
     * Remove the user's authenticator at their request through support (`POST
     * admin/users/:userId/reset-2fa`): the seed, the pending seed and the recovery codes go, the
     * authenticator is off for sign-in and trade (the email code is turned on for trade when no
     * other trade factor remains, as `unbindMfa` does), and withdrawals are held
     * `IDENTITY_RULES.holdAfterFactorChangeHours` (24 h). Sessions, password and other factors stay.
     * Audit row `mfa.reset_by_operator`.
     * @throws DomainError NOT_FOUND, CONFLICT (121) when no authenticator is bound.
     */
    async resetTotpByOperator(userId: string, reason: string, actor: OperatorActor): Promise<void> {
      const user = await requireAnyUser(userId);
      if (!user.mfaSecret) throw new DomainError('CONFLICT');
      const keepsTradeFactor = user.isTradeEmailOn || (user.isTradeSecurityOn && user.securityPasswordHash !== null);
      await ctx.db.transaction(async (tx) => {
        const updated = await tx
          .update(users)
          .set({
            mfaSecret: null,
            mfaPendingSecret: null,
            mfaLastStep: null,
            isLoginMfaOn: false,
            isTradeMfaOn: false,
            ...(keepsTradeFactor ? {} : { isTradeEmailOn: true }),
          })
          .where(and(eq(users.id, user.id), isNotNull(users.mfaSecret)))
          .returning({ id: users.id });
        if (updated.length === 0) throw new DomainError('CONFLICT');
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
      });
      forgetSessions(ctx, user.id);
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, 'mfa.reset_by_operator', metaOf(actor), { operator: actor.email, reason });
    },
  };
}
