import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * The secret ICS feed of a user (docs/calendar.md), one row per user. The token is never
 * stored: it is HMAC-SHA256(server secret, user id + `salt`), so the row alone (a database dump)
 * does not give the address; `token_hash` (SHA-256 hex of the token, unique) finds the user of a
 * feed request. Rotating writes a new salt and hash, so the old address answers 404.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id').primaryKey(),
  /** 32 hex characters, new at every rotation. */
  salt: text('salt').notNull(),
  tokenHash: text('token_hash').notNull().unique('calendar_feeds_token_hash_key'),
  createdAt: createdAt(),
});
