import type { JobDefinition } from '../jobs/scheduler.ts';
import { IDEMPOTENCY_RETENTION_MS_DEFAULT, type IdempotencyStore } from './idempotency.ts';

/** How often the purge of old idempotent answers runs: hourly. */
export const IDEMPOTENCY_PURGE_PERIOD_MS = 3_600_000;

/**
 * The job that deletes the idempotent answers completed more than `retentionMs` before the run
 * (by the scheduler's clock; default `IDEMPOTENCY_RETENTION_MS_DEFAULT`, 24 h; config
 * `IDEMPOTENCY_RETENTION_HOURS`), in the job's transaction. Claims still running are kept. A key
 * sent again after its answer was purged runs as a new request (docs/api.md "Idempotency").
 */
export function idempotencyPurgeJob(
  store: IdempotencyStore,
  retentionMs: number = IDEMPOTENCY_RETENTION_MS_DEFAULT,
): JobDefinition {
  return {
    name: 'idempotency.purge-answers',
    periodMs: IDEMPOTENCY_PURGE_PERIOD_MS,
    async run({ tx, now }) {
      await store.purgeAnswers(tx, new Date(now.getTime() - retentionMs));
    },
  };
}
