import { sql } from 'drizzle-orm';
import { check, index, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Bank accounts users bind for USD wires (`contracts/payments.ts`). Codes are stored as
 * the contract normalises them: `swift_bic` ISO 9362 and `iban` ISO 13616, compact and upper case;
 * `account_number` is the number a wire credits (the IBAN where the country uses it). Removing an
 * account sets `deleted_at` and keeps the row: wires that named it keep their history, and the
 * funds module can still read it for a wire already under way. At most one live row per user and
 * account number. `user_id` is the identity module's user id (no foreign key across modules,
 * docs/architecture.md "Layout").
 */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    accountHolder: text('account_holder').notNull(),
    bankName: text('bank_name').notNull(),
    swiftBic: text('swift_bic').notNull(),
    iban: text('iban'),
    accountNumber: text('account_number').notNull(),
    currency: text('currency').notNull().default('USD'),
    country: text('country').notNull(),
    createdAt: createdAt(),
    /** When the user removed it; null while it is bound. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('bank_accounts_user_number_live_key')
      .on(table.userId, table.accountNumber)
      .where(sql`${table.deletedAt} IS NULL`),
    index('bank_accounts_user_idx').on(table.userId, table.id),
    check('bank_accounts_currency_usd', sql`${table.currency} = 'USD'`),
  ],
);
