import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The answers of idempotent calls (docs/decisions/0009-idempotency.md, docs/api.md): one row per
 * owner and `Idempotency-Key`, claimed (`RUNNING`) before the call's work starts and holding the
 * call's answer once it is done (`DONE`). A refused call releases its claim (the row is deleted), so
 * only answers that did something are replayed. `claim_token` names the attempt that holds the
 * claim; `instance_id` the server instance running it (`platform/db/instance.ts`: a claim whose
 * instance is gone is taken over at once); `claimed_at` is written with the app's clock (a claim
 * older than the lease is taken over). Answers completed longer ago than the retention are purged
 * (`idempotency.purge-answers` job).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: the signed-in user's id (keys are unique per account, as Stripe's). */
    ownerId: text('owner_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the call: method, route, path parameters and body without the one-time factors. */
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['RUNNING', 'DONE'] }).notNull(),
    claimToken: text('claim_token').notNull(),
    /** The instance holding the claim (`ServerInstance.id`); null on claims made before instances were named. */
    instanceId: integer('instance_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The content of the success envelope as JSON text (not jsonb, which reorders keys), replayed unchanged. */
    answer: text('answer'),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [table.ownerId, table.idempotencyKey] }),
    index('idempotency_keys_completed_at_idx').on(table.completedAt),
  ],
);
