import type { Locale } from '@meridian/contracts/locale';
import type { Page, PageQuery } from '@meridian/contracts/pagination';
import { totalPages } from '@meridian/contracts/pagination';
import {
  type DecideSupportBody,
  type DeletionState,
  isSupportTransitionAllowed,
  OPEN_SUPPORT_REQUEST_STATUSES,
  type OpsSupportRequest,
  type SupportRequest,
  type SupportRequestStatus,
} from '@meridian/contracts/support';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { supportMessages } from './support.messages.ts';
import { supportRequests } from './support.tables.ts';

type SupportRow = typeof supportRequests.$inferSelect;

/** What the support service needs from the rest of the app. */
export interface SupportServiceDeps {
  db: DbOrTx;
  /**
   * The identity module's closure (`IdentityService.closeAccount`): refuses with ACCOUNT_NOT_EMPTY
   * (111) while any module holds something of the user's, LOGIN_EXPIRED when the user is not active.
   */
  closeAccount: (
    userId: string,
    meta: { ip: null; userAgent: string; locale: Locale; deviceId: null },
  ) => Promise<void>;
  /** Current emails of users (`IdentityService.emailsOf`). */
  emailsOf: (userIds: readonly string[]) => Promise<Map<string, string>>;
  /** The notices module's `notify`, in the caller's transaction. */
  notify: (input: NotifyInput, tx: DbOrTx) => Promise<unknown>;
  now: () => Date;
}

