import type { Clock } from '../../platform/clock/clock.ts';
import assert from 'node:assert/strict';
import { type Locale, type LocalizedText, interpolate } from '@meridian/contracts/locale';
import type { MessageItem, MessageListContent, NoticeCategory, PushTokenBody } from '@meridian/contracts/notices';
import { webPushSubscriptionSchema } from '@meridian/contracts/notices';
import type { PageQuery } from '@meridian/contracts/pagination';
import { totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { PushSender } from '../../platform/push/web-push.ts';
import type { SseHub } from '../../platform/realtime/sse-hub.ts';
import { type NoticeParam, renderParams } from './notices.money.ts';
import { noticeMessages, type NoticeTemplate, pushSubscriptions } from './notices.tables.ts';

export { type MoneyParam, moneyParam, type NoticeParam } from './notices.money.ts';

/** PostgreSQL channel on which a new message id is announced to every server process. */
export const NOTICE_CHANNEL = 'notice_messages';
/** Categories that also go by email (important categories). */
const EMAIL_CATEGORIES: ReadonlySet<NoticeCategory> = new Set(['SECURITY', 'WITHDRAW', 'LOAN', 'KYC']);
/** Subscriptions one user may keep; the oldest is dropped beyond it. */
const SUBSCRIPTIONS_PER_USER_MAX = 20;
const TITLE_LENGTH_MAX = 200;
const BODY_LENGTH_MAX = 2000;
/** Most messages one `notifyMany` call writes. */
export const NOTIFY_BATCH_MAX = 500;

/**
 * Announced messages one process delivers at once (open tabs, Web Push, email; docs/notices.md): a price event that writes 10,000 margin-call and liquidation messages is announced
 * as 10,000 notifications at commit, and starting a delivery per notification at once held 10,000
 * pending database queries and closures in memory. The others wait in a queue of payload strings
 * (about 100 bytes each), delivered in arrival order.
 */
export const DELIVERY_CONCURRENCY_MAX = 4;

/** Who receives a message: their language now, and their email for important categories. */
export interface Recipient {
  locale: Locale;
  email: string | null;
}

/**
 * Supplied by the identity module: the recipients among `userIds` (at most 500) in one look-up,
 * read through `db` (the caller's transaction when the message is written in one); a user who does
 * not exist (any more) is absent from the map.
 */
export type RecipientLookup = (userIds: readonly string[], db?: DbOrTx) => Promise<Map<string, Recipient>>;

/** Sends one email; supplied by the mail platform when it exists. */
export type NoticeMailer = (to: string, subject: string, text: string, locale: Locale) => Promise<void>;

/** What another module asks to tell a user. Texts are templates with `{name}` placeholders. */
export interface NotifyInput {
  userId: string;
  category: NoticeCategory;
  title: LocalizedText;
  body: LocalizedText;
  /** Placeholder values; an amount is a `moneyParam` (formatted in the reader's language when rendered). */
  params?: Record<string, NoticeParam>;
  /** The kind of message, kept with its template (`fund.current.subscribed`; docs/notices.md lists the money events). */
  key?: string;
  /** A path inside the product the message opens, e.g. `/my/order/wallet/deposit`. */
  link?: string;
}

/** How `resolveMessages` rewrites a message whose question was answered: new texts and link, same parameters. */
export interface NoticeResolution {
  key: string;
  title: LocalizedText;
  body: LocalizedText;
  link: string | null;
}

export interface NoticeServiceDeps {
  database: Database;
  /** The app's clock: when a message was written, delivered, read. */
  clock: Clock;
  hub: SseHub;
  push: PushSender | undefined;
  recipientsOf: RecipientLookup;
  mail: NoticeMailer | undefined;
  /**
   * A one-time "this wasn't me" link for `userId` (identity's `issueFreezeLink`): every
   * mailed SECURITY or WITHDRAW message carries a fresh one.
   */
  freezeLinkOf?: (userId: string) => Promise<string>;
  log: FastifyBaseLogger;
}

/** Mailed categories that are security emails: they carry a freeze link. */
const FREEZE_LINK_CATEGORIES: ReadonlySet<NoticeCategory> = new Set(['SECURITY', 'WITHDRAW']);
const FREEZE_LINE: LocalizedText = {
  'en-US': '\n\nThis wasn’t me — freeze my account at once (no sign-in needed): {url}',
  'zh-HK': '\n\n並非本人操作？立即凍結帳戶（無需登入）：{url}',
};

/**
 * A message's title and body in `locale`: rendered from its template, or its
 * stored copy when it has none (rows from before templates were kept).
 */
export function renderNotice(
  row: { title: string; body: string; template: NoticeTemplate | null },
  locale: Locale,
): { title: string; body: string } {
  if (!row.template) return { title: row.title, body: row.body };
  return renderTemplate(row.template, locale);
}

/**
 * The one place a message template becomes text (message centre, stored copy, Web Push, email):
 * amounts (`moneyParam`) are formatted by the money formatter in `locale`, then placeholders filled.
 */
function renderTemplate(template: NoticeTemplate, locale: Locale): { title: string; body: string } {
  const params = renderParams(template.params, locale);
  return {
    title: interpolate(template.title[locale], params).slice(0, TITLE_LENGTH_MAX),
    body: interpolate(template.body[locale], params).slice(0, BODY_LENGTH_MAX),
  };
}

/** A stored message as the reader sees it, in the reader's `locale`. */
function toItem(row: typeof noticeMessages.$inferSelect, locale: Locale): MessageItem {
  return {
    id: row.id,
    category: row.category as NoticeCategory,
    status: row.readAt ? 'read' : 'unread',
    ...renderNotice(row, locale),
    link: row.link,
    createTime: row.createdAt.toISOString(),
  };
}

/**
 * The one notification service other modules call. `notify` writes the message in the
 * recipient's language; the table's trigger (migration 0008) announces it on NOTICE_CHANNEL in the
 * same transaction. After commit every server process hears it and writes it to that user's open
 * tabs (server-sent events), and exactly one process — the one that claims `deliveredAt` — sends
 * Web Push and, for important categories, email. A message with nowhere outside to go (no push
 * subscription, not an emailed category) is not claimed: `deliveredAt` stays empty.
 */
export class NoticeService {
  private unlisten: (() => Promise<void>) | undefined;
  /** Announcement payloads waiting for a delivery slot, and the deliveries running (≤ DELIVERY_CONCURRENCY_MAX). */
  private readonly deliveryQueue: string[] = [];
  private deliveryHead = 0;
  private deliveriesRunning = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: NoticeServiceDeps) {}

  /**
   * Create a message for `input.userId`. Pass the caller's transaction so the message exists only
   * if the caller's change commits. @returns the stored message, or null for an unknown user.
   */
  async notify(input: NotifyInput, tx: DbOrTx = this.deps.database.db): Promise<MessageItem | null> {
    const [item] = await this.notifyMany([input], tx);
    return item ?? null;
  }

  /**
   * `notify` for many messages at once (at most `NOTIFY_BATCH_MAX`): one recipient look-up and one
   * multi-row insert, for callers that commit many changes together (the exchange's swap batches).
   * @returns the stored messages, in input order, without those of unknown users.
   */
  async notifyMany(inputs: readonly NotifyInput[], tx: DbOrTx = this.deps.database.db): Promise<MessageItem[]> {
    assert.ok(inputs.length <= NOTIFY_BATCH_MAX, `at most ${NOTIFY_BATCH_MAX} messages per call`);
    if (inputs.length === 0) return [];
    // Through `tx`: on the embedded database a second connection would wait for this transaction.
    const recipients = await this.deps.recipientsOf([...new Set(inputs.map((input) => input.userId))], tx);
    const values = inputs.flatMap((input) => {
      const recipient = recipients.get(input.userId);
      if (!recipient) return [];
      const template: NoticeTemplate = {
        title: input.title,
        body: input.body,
        params: input.params ?? {},
        ...(input.key !== undefined && { key: input.key }),
      };
      const { title, body } = renderTemplate(template, recipient.locale);
      // A time-ordered id (UUIDv7, monotonic within the process): messages written in the same
      // millisecond — the embedded database's clock has no finer grain — still list newest first.
      return [
        {
          id: uuidv7(),
          userId: input.userId,
          category: input.category,
          title,
          body,
          link: input.link ?? null,
          template: JSON.stringify(template),
        },
      ];
    });
    if (values.length === 0) return [];
    // One INSERT over `unnest`: one parameter per column whatever the batch size.
    const column = (pick: (value: (typeof values)[number]) => string | null) =>
      pgArrayLiteral(values.map((value) => pick(value) ?? ''));
    const result: unknown = await tx.execute(sql`
      INSERT INTO ${noticeMessages} (id, user_id, category, title, body, link, template, created_at)
      SELECT i, u, c, t, b, nullif(l, ''), p::jsonb, ${this.deps.clock.now().toISOString()}::timestamptz FROM unnest(${column((v) => v.id)}::uuid[], ${column((v) => v.userId)}::uuid[], ${column((v) => v.category)}::text[], ${column((v) => v.title)}::text[], ${column((v) => v.body)}::text[], ${column((v) => v.link)}::text[], ${column((v) => v.template)}::text[]) WITH ORDINALITY AS x(i, u, c, t, b, l, p, ord)
      ORDER BY ord
      RETURNING id, created_at`);
    const stored = (result as { rows: { id: string; created_at: Date | string }[] }).rows;
    return values.map((value, index) => ({
      id: stored[index]!.id,
      category: value.category,
      status: 'unread',
      title: value.title,
      body: value.body,
      link: value.link,
      createTime: new Date(stored[index]!.created_at).toISOString(),
    }));
  }

  /**
   * Rewrite the messages of `userId` whose link is one of `links` (a question the user was asked,
   * e.g. a card payment to confirm) once it is answered: new key, texts and link, the same
   * parameters, read state and time; the audit copy is rendered again in the user's language. Pass
   * the caller's transaction so the rewrite commits with the answer. Nothing is announced again.
   * @returns how many messages were rewritten.
   */
  async resolveMessages(
    userId: string,
    links: readonly string[],
    resolution: NoticeResolution,
    tx: DbOrTx = this.deps.database.db,
  ): Promise<number> {
    if (links.length === 0) return 0;
    const rows = await tx
      .select({ id: noticeMessages.id, template: noticeMessages.template })
      .from(noticeMessages)
      .where(and(eq(noticeMessages.userId, userId), inArray(noticeMessages.link, [...links])));
    if (rows.length === 0) return 0;
    const locale = (await this.deps.recipientsOf([userId], tx)).get(userId)?.locale ?? 'en-US';
    for (const row of rows) {
      const template: NoticeTemplate = {
        params: row.template?.params ?? {},
        key: resolution.key,
        title: resolution.title,
        body: resolution.body,
      };
      await tx
        .update(noticeMessages)
        .set({ ...renderTemplate(template, locale), template, link: resolution.link })
        .where(eq(noticeMessages.id, row.id));
    }
    return rows.length;
  }

  /** Start hearing announcements from every process (call once per process). */
  async start(): Promise<void> {
    this.unlisten ??= await this.deps.database.listen(NOTICE_CHANNEL, (payload) => this.enqueueDelivery(payload));
  }

  /**
   * Deliver an announced message when a slot is free (at most `DELIVERY_CONCURRENCY_MAX` at once,
   * in arrival order). A failed delivery is logged and does not stop the others.
   */
  private enqueueDelivery(payload: string): void {
    this.deliveryQueue.push(payload);
    this.pumpDeliveries();
  }

  private pumpDeliveries(): void {
    while (this.deliveriesRunning < DELIVERY_CONCURRENCY_MAX && this.deliveryHead < this.deliveryQueue.length) {
      const payload = this.deliveryQueue[this.deliveryHead]!;
      this.deliveryHead += 1;
      this.deliveriesRunning += 1;
      void this.onAnnounced(payload)
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'notice delivery failed'))
        .finally(() => {
          this.deliveriesRunning -= 1;
          this.pumpDeliveries();
        });
    }
    // Drop the delivered prefix now and then so the queue does not keep every payload seen.
    if (this.deliveryHead === this.deliveryQueue.length) {
      this.deliveryQueue.length = 0;
      this.deliveryHead = 0;
    } else if (this.deliveryHead > 1024) {
      this.deliveryQueue.splice(0, this.deliveryHead);
      this.deliveryHead = 0;
    }
    if (this.deliveriesRunning === 0 && this.deliveryQueue.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /**
   * Resolves once every announcement heard so far has been delivered (queue empty, nothing
   * running): tests and the liquidation benchmark wait on it.
   */
  deliveriesIdle(): Promise<void> {
    if (this.deliveriesRunning === 0 && this.deliveryQueue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Announcements waiting for a delivery slot plus those being delivered (the benchmark samples it). */
  deliveriesPending(): number {
    return this.deliveryQueue.length - this.deliveryHead + this.deliveriesRunning;
  }

  /** Stop hearing announcements. A database that is already closed has nothing left to unlisten. */
  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch((error: unknown) =>
      this.deps.log.debug({ err: error }, 'unlisten after the database closed'),
    );
  }

  private async onAnnounced(payload: string): Promise<void> {
    // `<userId>:<messageId>:<category>:<1 when the user has a push subscription>` (migration 0010).
    const [userId, messageId, category, hasPushFlag] = payload.split(':');
    if (!userId || !messageId) return;
    const db = this.deps.database.db;
    if (this.deps.hub.hasUser(userId)) {
      const [row] = await db.select().from(noticeMessages).where(eq(noticeMessages.id, messageId));
      // Each open tab reads it in the language it shows (a tab that named none: the user's language
      // now, which may have changed since the message was written).
      const accountLocale = (await this.deps.recipientsOf([userId])).get(userId)?.locale;
      if (row && accountLocale) {
        const unreadCount = await this.unreadCount(userId);
        this.deps.hub.publish(userId, 'message', (tabLocale: Locale | undefined) => ({
          message: toItem(row, tabLocale ?? accountLocale),
          unreadCount,
        }));
      }
    }
    const { push, mail } = this.deps;
    const targets =
      push && hasPushFlag !== '0'
        ? await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
        : [];
    const isMailed = mail !== undefined && EMAIL_CATEGORIES.has(category as NoticeCategory);
    if (targets.length === 0 && !isMailed) return;
    // Exactly one process wins this claim and sends the push and email.
    const [claimed] = await db
      .update(noticeMessages)
      .set({ deliveredAt: this.deps.clock.now() })
      .where(and(eq(noticeMessages.id, messageId), isNull(noticeMessages.deliveredAt)))
      .returning();
    if (claimed) await this.deliverOutside(claimed, targets, isMailed);
  }

  private async deliverOutside(
    row: typeof noticeMessages.$inferSelect,
    targets: (typeof pushSubscriptions.$inferSelect)[],
    isMailed: boolean,
  ): Promise<void> {
    const { push, mail, recipientsOf, log } = this.deps;
    const db = this.deps.database.db;
    // Push and email use the user's language at sending time.
    const recipient = (await recipientsOf([row.userId])).get(row.userId);
    const text = renderNotice(row, recipient?.locale ?? 'en-US');
    if (push && targets.length > 0) {
      const payload = JSON.stringify({ id: row.id, title: text.title, body: text.body, link: row.link });
      for (const target of targets) {
        const outcome = await push.send(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          payload,
        );
        if (outcome === 'gone') await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, target.id));
        else if (outcome === 'sent')
          await db
            .update(pushSubscriptions)
            .set({ lastSuccessAt: this.deps.clock.now() })
            .where(eq(pushSubscriptions.id, target.id));
        else log.warn({ endpointHost: new URL(target.endpoint).host }, 'web push failed');
      }
    }
    if (mail && isMailed && recipient?.email) {
      const { freezeLinkOf } = this.deps;
      const freezeLine =
        freezeLinkOf && FREEZE_LINK_CATEGORIES.has(row.category as NoticeCategory)
          ? interpolate(FREEZE_LINE[recipient.locale], { url: await freezeLinkOf(row.userId) })
          : '';
      await mail(recipient.email, text.title, text.body + freezeLine, recipient.locale);
    }
  }

  async unreadCount(userId: string, db: DbOrTx = this.deps.database.db): Promise<number> {
    const [row] = await db
      .select({ unread: count() })
      .from(noticeMessages)
      .where(and(eq(noticeMessages.userId, userId), isNull(noticeMessages.readAt)));
    return row?.unread ?? 0;
  }

  /**
   * A page of the user's messages, newest first, with the unread count, each
   * in the reader's language: `requestedLocale` (the request's User-Lang), else
   * the language the account uses.
   */
  async list(userId: string, page: PageQuery, requestedLocale: Locale | undefined): Promise<MessageListContent> {
    const db = this.deps.database.db;
    // The reader's language: the one the request names, else the one the account uses.
    const locale = requestedLocale ?? (await this.deps.recipientsOf([userId])).get(userId)?.locale ?? 'en-US';
    const [totals] = await db.select({ total: count() }).from(noticeMessages).where(eq(noticeMessages.userId, userId));
    const rows = await db
      .select()
      .from(noticeMessages)
      .where(eq(noticeMessages.userId, userId))
      .orderBy(desc(noticeMessages.createdAt), desc(noticeMessages.id))
      .limit(page.pageSize)
      .offset((page.pageID - 1) * page.pageSize);
    const totalCount = totals?.total ?? 0;
    return {
      list: rows.map((row) => toItem(row, locale)),
      unreadCount: await this.unreadCount(userId),
      pageID: page.pageID,
      pageSize: page.pageSize,
      totalPage: totalPages(totalCount, page.pageSize),
      totalCount,
    };
  }

  /**
   * Mark one message read (reading a read message changes nothing).
   * @throws DomainError NOT_FOUND when the message is not the user's.
   */
  async markRead(userId: string, messageId: string): Promise<number> {
    const db = this.deps.database.db;
    const [row] = await db
      .select({ id: noticeMessages.id })
      .from(noticeMessages)
      .where(and(eq(noticeMessages.id, messageId), eq(noticeMessages.userId, userId)));
    if (!row) throw new DomainError('NOT_FOUND');
    await db
      .update(noticeMessages)
      .set({ readAt: this.deps.clock.now() })
      .where(and(eq(noticeMessages.id, messageId), isNull(noticeMessages.readAt)));
    return this.unreadCount(userId);
  }

  /** Mark every message of the user read; the unread count becomes 0. */
  async markAllRead(userId: string): Promise<number> {
    await this.deps.database.db
      .update(noticeMessages)
      .set({ readAt: this.deps.clock.now() })
      .where(and(eq(noticeMessages.userId, userId), isNull(noticeMessages.readAt)));
    return 0;
  }

  /**
   * Store (or move to this user) a Web Push subscription. The token is the
   * subscription JSON. @throws FieldError on `token` when it is not a valid subscription.
   */
  async saveSubscription(userId: string, body: PushTokenBody, deviceName: string | undefined): Promise<void> {
    let subscription;
    try {
      subscription = webPushSubscriptionSchema.parse(JSON.parse(body.token));
    } catch {
      throw new FieldError('token', 'validation.pushToken');
    }
    const db = this.deps.database.db;
    await db.transaction(async (tx) => {
      await tx
        .insert(pushSubscriptions)
        .values({
          userId,
          endpoint: subscription.endpoint,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
          deviceId: body.deviceId,
          deviceName: deviceName?.slice(0, 64) ?? null,
          platform: body.platform,
        })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: {
            userId,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
            deviceId: body.deviceId,
            deviceName: deviceName?.slice(0, 64) ?? null,
          },
        });
      // Keep the newest subscriptions only, so one account cannot grow the table without bound.
      await tx.execute(sql`
        DELETE FROM ${pushSubscriptions}
        WHERE ${pushSubscriptions.userId} = ${userId}
          AND ${pushSubscriptions.id} NOT IN (
            SELECT ${pushSubscriptions.id} FROM ${pushSubscriptions}
            WHERE ${pushSubscriptions.userId} = ${userId}
            ORDER BY ${pushSubscriptions.createdAt} DESC
            LIMIT ${SUBSCRIPTIONS_PER_USER_MAX}
          )`);
    });
  }
}
