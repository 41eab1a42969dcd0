import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Db } from './client.ts';

/**
 * Read routing to a hot standby (docs/scale.md, "Reads that may lag").
 *
 * Reads that may lag (histories, statements, the calendar, back-office lists) go through
 * `Database.reads`; everything that decides about money uses `Database.db`, the primary. A read
 * goes to the replica only when all of these hold, else to the primary:
 * - the replica answered its last poll (every `pollMs`) within `3 × pollMs`;
 * - the replica has replayed everything the primary had written `maxLagMs` ago or later;
 * - read-your-writes: the replica has replayed everything the primary had written when this
 *   request's client last changed something (`lastWriteAtMs`, carried by a cookie so that any
 *   process behind the load balancer knows it, see `READ_AFTER_WRITE_COOKIE`).
 *
 * "Replayed everything written at time T" is measured, not assumed: each poll samples the
 * primary's `pg_current_wal_lsn()` and the replica's `pg_last_wal_replay_lsn()`, and the replica
 * has caught up to the newest sample time whose primary LSN it has replayed.
 */
export interface ReadRouterOptions {
  /** Between two polls of both servers. */
  pollMs: number;
  /** Beyond this replication lag every read goes to the primary. */
  maxLagMs: number;
  /** Allowance for clocks of different machines: a write is taken as `clockSkewMs` later than stamped. */
  clockSkewMs: number;
  now: () => number;
}

/** Why a read went where it went: the `reason` label of `db_reads_total`. */
export type ReadRoute = 'replica' | 'primary_replica_down' | 'primary_lagging' | 'primary_own_write';

/** The request's read-your-writes context. */
interface ReadContext {
  lastWriteAtMs: number | undefined;
}

const readContext = new AsyncLocalStorage<ReadContext>();

/** Name of the cookie holding the time (ms since the epoch) of the client's last write. */
export const READ_AFTER_WRITE_COOKIE = 'meridian_rw';

/** Run `fn` (a request) with the time its client last wrote, or undefined. */
export function runWithReadContext<T>(lastWriteAtMs: number | undefined, fn: () => T): T {
  return readContext.run({ lastWriteAtMs }, fn);
}

/** Record, for the rest of the current request, that it wrote (a mutating request). */
export function noteWriteInReadContext(atMs: number): void {
  const store = readContext.getStore();
  if (store) store.lastWriteAtMs = atMs;
}

/** Polls primary and replica and decides, per read, which one answers. */
export class ReadRouter {
  private samples: { atMs: number; lsn: bigint }[] = [];
  private caughtUpToMs = Number.NEGATIVE_INFINITY;
  private lastReplicaAnswerMs = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** Reads routed so far, by route. */
  readonly counts: Record<ReadRoute, number> = {
    replica: 0,
    primary_replica_down: 0,
    primary_lagging: 0,
    primary_own_write: 0,
  };

  constructor(
    private readonly primary: pg.Pool,
    private readonly replica: pg.Pool,
    private readonly options: ReadRouterOptions,
  ) {}

  /** Start polling (the first poll runs at once). */
  start(): void {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** How far the replica is behind (ms); Infinity when it has not answered. */
  lagMs(): number {
    return this.options.now() - this.caughtUpToMs;
  }

  /** Where a read in the current context goes, counted. */
  route(): ReadRoute {
    const nowMs = this.options.now();
    let route: ReadRoute;
    if (nowMs - this.lastReplicaAnswerMs > 3 * this.options.pollMs) route = 'primary_replica_down';
    else if (nowMs - this.caughtUpToMs > this.options.maxLagMs) route = 'primary_lagging';
    else {
      const lastWriteAtMs = readContext.getStore()?.lastWriteAtMs;
      route =
        lastWriteAtMs !== undefined && lastWriteAtMs + this.options.clockSkewMs >= this.caughtUpToMs
          ? 'primary_own_write'
          : 'replica';
    }
    this.counts[route] += 1;
    return route;
  }

  /** One poll: the primary's LSN now, then the replica's replayed LSN. Exported for tests. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const atMs = this.options.now();
      const primaryLsn = parseLsn(
        (await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn,
      );
      this.samples.push({ atMs, lsn: primaryLsn });
      const replayed = (
        await this.replica.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')
      ).rows[0]!.lsn;
      this.lastReplicaAnswerMs = this.options.now();
      if (replayed === null) return; // not a standby: never route to it
      const replayedLsn = parseLsn(replayed);
      // The newest sample the replica has replayed; older samples are no longer needed.
      let newest = -1;
      for (let i = 0; i < this.samples.length; i += 1) if (this.samples[i]!.lsn <= replayedLsn) newest = i;
      if (newest >= 0) {
        this.caughtUpToMs = this.samples[newest]!.atMs;
        this.samples = this.samples.slice(newest + 1);
      }
      // A replica that stays behind: keep at most the samples of `maxLagMs` and a margin.
      const horizonMs = atMs - 2 * this.options.maxLagMs;
      while (this.samples.length > 1 && this.samples[0]!.atMs < horizonMs) this.samples.shift();
    } catch {
      // Either server did not answer: the replica's answer time stays old and reads go to the primary.
    } finally {
      this.polling = false;
    }
  }
}

/** A PostgreSQL LSN `XXXXXXXX/YYYYYYYY` (two hex halves) as one number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * A `Db` whose every use goes, at that moment, to the replica or the primary as `router.route()`
 * decides; services hold it like any `Db` (`Database.reads`).
 */
export function routedDb(primary: Db, replica: Db, router: ReadRouter): Db {
  return new Proxy(primary, {
    get(_target, property) {
      const target = router.route() === 'replica' ? replica : primary;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