/** A stored request as its customer sees it. */
function toRequest(row: SupportRow): SupportRequest {
  return {
    id: row.id,
    kind: row.kind as SupportRequest['kind'],
    status: row.status as SupportRequestStatus,
    reason: row.reason,
    reply: row.reply,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A stored request as the back office sees it. */
function toOpsRequest(row: SupportRow, email: string | null): OpsSupportRequest {
  return {
    ...toRequest(row),
    userId: row.userId,
    email,
    repliedBy: row.repliedBy,
    repliedAt: row.repliedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

const isOpen = inArray(supportRequests.status, [...OPEN_SUPPORT_REQUEST_STATUSES]);

/**
 * Support requests (account-deletion requests, each answered with a status and a reply;
 * docs/back-office.md "Support requests"). A customer sends one deletion request at a time
 * (the table's partial unique index); support replies (PENDING → IN_PROGRESS, the reply to the
 * message centre); compliance decides DONE (the identity module closes the account) or REJECTED.
 * Every operator write is audited by the routes (`noteAudit`) with the request before and after.
 */
export class SupportService {
  constructor(private readonly deps: SupportServiceDeps) {}

  /** `GET support/deletion`: the user's latest deletion request, open or not, or null. */
  async deletionState(userId: string): Promise<DeletionState> {
    const [row] = await this.deps.db
      .select()
      .from(supportRequests)
      .where(and(eq(supportRequests.userId, userId), eq(supportRequests.kind, 'ACCOUNT_DELETION')))
      .orderBy(desc(supportRequests.createdAt))
      .limit(1);
    return { request: row ? toRequest(row) : null };
  }

  /**
   * `POST support/deletion`: a new deletion request with the user's reason (already validated and
   * trimmed by the contract). The route has checked the trade factors.
   * @throws DomainError SUPPORT_REQUEST_OPEN (300) while the user has an open one.
   */
  async requestDeletion(userId: string, reason: string): Promise<SupportRequest> {
    try {
      const [row] = await this.deps.db
        .insert(supportRequests)
        .values({ userId, kind: 'ACCOUNT_DELETION', reason, createdAt: this.deps.now(), updatedAt: this.deps.now() })
        .returning();
      if (!row) throw new Error('support request insert returned no row');
      return toRequest(row);
    } catch (error) {
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw new DomainError('SUPPORT_REQUEST_OPEN');
      throw error;
    }
  }

  /**
   * The requests for the back office: open ones first (oldest first: the queue), then decided ones
   * newest first; filtered by status; at most `PAGE_SIZE_MAX` per page.
   */
  async list(query: PageQuery & { status?: SupportRequestStatus }): Promise<Page<OpsSupportRequest>> {
    const where = query.status ? eq(supportRequests.status, query.status) : undefined;
    const [total] = await this.deps.db.select({ value: count() }).from(supportRequests).where(where);
    const rows = await this.deps.db
      .select()
      .from(supportRequests)
      .where(where)
      .orderBy(
        sql`CASE WHEN ${isOpen} THEN 0 ELSE 1 END`,
        sql`CASE WHEN ${isOpen} THEN ${supportRequests.createdAt} END ASC`,
        desc(supportRequests.updatedAt),
      )
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const emails = await this.deps.emailsOf([...new Set(rows.map((row) => row.userId))]);
    const totalCount = total?.value ?? 0;
    return {
      list: rows.map((row) => toOpsRequest(row, emails.get(row.userId) ?? null)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalPage: totalPages(totalCount, query.pageSize),
      totalCount,
    };
  }

  /** One request for the back office, or null. */
  async find(id: string): Promise<OpsSupportRequest | null> {
    const [row] = await this.deps.db.select().from(supportRequests).where(eq(supportRequests.id, id));
    if (!row) return null;
    const emails = await this.deps.emailsOf([row.userId]);
    return toOpsRequest(row, emails.get(row.userId) ?? null);
  }

  /**
   * Reply to an open request: it becomes IN_PROGRESS and the reply goes to the user's message
   * centre, in one transaction.
   * @throws DomainError NOT_FOUND (104); SUPPORT_REQUEST_STATE_CHANGED (301) once decided.
   */
  async reply(
    id: string,
    reply: string,
    operatorEmail: string,
  ): Promise<{ before: OpsSupportRequest; after: OpsSupportRequest }> {
    const before = await this.requireTransition(id, 'IN_PROGRESS');
    const now = this.deps.now();
    const row = await this.deps.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(supportRequests)
        .set({ status: 'IN_PROGRESS', reply, repliedBy: operatorEmail, repliedAt: now, updatedAt: now })
        .where(and(eq(supportRequests.id, id), isOpen))
        .returning();
      if (!updated) throw new DomainError('SUPPORT_REQUEST_STATE_CHANGED', { status: 'DONE / REJECTED' });
      await this.deps.notify(
        {
          userId: updated.userId,
          category: 'ACCOUNT',
          ...supportMessages.replied,
          params: { reply },
          link: '/my/security/account/delete',
        },
        tx,
      );
      return updated;
    });
    return { before, after: toOpsRequest(row, before.email) };
  }

  /**
   * Decide an open request. DONE first closes the account through the identity module (which
   * refuses with ACCOUNT_NOT_EMPTY, 111, naming what the user still holds, in the operator's
   * language `locale`; the request then stays open and unchanged); REJECTED keeps the account.
   * The reply goes to the user's message centre with the new status.
   * @throws DomainError NOT_FOUND (104); SUPPORT_REQUEST_STATE_CHANGED (301) once decided;
   *   ACCOUNT_NOT_EMPTY (111); SUPPORT_ACCOUNT_NOT_ACTIVE (302) when the account is frozen or closed.
   */
  async decide(
    id: string,
    body: DecideSupportBody,
    operatorEmail: string,
    locale: Locale,
  ): Promise<{ before: OpsSupportRequest; after: OpsSupportRequest }> {
    const before = await this.requireTransition(id, body.status);
    if (body.status === 'DONE') {
      // Not inside the request's transaction: the closure runs its own (on the embedded database a
      // second connection would wait for an open one). The conditional update below settles a race.
      try {
        await this.deps.closeAccount(before.userId, { ip: null, userAgent: 'back-office', locale, deviceId: null });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'LOGIN_EXPIRED')
          throw new DomainError('SUPPORT_ACCOUNT_NOT_ACTIVE');
        throw error;
      }
    }
    const now = this.deps.now();
    const reply = body.reply.trim();
    const row = await this.deps.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(supportRequests)
        .set({
          status: body.status,
          reply,
          repliedBy: operatorEmail,
          repliedAt: now,
          decidedBy: operatorEmail,
          decidedAt: now,
          updatedAt: now,
        })
        .where(and(eq(supportRequests.id, id), isOpen))
        .returning();
      if (!updated) throw new DomainError('SUPPORT_REQUEST_STATE_CHANGED', { status: 'DONE / REJECTED' });
      const message = body.status === 'DONE' ? supportMessages.done : supportMessages.rejected;
      await this.deps.notify(
        {
          userId: updated.userId,
          category: 'ACCOUNT',
          ...message,
          params: { reply },
          link: '/my/security/account/delete',
        },
        tx,
      );
      return updated;
    });
    return { before, after: toOpsRequest(row, before.email) };
  }

  /**
   * The request `id`, when it may move to `to`.
   * @throws DomainError NOT_FOUND; SUPPORT_REQUEST_STATE_CHANGED naming its status otherwise.
   */
  private async requireTransition(id: string, to: SupportRequestStatus): Promise<OpsSupportRequest> {
    const request = await this.find(id);
    if (!request) throw new DomainError('NOT_FOUND');
    if (!isSupportTransitionAllowed(request.status, to))
      throw new DomainError('SUPPORT_REQUEST_STATE_CHANGED', { status: request.status });
    return request;
  }
}
