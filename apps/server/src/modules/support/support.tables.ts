import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Support requests (account-deletion requests, each answered with a status and a reply;
 * docs/back-office.md "Support requests"): one row per request a customer sends customer service. `status` moves
 * PENDING → IN_PROGRESS → DONE or REJECTED (`SUPPORT_REQUEST_TRANSITIONS` in the contracts); the partial unique index
 * keeps at most one open request (PENDING or IN_PROGRESS) per user and kind, so two concurrent submissions cannot both
 * pass. Rows are kept after the account is closed (the trail).
 */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** `SUPPORT_REQUEST_KINDS`: ACCOUNT_DELETION. */
    kind: text('kind').notNull(),
    /** `SUPPORT_REQUEST_STATUSES`. */
    status: text('status').notNull().default('PENDING'),
    /** The customer's reason, as typed (1–1000 characters). */
    reason: text('reason').notNull(),
    /** Customer service's latest reply (also sent to the message centre); null until one. */
    reply: text('reply'),
    /** Email of the operator who wrote the latest reply. */
    repliedBy: text('replied_by'),
    repliedAt: timestamp('replied_at', { withTimezone: true, mode: 'date' }),
    /** Email of the operator who set DONE or REJECTED. */
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    check('support_requests_status_known', sql`${table.status} IN ('PENDING', 'IN_PROGRESS', 'DONE', 'REJECTED')`),
    check('support_requests_kind_known', sql`${table.kind} IN ('ACCOUNT_DELETION')`),
    check(
      'support_requests_decided_has_decider',
      sql`${table.status} NOT IN ('DONE', 'REJECTED') OR ${table.decidedBy} IS NOT NULL`,
    ),
    uniqueIndex('support_requests_one_open_idx')
      .on(table.userId, table.kind)
      .where(sql`${table.status} IN ('PENDING', 'IN_PROGRESS')`),
    index('support_requests_user_idx').on(table.userId, table.createdAt.desc()),
    index('support_requests_status_idx').on(table.status, table.createdAt),
  ],
);
