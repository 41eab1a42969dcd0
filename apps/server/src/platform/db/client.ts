import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { systemClock } from '../clock/clock.ts';
import { lockDataDir } from './lock.ts';
import { startAutoAnalyze } from './maintenance.ts';
import { ReadRouter, routedDb } from './read-routing.ts';
import { drizzleClientOf } from './pglite-client.ts';

/**
 * The database handle every service receives. Both drivers (PGlite and node-postgres) speak the
 * same PostgreSQL dialect through the same Drizzle query builder (docs/architecture.md "Database").
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; services that move money take one of these as a parameter (every balance change is one journal entry in one database transaction). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either a database or a transaction: repositories accept both. */
export type DbOrTx = Db | Tx;

/** Where to open the database. */
export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory'; loadDataDir?: Blob | File }
  | {
      kind: 'postgres';
      /** The pool's URL: the primary, or a pooler in transaction mode in front of it. */
      url: string;
      /**
       * A direct session connection to the same primary for LISTEN and migrations, which a pooler
       * in transaction mode cannot carry (docs/scale.md). Default: `url`.
       */
      directUrl?: string;
      /** A hot standby for reads that may lag (docs/scale.md); unset: every read on the primary. */
      readUrl?: string;
      /** Beyond this replication lag (ms) reads fall back to the primary. Default 5000. */
      readMaxLagMs?: number;
      poolMax?: number;
    };

/** Session advisory-lock key held while migrating (an arbitrary constant: 'meridian' in ASCII). */
const MIGRATION_LOCK_KEY = '7882832519763681646';

/** Connection-pool figures for metrics. PGlite is a single in-process connection. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  /** The primary: everything that writes or decides about money. */
  db: Db;
  /**
   * Reads that may lag (histories, statements, the calendar, back-office lists): the replica when
   * one is configured and caught up with this client's last write, else the primary (`ReadRouter`).
   * The same handle as `db` without a replica.
   */
  reads: Db;
  /**
   * On PostgreSQL, the URL of a direct session to the primary (`DATABASE_DIRECT_URL`, else the
   * pool's URL) for what needs a session of its own (leader locks); undefined on PGlite.
   */
  directUrl: string | undefined;
  /** The replica router when `readUrl` is set (its lag and counts feed the metrics). */
  readRouter: ReadRouter | undefined;
  kind: DatabaseTarget['kind'];
  /** Run `SELECT 1`; rejects when the database cannot answer. */
  ping(): Promise<void>;
  poolStats(): PoolStats;
  /**
   * Subscribe to PostgreSQL notifications on `channel` (LISTEN/NOTIFY; PGlite supports it in
   * process). Notifications sent with `pg_notify` inside a transaction arrive after it commits, in
   * every process listening on the same database. Returns the unsubscribe function.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Take the session-scoped advisory lock `(classId, objId)` if it is free and hold it until the
   * returned release is called or the process dies: on PostgreSQL on a connection of its own
   * (outside the pool, re-opened and the lock taken again if it drops; it must be a real session,
   * not a pooler in transaction mode), on PGlite in its one session. Undefined when another session holds it. Used by `startServerInstance` (instance.ts).
   */
  holdSessionLock(classId: number, objId: number): Promise<(() => Promise<void>) | undefined>;
  /** Apply every pending drizzle-kit migration found in `migrationsFolder`. */
  migrate(migrationsFolder: string): Promise<void>;
  /** The PGlite instance, for template dumps in tests; undefined on PostgreSQL. */
  pglite: PGlite | undefined;
  /** Close connections and release the data-directory lock. Idempotent. */
  close(): Promise<void>;
}

/** The 'error' listener every pooled client gets (see `openDatabase`): the failed query reports it. */
function ignoreClientErrors(client: pg.PoolClient): void {
  client.on('error', () => undefined);
}

