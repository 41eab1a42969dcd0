import { shareBpsToPct } from '@meridian/contracts/trust';
import dayjs from 'dayjs';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { trustInactivityMessages } from './trust.messages.ts';
import { trustInactivityNotices, trusts } from './trust.tables.ts';
import { type TrustServiceDeps } from './trust.internal.ts';

/** Trusts of one inactivity-job batch; the batches of one run are bounded by `INACTIVITY_BATCHES_MAX`. */
export const INACTIVITY_BATCH_ROWS = 500;
const INACTIVITY_BATCHES_MAX = 400;
/** One day in milliseconds (reminder thresholds are whole days before the deadline). */
const DAY_MS = 86_400_000;

/**
 * The inactivity deadline of a settlor who last signed in at `lastSignInAt`: that instant plus
 * `inactivityMonths` calendar months (dayjs month arithmetic: 31 Jan + 1 month = 28/29 Feb).
 */
export function inactivityDeadline(lastSignInAt: Date, inactivityMonths: number): Date {
  return dayjs(lastSignInAt).add(inactivityMonths, 'month').toDate();
}

/** Days before the inactivity deadline on which the switch reminds the settlor (`dueInactivityStage`). */
export const INACTIVITY_REMINDER_DAYS = [30, 14, 3] as const;

/** One active trust's inactivity dates (`TrustService.inactivityDatesOf`). */
export interface TrustInactivityDates {
  trustId: number;
  name: string;
  /** Last sign-in + the trust's inactivity period: the switch moves the trust to claim then. */
  deadlineAt: Date;
  /** When each reminder is due (the deadline minus `daysBefore` days). */
  reminders: { daysBefore: (typeof INACTIVITY_REMINDER_DAYS)[number]; at: Date }[];
}

/**
 * Which stage of the inactivity switch is due at `now` for `deadline`: 0 (the deadline passed: claim),
 * the nearest reminder whose day has come (30, 14 or 3 days before), or null (nothing yet). A run
 * that missed days sends only the nearest stage, never the earlier ones late.
 */
export function dueInactivityStage(deadline: Date, now: Date): 0 | 30 | 14 | 3 | null {
  const msLeft = deadline.getTime() - now.getTime();
  if (msLeft <= 0) return 0;
  for (const days of [3, 14, 30] as const) if (msLeft <= days * DAY_MS) return days;
  return null;
}

