import pg from 'pg';

/**
 * Who may run a chain's watcher: one process per chain at a time. `acquire` is asked before
 * every poll (cheap once held); `release` gives the role up.
 */
export interface LeaderLock {
  /** True when this process holds the role now (taking it if it is free). */
  acquire(): Promise<boolean>;
  /** Whether the role was held at the last `acquire` and the session still stands. */
  isHeld(): boolean;
  release(): Promise<void>;
}

/** PGlite is one process's database: that process is the leader. */
export function inProcessLeader(): LeaderLock {
  let held = false;
  return {
    acquire: async () => (held = true),
    isHeld: () => held,
    release: async () => {
      held = false;
    },
  };
}

/** First key of the watchers' two-key advisory locks; the second is the chain id. */
export const CHAIN_WATCHER_LOCK_NAMESPACE = 0x636861; // "cha"

/**
 * Leadership by a session-level PostgreSQL advisory lock (`pg_try_advisory_lock(namespace,
 * chainId)`, the chain id read once from the node) held on a connection of its own, opened with `connectionString` directly (never a
 * pooled or transaction-pooling connection, which would hand the session to others). The lock
 * lasts as long as that session: if the process dies or the connection drops, PostgreSQL releases
 * it and another process takes the role at its next `acquire`. A dropped connection is noticed
 * (`error`/`end`) and the role given up until a new session takes the lock again.
 */
export function postgresLeader(
  connectionString: string,
  chainIdOf: () => Promise<number>,
  log: { warn(detail: object, message: string): void },
): LeaderLock {
  let client: pg.Client | undefined;
  let held = false;
  const drop = () => {
    held = false;
    client = undefined;
  };
  return {
    acquire: async () => {
      if (held && client) return true;
      const chainId = await chainIdOf();
      if (!client) {
        const fresh = new pg.Client({ connectionString, application_name: `meridian-chain-watcher-${chainId}` });
        fresh.on('error', (error) => {
          log.warn({ err: error }, 'chain watcher lost its leader connection');
          drop();
        });
        fresh.on('end', drop);
        await fresh.connect();
        client = fresh;
      }
      const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        CHAIN_WATCHER_LOCK_NAMESPACE,
        chainId,
      ]);
      held = result.rows[0]?.locked === true;
      return held;
    },
    isHeld: () => held,
    release: async () => {
      const current = client;
      drop();
      if (!current) return;
      // Ending the session releases its advisory locks.
      await current.end().catch(() => undefined);
    },
  };
}
