import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db } from './client.ts';
import { queryRows } from './rows.ts';

/**
 * First key of the two-key advisory lock that each server instance holds for its whole life, so
 * it never collides with the other advisory locks (jobs 0x4a0b, settings, withdrawals).
 */
export const INSTANCE_LOCK_NAMESPACE = 0x4d49_4e53; // "MINS"

/**
 * One server process as the database sees it (docs/decisions/0017-instance-owned-claims.md). `id`
 * (a random integer in 1..2³¹−1) is the second key of a session-scoped advisory lock
 * `pg_advisory_lock(INSTANCE_LOCK_NAMESPACE, id)` held by this process on a connection of its own:
 * the database releases it when the process dies (its connection closes; on PGlite the whole
 * database goes with the process), so any process can tell whether an instance is still running by
 * looking for that lock in `pg_locks`, with no heartbeat and no clock.
 */
export interface ServerInstance {
  /** This process's instance id: the second key of its advisory lock. */
  readonly id: number;
  /**
   * Whether instance `id` is gone: no session holds its lock. This process's own id is never gone.
   * The answer is a snapshot: an instance can stop just after it was seen running.
   */
  isGone(id: number): Promise<boolean>;
  /** Release the lock (the instance is gone for the others from then on). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Start this process's instance on `database`: pick an id and take its lock on a connection held
 * for the process's life (`Database.holdSessionLock`). An id already held by a live instance (one
 * chance in two billion per pair) is drawn again.
 * @throws when the database cannot be reached.
 */
export async function startServerInstance(database: Pick<Database, 'db' | 'holdSessionLock'>): Promise<ServerInstance> {
  for (;;) {
    const id = randomInt(1, 2 ** 31);
    const release = await database.holdSessionLock(INSTANCE_LOCK_NAMESPACE, id);
    if (!release) continue;
    return serverInstanceOf(database.db, id, release);
  }
}

/** The instance `id` whose lock `release` lets go; `isGone` reads `pg_locks` through `db`. */
function serverInstanceOf(db: Db, id: number, release: () => Promise<void>): ServerInstance {
  let stopped: Promise<void> | undefined;
  return {
    id,
    async isGone(otherId: number): Promise<boolean> {
      if (otherId === id && !stopped) return false;
      const [row] = await queryRows<{ held: boolean }>(
        db,
        sql`SELECT EXISTS (
              SELECT 1 FROM pg_locks
              WHERE locktype = 'advisory' AND granted AND objsubid = 2
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND classid = ${INSTANCE_LOCK_NAMESPACE}::int::oid AND objid = ${otherId}::int::oid
            ) AS held`,
      );
      return row?.held !== true;
    },
    stop() {
      stopped ??= release();
      return stopped;
    },
  };
}