/** The inactivity switch: the daily run (reminders, then claim) and each trust's dates for the calendar. */
export function createTrustInactivity(deps: TrustServiceDeps) {
  const { db } = deps;

  return {
    /**
     * The inactivity dates of the settlor's active trusts, for the calendar
     * (docs/calendar.md): the deadline (last sign-in + `inactivityMonths`, `inactivityDeadline`) and
     * the instants of the reminders the switch sends (`INACTIVITY_REMINDER_DAYS` days before it). A
     * sign-in moves them all, so they are computed when asked. Empty when the user has no active trust.
     */
    async inactivityDatesOf(userId: string): Promise<TrustInactivityDates[]> {
      const rows = await db
        .select({ id: trusts.id, name: trusts.name, inactivityMonths: trusts.inactivityMonths })
        .from(trusts)
        .where(and(eq(trusts.userId, userId), eq(trusts.state, 'active')))
        .orderBy(desc(trusts.id));
      if (rows.length === 0) return [];
      const lastSignInAt = (await deps.identity.lastSignInAtOf([userId])).get(userId);
      if (!lastSignInAt) return [];
      return rows.map((row) => {
        const deadlineAt = inactivityDeadline(lastSignInAt, row.inactivityMonths);
        return {
          trustId: row.id,
          name: row.name,
          deadlineAt,
          reminders: INACTIVITY_REMINDER_DAYS.map((daysBefore) => ({
            daysBefore,
            at: new Date(deadlineAt.getTime() - daysBefore * DAY_MS),
          })),
        };
      });
    },

    /**
     * The daily inactivity switch, run by the scheduler's leader in its transaction `tx`.
     * Active trusts are walked by id in batches of `INACTIVITY_BATCH_ROWS` (at most
     * `INACTIVITY_BATCHES_MAX` batches a run); per batch: one query for the settlors' last sign-ins,
     * the due stage of each trust (`dueInactivityStage`), ONE insert of the due stages into
     * `trust_inactivity_notices` (ON CONFLICT DO NOTHING: each (trust, stage, deadline) is sent once,
     * whatever reruns), then for what was newly claimed: the settlor's reminder (message + email in
     * their language), or at the deadline one update moving the trusts to `claim` and an email to each
     * beneficiary (both languages: they are not users). No money moves: an operator releases.
     * @returns how many reminders were sent and trusts moved to claim.
     */
    async runInactivity(now: Date = deps.now(), tx: DbOrTx = db): Promise<{ reminded: number; claimed: number }> {
      let afterId = 0;
      let reminded = 0;
      let claimed = 0;
      for (let batch = 0; batch < INACTIVITY_BATCHES_MAX; batch += 1) {
        const rows = await tx
          .select()
          .from(trusts)
          .where(and(eq(trusts.state, 'active'), gt(trusts.id, afterId)))
          .orderBy(asc(trusts.id))
          .limit(INACTIVITY_BATCH_ROWS);
        if (rows.length === 0) break;
        afterId = rows.at(-1)!.id;
        const settlorIds = [...new Set(rows.map((row) => row.userId))];
        const lastSignIns = await deps.identity.lastSignInAtOf(settlorIds, tx);
        const due = rows.flatMap((row) => {
          const lastSignInAt = lastSignIns.get(row.userId);
          if (!lastSignInAt) return [];
          const deadlineAt = inactivityDeadline(lastSignInAt, row.inactivityMonths);
          const daysBefore = dueInactivityStage(deadlineAt, now);
          return daysBefore === null ? [] : [{ row, daysBefore, deadlineAt, lastSignInAt }];
        });
        if (due.length === 0) continue;
        const inserted = await tx
          .insert(trustInactivityNotices)
          .values(
            due.map((item) => ({
              trustId: item.row.id,
              daysBefore: item.daysBefore,
              deadlineAt: item.deadlineAt,
              sentAt: now,
            })),
          )
          .onConflictDoNothing()
          .returning({ trustId: trustInactivityNotices.trustId, daysBefore: trustInactivityNotices.daysBefore });
        const isNew = new Set(inserted.map((item) => `${item.trustId}:${item.daysBefore}`));
        const fresh = due.filter((item) => isNew.has(`${item.row.id}:${item.daysBefore}`));
        if (fresh.length === 0) continue;
        const recipients = await deps.identity.recipientsOf([...new Set(fresh.map((item) => item.row.userId))], tx);
        const toClaim = fresh.filter((item) => item.daysBefore === 0).map((item) => item.row.id);
        if (toClaim.length > 0)
          await tx
            .update(trusts)
            .set({ state: 'claim', claimAt: now, updatedAt: now })
            .where(and(inArray(trusts.id, toClaim), eq(trusts.state, 'active')));
        const messages: NotifyInput[] = [];
        for (const item of fresh) {
          const recipient = recipients.get(item.row.userId);
          const text = trustInactivityMessages({
            trustId: item.row.id,
            trustName: item.row.name,
            daysBefore: item.daysBefore,
            deadlineAt: item.deadlineAt,
            lastSignInAt: item.lastSignInAt,
          });
          messages.push({ userId: item.row.userId, category: 'ACCOUNT', ...text.message });
          const locale = recipient?.locale ?? 'en-US';
          if (recipient?.email)
            await deps.enqueueMail(
              {
                to: recipient.email,
                subject: text.mail.subject[locale],
                text: text.mail.text[locale],
                tag: 'TRUST_INACTIVITY',
              },
              tx,
            );
          if (item.daysBefore === 0) {
            claimed += 1;
            for (const beneficiary of item.row.beneficiaries)
              await deps.enqueueMail(
                {
                  to: beneficiary.email,
                  ...text.beneficiaryMail(beneficiary.name, shareBpsToPct(beneficiary.shareBps)),
                  tag: 'TRUST_CLAIM',
                },
                tx,
              );
          } else reminded += 1;
        }
        await deps.notifyMany(messages, tx);
        deps.log?.info({ batch, afterId, reminded, claimed }, 'trust inactivity batch');
      }
      return { reminded, claimed };
    },
  };
}
