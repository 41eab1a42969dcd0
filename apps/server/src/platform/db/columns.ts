import { numeric, timestamp } from 'drizzle-orm/pg-core';

/**
 * An amount in integer minor units (docs/architecture.md "Money"): `numeric(38,0)` read and written as `bigint`,
 * so no amount ever passes through a JavaScript number.
 */
export function minorAmount(name: string) {
  return numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
}

/** A point in time with its zone, defaulting to the transaction's `now()`. */
export function createdAt() {
  return timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
}
