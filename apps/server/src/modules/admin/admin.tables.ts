import { boolean, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Back-office operators who move OUTER withdrawals. They authenticate with a bearer token whose
 * SHA-256 is stored here (`npm run ops -- operators add`). Roles: 'admin' (everything),
 * 'withdrawals' (move withdrawals), 'compliance' (review identity verification), 'viewer' (read). Defined by migration 0004 (then in wallet).
 */
export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  role: text('role').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});
