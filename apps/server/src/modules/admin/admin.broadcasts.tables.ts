import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Broadcast messages sent by operators: the texts in both languages, the
 * segment ('all' | 'verified': KYC level ≥ 1), how many users it reached and who sent it. The
 * messages themselves are the notices module's rows. The operator's email is kept with the row so
 * it still reads after the operator is deactivated.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    titleEn: text('title_en').notNull(),
    titleZh: text('title_zh').notNull(),
    bodyEn: text('body_en').notNull(),
    bodyZh: text('body_zh').notNull(),
    /** 'all' | 'verified'. */
    segment: text('segment').notNull(),
    recipientCount: integer('recipient_count').notNull(),
    operatorId: integer('operator_id').notNull(),
    operatorEmail: text('operator_email').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('broadcasts_created_idx').on(table.createdAt)],
);
