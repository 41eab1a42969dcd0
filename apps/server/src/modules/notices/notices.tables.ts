import type { LocalizedText } from '@meridian/contracts/locale';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import type { NoticeParam } from './notices.money.ts';

/**
 * Message-centre messages. `title` and `body` keep the copy rendered in the
 * user's language when the message was created (the audit copy); `template` keeps what it was made
 * from, so it is read in the reader's language. Rows from before the column have
 * no template and show their stored copy. `deliveredAt` is claimed by exactly one server process,
 * which then sends the Web Push and email for it.
 */
export const noticeMessages = pgTable(
  'notice_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    category: text('category').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /** The message's templates in every language with their `{name}` parameters; null on old rows. */
    template: jsonb('template').$type<NoticeTemplate>(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('notice_messages_user_created_idx').on(table.userId, table.createdAt.desc(), table.id)],
);

/** What a message is rendered from (`interpolate(title[locale], params)`; amounts formatted first, notices.money.ts). */
export interface NoticeTemplate {
  title: LocalizedText;
  body: LocalizedText;
  params: Record<string, NoticeParam>;
  /**
   * The money event or kind of message (`fund.subscribed`, `card.confirm.approved`…; docs/notices.md
   * lists them); absent on messages written before keys were kept and on those without one.
   */
  key?: string;
}

/** Web Push subscriptions, one per endpoint. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name'),
    platform: text('platform').notNull(),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
);
