import { TERMS_NOTICE_WORKING_DAYS, type TermsChange, type TermsChangeInput } from '@meridian/contracts/kyc';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import dayjs from 'dayjs';
import { and, asc, count, desc, eq, isNull, lte } from 'drizzle-orm';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { FieldError } from '../../platform/http/errors.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { termsChanges } from './kyc.tables.ts';

/** Users messaged per page of an announcement (the notices service's batch limit). */
const ANNOUNCE_PAGE_USERS = 500;
/** Announcements one daily run sends at most (the rest go on the next run). */
const ANNOUNCEMENTS_PER_RUN_MAX = 20;

/** What announcing changes of terms needs from other modules. */
export interface TermsChangeDeps {
  db: Db;
  /** The Hong Kong working-day calendar (7 working days ahead). */
  calendar: BusinessCalendar;
  /** Active users' ids after an id, in id order (`IdentityService.activeUserIdsAfter`). */
  activeUserIdsAfter: (afterId: string | null, limit: number, db: DbOrTx) => Promise<string[]>;
  /** Message many users in their languages in the caller's transaction (`NoticeService.notifyMany`). */
  notifyMany: (inputs: readonly NotifyInput[], tx: DbOrTx) => Promise<unknown>;
  /** The app's clock. */
  now: () => Date;
}

type TermsChangeRow = typeof termsChanges.$inferSelect;

function toTermsChange(row: TermsChangeRow): TermsChange {
  return {
    id: row.id,
    titleEn: row.titleEn,
    titleZh: row.titleZh,
    bodyEn: row.bodyEn,
    bodyZh: row.bodyZh,
    effectiveOn: row.effectiveOn,
    announceOn: row.announceOn,
    announcedAt: row.announcedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Announcements of changes of terms (changes must be notified 7 working days ahead):
 * an operator schedules a change with its Hong Kong effective date; it is announced 7 Hong Kong
 * working days before (weekends and HK public holidays skipped, `platform/calendar`) by a message
 * to every active user in their language, sent once by the daily job `kyc.terms-announcements`.
 */
export class TermsChanges {
  private readonly now: () => Date;

  constructor(private readonly deps: TermsChangeDeps) {
    this.now = deps.now;
  }

  /** The Hong Kong date (`YYYY-MM-DD`) of an instant. */
  private localDate(instant: Date): string {
    return dayjs(instant).tz(this.deps.calendar.timeZone).format('YYYY-MM-DD');
  }

  /** Noon, Hong Kong time, of the local date `YYYY-MM-DD` (a day walk from noon never crosses a date line). */
  private noonOf(localDate: string): Date {
    return dayjs.tz(`${localDate} 12:00`, this.deps.calendar.timeZone).toDate();
  }

  /** The earliest effective date allowed on `now`'s Hong Kong date: 7 working days after it. */
  earliestEffectiveOn(now: Date = this.now()): string {
    return this.localDate(
      this.deps.calendar.addWorkingDays(this.noonOf(this.localDate(now)), TERMS_NOTICE_WORKING_DAYS),
    );
  }

  /** The announcement date of a change effective on `effectiveOn`: 7 Hong Kong working days before. */
  announceOnFor(effectiveOn: string): string {
    return this.localDate(this.deps.calendar.addWorkingDays(this.noonOf(effectiveOn), -TERMS_NOTICE_WORKING_DAYS));
  }

  /**
   * `POST ops/terms-changes`: schedule a change of terms taking effect on `input.effectiveOn` (a
   * Hong Kong date), announced on `announceOnFor(effectiveOn)`.
   * @throws FieldError `effectiveOn` (validation.termsNoticeTooShort, naming the earliest allowed
   *   date) when it is less than 7 Hong Kong working days after today; nothing is stored.
   */
  async schedule(operatorEmail: string, input: TermsChangeInput, now: Date = this.now()): Promise<TermsChange> {
    const earliest = this.earliestEffectiveOn(now);
    if (input.effectiveOn < earliest)
      throw new FieldError('effectiveOn', 'validation.termsNoticeTooShort', {
        days: TERMS_NOTICE_WORKING_DAYS,
        date: earliest,
      });
    const [row] = await this.deps.db
      .insert(termsChanges)
      .values({ ...input, announceOn: this.announceOnFor(input.effectiveOn), createdBy: operatorEmail })
      .returning();
    return toTermsChange(row!);
  }

  /** `GET ops/terms-changes`: one page, newest effective date first. */
  async list(query: { pageID: number; pageSize: number }): Promise<Page<TermsChange>> {
    const [total] = await this.deps.db.select({ value: count() }).from(termsChanges);
    const rows = await this.deps.db
      .select()
      .from(termsChanges)
      .orderBy(desc(termsChanges.effectiveOn), desc(termsChanges.createdAt))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.value ?? 0);
    return {
      list: rows.map(toTermsChange),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * The daily run (job `kyc.terms-announcements`): each change whose `announceOn` has come (Hong
   * Kong date of `now`) and that was not announced is sent to every active user, in pages of 500,
   * as a SYSTEM message in their language saying from when it applies, and marked `announcedAt` —
   * in `db`, the job's transaction, so a change is announced exactly once (a second run finds it
   * marked; a failed run rolls back its messages with its mark).
   * @returns how many changes were announced and how many messages were written.
   */
  async runAnnouncements(
    now: Date = this.now(),
    db: DbOrTx = this.deps.db,
  ): Promise<{ announced: number; messages: number }> {
    const due = await db
      .select()
      .from(termsChanges)
      .where(and(isNull(termsChanges.announcedAt), lte(termsChanges.announceOn, this.localDate(now))))
      .orderBy(asc(termsChanges.announceOn), asc(termsChanges.createdAt))
      .limit(ANNOUNCEMENTS_PER_RUN_MAX)
      .for('update', { skipLocked: true });
    let announced = 0;
    let messages = 0;
    for (const change of due) {
      const marked = await db
        .update(termsChanges)
        .set({ announcedAt: now })
        .where(and(eq(termsChanges.id, change.id), isNull(termsChanges.announcedAt)))
        .returning({ id: termsChanges.id });
      if (marked.length === 0) continue;
      announced += 1;
      let afterId: string | null = null;
      // Bounded: each page moves past its last id, and there are finitely many users.
      for (;;) {
        const userIds = await this.deps.activeUserIdsAfter(afterId, ANNOUNCE_PAGE_USERS, db);
        if (userIds.length === 0) break;
        await this.deps.notifyMany(
          userIds.map((userId) => announcementOf(change, userId)),
          db,
        );
        messages += userIds.length;
        afterId = userIds[userIds.length - 1]!;
        if (userIds.length < ANNOUNCE_PAGE_USERS) break;
      }
    }
    return { announced, messages };
  }
}

/** The message announcing `change` to one user: the operator's texts, and the date the change applies. */
function announcementOf(change: TermsChangeRow, userId: string): NotifyInput {
  return {
    userId,
    category: 'SYSTEM',
    title: { 'en-US': '{titleEn}', 'zh-HK': '{titleZh}' },
    body: {
      'en-US': '{bodyEn}\n\nThese changes apply from {effectiveOn}.',
      'zh-HK': '{bodyZh}\n\n以上變更將於 {effectiveOn} 起生效。',
    },
    params: {
      titleEn: change.titleEn,
      titleZh: change.titleZh,
      bodyEn: change.bodyEn,
      bodyZh: change.bodyZh,
      effectiveOn: change.effectiveOn,
    },
  };
}