/**
 * Open the database described by `target`. A PGlite data directory is locked for this process
 * (`lockDataDir`) so a second server cannot open it.
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolMax ?? 10 });
    // An idle client that loses its connection (server restart, DROP DATABASE … WITH (FORCE) while
    // the pool ends) emits 'error' on the pool; unhandled, that would crash the process. The next
    // query opens a fresh connection, so there is nothing else to do here.
    pool.on('error', () => undefined);
    // A checked-out client has no such listener: one whose connection drops between two queries of
    // a transaction (a pooler restart, a failover) would emit an unhandled 'error' and crash the
    // process. Its next query fails instead, and the pool discards it on release.
    pool.on('connect', ignoreClientErrors);
    const nodePgDb = drizzleNodePg(pool);
    const db: Db = nodePgDb;
    let closed = false;
    const directUrl = target.directUrl ?? target.url;
    const replicaPool = target.readUrl
      ? new pg.Pool({ connectionString: target.readUrl, max: target.poolMax ?? 10 })
      : undefined;
    replicaPool?.on('error', () => undefined);
    replicaPool?.on('connect', ignoreClientErrors);
    const readRouter = replicaPool
      ? new ReadRouter(pool, replicaPool, {
          pollMs: 200,
          maxLagMs: target.readMaxLagMs ?? 5000,
          clockSkewMs: 50,
          // Replication is physical time on the servers' clocks, never the app's (test) clock.
          now: () => systemClock.now().getTime(),
        })
      : undefined;
    readRouter?.start();
    const reads = replicaPool && readRouter ? routedDb(db, drizzleNodePg(replicaPool), readRouter) : db;
    const listeners = new PostgresListeners(directUrl);
    return {
      db,
      reads,
      directUrl,
      readRouter,
      listen: (channel, onPayload) => listeners.listen(channel, onPayload),
      // A session lock needs a session: on the direct connection when a pooler is in front.
      holdSessionLock: (classId, objId) => holdPostgresSessionLock(directUrl, classId, objId),
      migrate: async (migrationsFolder) => {
        // One session for the whole run, holding an advisory lock so that processes starting
        // together migrate one after another; on the direct connection when a pooler is in front.
        const isDirect = directUrl !== target.url;
        const direct = isDirect ? new pg.Client({ connectionString: directUrl }) : undefined;
        direct?.on('error', () => undefined); // a lost session fails the migration's next query
        if (direct) await direct.connect();
        const session = direct ?? (await pool.connect());
        try {
          await session.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
          await migrateNodePg(drizzleNodePg(session), { migrationsFolder });
        } finally {
          await session.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
          if (direct) await direct.end();
          else (session as pg.PoolClient).release();
        }
      },
      kind: 'postgres',
      pglite: undefined,
      ping: async () => {
        await pool.query('SELECT 1');
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        if (closed) return;
        closed = true;
        readRouter?.stop();
        await listeners.close();
        await replicaPool?.end();
        await pool.end();
      },
    };
  }

  const release = target.kind === 'pglite' ? await lockDataDir(target.dataDir) : () => {};
  let client: PGlite | undefined;
  try {
    client =
      target.kind === 'pglite'
        ? await PGlite.create({ dataDir: join(target.dataDir, 'pglite') })
        : await PGlite.create(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {});
    // PGlite's one backend fills each new 16 MB WAL segment with zeros before using it: in the
    // server's thread that stopped every request for 40–90 ms once per 16 MB written (measured in
    // bench:swap). Without it PostgreSQL sets the segment's size by writing its last byte; what
    // it writes and reads is unchanged (the setting exists for copy-on-write file systems).
    await client.exec('SET wal_init_zero = off');
  } catch (error) {
    await client?.close().catch(() => undefined);
    release();
    throw error;
  }
  const pgliteDb = drizzlePglite({ client: drizzleClientOf(client) as PGlite });
  const db: Db = pgliteDb;
  let closed = false;
  // No autovacuum in PGlite: keep the planner's statistics current as tables grow.
  const stopAutoAnalyze = startAutoAnalyze(db, (error) => {
    if (!closed) process.emitWarning(`embedded database autoanalyze failed: ${String(error)}`);
  });
  return {
    db,
    reads: db,
    directUrl: undefined,
    readRouter: undefined,
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return () => unlisten();
    },
    holdSessionLock: async (classId, objId) => {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
        classId,
        objId,
      ]);
      if (rows[0]?.locked !== true) return undefined;
      return async () => {
        if (!closed) await client.query('SELECT pg_advisory_unlock($1, $2)', [classId, objId]);
      };
    },
    migrate: (migrationsFolder) => migratePglite(pgliteDb, { migrationsFolder }),
    kind: target.kind,
    pglite: client,
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await stopAutoAnalyze();
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * `Database.holdSessionLock` on PostgreSQL: a dedicated connection takes
 * `pg_try_advisory_lock(classId, objId)`; undefined (and the connection closed) when it is held.
 * A dropped connection loses the lock: it is re-opened after 1 s and the lock taken again.
 */
async function holdPostgresSessionLock(
  url: string,
  classId: number,
  objId: number,
): Promise<(() => Promise<void>) | undefined> {
  let client: pg.Client | undefined;
  let released = false;
  const open = async (): Promise<boolean> => {
    const next = new pg.Client({ connectionString: url });
    next.on('error', () => {
      client = undefined;
      if (!released) setTimeout(() => void open().catch(() => undefined), 1000).unref();
    });
    await next.connect();
    const { rows } = await next.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      classId,
      objId,
    ]);
    if (rows[0]?.locked !== true || released) {
      await next.end();
      return false;
    }
    client = next;
    return true;
  };
  if (!(await open())) return undefined;
  return async () => {
    released = true;
    await client?.end().catch(() => undefined);
    client = undefined;
  };
}

/** Channel names are identifiers we choose; refuse anything else rather than quote it. */
function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel name: ${channel}`);
}

/**
 * One dedicated node-postgres connection per database for LISTEN, shared by every subscriber in
 * the process. A dropped connection is re-opened (after 1 s) and its channels listened to again.
 */
class PostgresListeners {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly url: string) {}

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => {
        this.client = undefined;
        this.connecting = undefined;
        if (!this.closed && this.handlers.size > 0) setTimeout(() => void this.reconnect(), 1000).unref();
      });
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private async reconnect(): Promise<void> {
    try {
      await this.connect();
    } catch {
      if (!this.closed) setTimeout(() => void this.reconnect(), 1000).unref();
    }
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    assertChannelName(channel);
    const isNewChannel = !this.handlers.has(channel);
    const set = this.handlers.get(channel) ?? new Set();
    set.add(onPayload);
    this.handlers.set(channel, set);
    const client = await this.connect();
    if (isNewChannel) await client.query(`LISTEN ${channel}`);
    return async () => {
      set.delete(onPayload);
      if (set.size === 0) {
        this.handlers.delete(channel);
        await this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
    const client = this.client ?? (this.connecting ? await this.connecting.catch(() => undefined) : undefined);
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
