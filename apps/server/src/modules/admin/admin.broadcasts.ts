import type { Broadcast, BroadcastSegment, SendBroadcastBody } from '@meridian/contracts/back-office';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { count, desc } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { broadcasts } from './admin.broadcasts.tables.ts';

/** Users messaged per page of a broadcast (the notices service's batch limit). */
const BROADCAST_PAGE_USERS = 500;

/** The lowest KYC level of each segment's users (none: every active user). */
const SEGMENT_MIN_KYC_LEVEL: Record<BroadcastSegment, number | undefined> = { all: undefined, verified: 1 };

/** What sending broadcasts needs from other modules. */
export interface BroadcastDeps {
  db: Db;
  /** Active users' ids after an id, in id order, optionally of a lowest KYC level (`IdentityService.activeUserIdsAfter`). */
  activeUserIdsAfter: (
    afterId: string | null,
    limit: number,
    db: DbOrTx,
    filter: { minKycLevel?: number },
  ) => Promise<string[]>;
  /** Message many users in their languages in the caller's transaction (`NoticeService.notifyMany`). */
  notifyMany: (inputs: readonly NotifyInput[], tx: DbOrTx) => Promise<unknown>;
}

type BroadcastRow = typeof broadcasts.$inferSelect;

function toBroadcast(row: BroadcastRow): Broadcast {
  return {
    id: row.id,
    titleEn: row.titleEn,
    titleZh: row.titleZh,
    bodyEn: row.bodyEn,
    bodyZh: row.bodyZh,
    segment: row.segment === 'verified' ? 'verified' : 'all',
    recipientCount: row.recipientCount,
    operatorEmail: row.operatorEmail,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The message of `broadcast` to one user: the operator's texts, as given (no placeholders of its own). */
function messageOf(body: SendBroadcastBody, userId: string): NotifyInput {
  return {
    userId,
    category: 'SYSTEM',
    title: { 'en-US': '{titleEn}', 'zh-HK': '{titleZh}' },
    body: { 'en-US': '{bodyEn}', 'zh-HK': '{bodyZh}' },
    params: { titleEn: body.titleEn, titleZh: body.titleZh, bodyEn: body.bodyEn, bodyZh: body.bodyZh },
  };
}

/**
 * Broadcast messages: an operator (compliance, admin) sends one message in both
 * languages to every active user of a segment; each user gets it once, in their own language, as a
 * SYSTEM message of the notices module. The broadcast row and every message are written in one
 * transaction (pages of 500 users), so a failure sends nothing and stores nothing.
 */
export class Broadcasts {
  constructor(private readonly deps: BroadcastDeps) {}

  /**
   * Send `body` to the active users of `body.segment` ('verified' = KYC level ≥ 1) and store it
   * with its recipient count and the operator.
   * @returns the stored broadcast.
   */
  async send(operator: { id: number; email: string }, body: SendBroadcastBody): Promise<Broadcast> {
    const minKycLevel = SEGMENT_MIN_KYC_LEVEL[body.segment];
    const filter = minKycLevel === undefined ? {} : { minKycLevel };
    const row = await this.deps.db.transaction(async (tx) => {
      let recipientCount = 0;
      let afterId: string | null = null;
      // Bounded: each page moves past its last id, and there are finitely many users.
      for (;;) {
        const userIds = await this.deps.activeUserIdsAfter(afterId, BROADCAST_PAGE_USERS, tx, filter);
        if (userIds.length === 0) break;
        await this.deps.notifyMany(
          userIds.map((userId) => messageOf(body, userId)),
          tx,
        );
        recipientCount += userIds.length;
        afterId = userIds[userIds.length - 1]!;
        if (userIds.length < BROADCAST_PAGE_USERS) break;
      }
      const [stored] = await tx
        .insert(broadcasts)
        .values({ ...body, recipientCount, operatorId: operator.id, operatorEmail: operator.email })
        .returning();
      return stored!;
    });
    return toBroadcast(row);
  }

  /** One page of the broadcasts sent, newest first. */
  async list(query: { pageID: number; pageSize: number }): Promise<Page<Broadcast>> {
    const [total] = await this.deps.db.select({ value: count() }).from(broadcasts);
    const rows = await this.deps.db
      .select()
      .from(broadcasts)
      .orderBy(desc(broadcasts.createdAt), desc(broadcasts.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.value ?? 0);
    return {
      list: rows.map(toBroadcast),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }
}
