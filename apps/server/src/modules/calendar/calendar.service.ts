import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  type CalendarEvents,
  type CalendarFeed,
} from '@meridian/contracts/calendar';
import { KYC_STATUS } from '@meridian/contracts/kyc';
import type { Locale } from '@meridian/contracts/locale';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LoansService } from '../loans/loans.service.ts';
import type { TrustService } from '../trust/trust.service.ts';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import { buildCalendarEvents, type CalendarSources, toIcs } from './calendar.events.ts';
import { calendarFeeds } from './calendar.tables.ts';

dayjs.extend(utc);

/** What the calendar reads: the other modules through their services (docs/architecture.md). */
export interface CalendarServiceDeps {
  db: Db;
  /** The server secret the feed tokens are derived from (the session secret). */
  secret: string;
  /** The site's public address (`PUBLIC_URL`): the feed URL and the events' links start with it. */
  publicUrl: string;
  clock: { now(): Date };
  funds: Pick<FundsService, 'calendarDatesOf'>;
  loans: Pick<LoansService, 'calendarDatesOf'>;
  trust: Pick<TrustService, 'inactivityDatesOf'>;
  kyc: Pick<KycService, 'taxState' | 'qualifyState'>;
  identity: Pick<IdentityService, 'recipientsOf'>;
}

/** Hex SHA-256 of a text. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The user's calendar (docs/calendar.md): the events of a range for the page, and the
 * secret ICS feed. The feed token is HMAC-SHA256(secret, "meridian-calendar-feed/v1:" + user id +
 * ":" + salt), base64url (43 characters); only the salt and the token's SHA-256 are stored.
 */
export class CalendarService {
  constructor(private readonly deps: CalendarServiceDeps) {}

  /** The user's tag in UIDs: 12 hex of SHA-256 of the user id (says nothing about the user). */
  static userTagOf(userId: string): string {
    return sha256Hex(`meridian-calendar-user:${userId}`).slice(0, 12);
  }

  /** Everything the calendar shows of `userId` between two Hong Kong days, from the other modules. */
  private async sourcesOf(userId: string, fromDay: string, toDay: string): Promise<CalendarSources> {
    const [funds, loans, trusts, tax, qualified] = await Promise.all([
      this.deps.funds.calendarDatesOf(userId, fromDay, toDay),
      this.deps.loans.calendarDatesOf(userId),
      this.deps.trust.inactivityDatesOf(userId),
      this.deps.kyc.taxState(userId),
      this.deps.kyc.qualifyState(userId),
    ]);
    return {
      userTag: CalendarService.userTagOf(userId),
      funds,
      loans,
      trusts,
      taxFormDueAt: tax.isNewFormRequired && tax.newFormDueAt ? new Date(tax.newFormDueAt) : null,
      qualifiedUntil:
        qualified.status === KYC_STATUS.VERIFIED && qualified.validUntil ? new Date(qualified.validUntil) : null,
    };
  }

  /** `GET calendar/events`: the user's events between two Hong Kong days (both included), in `locale`. */
  async events(userId: string, fromDay: string, toDay: string, locale: Locale): Promise<CalendarEvents> {
    const sources = await this.sourcesOf(userId, fromDay, toDay);
    return { from: fromDay, to: toDay, events: buildCalendarEvents(sources, { fromDay, toDay }, locale) };
  }

  private tokenOf(userId: string, salt: string): string {
    return createHmac('sha256', this.deps.secret)
      .update(`meridian-calendar-feed/v1:${userId}:${salt}`)
      .digest('base64url');
  }

  private feedOf(userId: string, row: { salt: string; createdAt: Date }): CalendarFeed {
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    return {
      url: `${base}/api/calendar/feed/${this.tokenOf(userId, row.salt)}.ics`,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** `GET calendar/feed`: the user's feed address, made on the first call (two racing first calls make one). */
  async feed(userId: string): Promise<CalendarFeed> {
    const [existing] = await this.deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    if (existing) return this.feedOf(userId, existing);
    const salt = randomBytes(16).toString('hex');
    await this.deps.db
      .insert(calendarFeeds)
      .values({ userId, salt, tokenHash: sha256Hex(this.tokenOf(userId, salt)) })
      .onConflictDoNothing({ target: calendarFeeds.userId });
    const [row] = await this.deps.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    return this.feedOf(userId, row!);
  }

  /** `POST calendar/feed/rotate`: a new address; the old token no longer finds the user (404). */
  async rotate(userId: string): Promise<CalendarFeed> {
    const salt = randomBytes(16).toString('hex');
    const values = { salt, tokenHash: sha256Hex(this.tokenOf(userId, salt)), createdAt: this.deps.clock.now() };
    const [row] = await this.deps.db
      .insert(calendarFeeds)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: calendarFeeds.userId, set: values })
      .returning();
    return this.feedOf(userId, row!);
  }

  /**
   * `GET calendar/feed/:token.ics` (no session): the ICS text of the token's owner, from
   * `CALENDAR_FEED_PAST_DAYS` before today to `CALENDAR_FEED_FUTURE_DAYS` after (Hong Kong days),
   * in the owner's language.
   * @throws DomainError NOT_FOUND for an unknown or rotated token, or a closed account.
   */
  async ics(token: string): Promise<string> {
    const [row] = await this.deps.db
      .select({ userId: calendarFeeds.userId })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.tokenHash, sha256Hex(token)));
    if (!row) throw new DomainError('NOT_FOUND');
    const owner = (await this.deps.identity.recipientsOf([row.userId])).get(row.userId);
    if (!owner) throw new DomainError('NOT_FOUND');
    const today = hongKongDay(this.deps.clock.now());
    const fromDay = dayjs.utc(today).subtract(CALENDAR_FEED_PAST_DAYS, 'day').format('YYYY-MM-DD');
    const toDay = dayjs.utc(today).add(CALENDAR_FEED_FUTURE_DAYS, 'day').format('YYYY-MM-DD');
    const { events } = await this.events(row.userId, fromDay, toDay, owner.locale);
    return toIcs(events, owner.locale, this.deps.publicUrl);
  }
}
