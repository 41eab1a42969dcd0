import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * PRO account applications (an application goes to an account manager in the back office;
 * docs/corporate.md; `contracts/corporate.ts`). One row per
 * application: SUBMITTED until an operator decides it APPROVED or REJECTED with a reply, once
 * (`decided_at`, `decided_by` the operator's email). The partial unique index allows at most one
 * SUBMITTED or APPROVED row per user, so one open application per user holds under concurrency, and
 * an approved user cannot apply again; a rejected user may. `user_id` is the identity module's user
 * id (no foreign key across modules, docs/architecture.md "Layout"). The expected monthly spend is minor units of
 * `currency` (a card currency).
 */
export const proApplications = pgTable(
  'pro_applications',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    companyName: text('company_name').notNull(),
    registrationNumber: text('registration_number').notNull(),
    expectedMonthlySpendMinor: minorAmount('expected_monthly_spend_minor').notNull(),
    currency: text('currency').notNull(),
    cardCount: integer('card_count').notNull(),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone').notNull(),
    /** 'SUBMITTED' | 'APPROVED' | 'REJECTED'. */
    status: text('status').notNull().default('SUBMITTED'),
    /** The operator's answer to the user; null while SUBMITTED. */
    reply: text('reply'),
    /** The deciding operator's email. */
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('pro_applications_user_open_key')
      .on(table.userId)
      .where(sql`${table.status} IN ('SUBMITTED', 'APPROVED')`),
    index('pro_applications_user_idx').on(table.userId, table.id),
    index('pro_applications_status_idx').on(table.status, table.id),
    check('pro_applications_status_known', sql`${table.status} IN ('SUBMITTED', 'APPROVED', 'REJECTED')`),
    check('pro_applications_currency_known', sql`${table.currency} IN ('USD', 'EUR', 'JPY', 'GBP')`),
    check('pro_applications_spend_positive', sql`${table.expectedMonthlySpendMinor} > 0`),
    check('pro_applications_card_count_positive', sql`${table.cardCount} > 0`),
    check(
      'pro_applications_decision_complete',
      sql`(${table.status} = 'SUBMITTED') = (${table.decidedAt} IS NULL AND ${table.reply} IS NULL)`,
    ),
  ],
);
