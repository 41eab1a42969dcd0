import { index, integer, pgTable, serial, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Operators' notes on a user (support and compliance leave context for each
 * other), append-only: never edited or deleted. `user_id` is the identity module's user id (no
 * foreign key across modules, docs/architecture.md "Layout"); the operator's email is kept with the note so it
 * still reads after the operator is deactivated.
 */
export const userNotes = pgTable(
  'user_notes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    operatorId: integer('operator_id').notNull(),
    operatorEmail: text('operator_email').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('user_notes_user_created_idx').on(table.userId, table.createdAt)],
);
