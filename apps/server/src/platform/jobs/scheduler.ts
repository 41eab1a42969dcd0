import type { Clock } from '../clock/clock.ts';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { jobRuns } from './jobs.tables.ts';

/** What a job receives for one period. */
export interface JobContext {
  /** The transaction that holds the job's lock and its period claim; commit makes the run count. */
  tx: Tx;
  /** Start of the period being run (a multiple of the job's period since the epoch). */
  periodStartAt: Date;
  /** The scheduler clock's time when the run started. */
  now: Date;
}

/** What `prepare` receives. */
export interface PrepareContext {
  periodStartAt: Date;
  now: Date;
}

/**
 * A periodic job: runs at most once per period across every server process. `prepare`, when given,
 * runs first and outside the transaction — network calls belong there, so the transaction (and, on
 * the embedded database, its only connection) is held for database work alone; its result is
 * handed to `run`. It runs on each instance that finds the period due, so it must have no effects.
 */
export interface JobDefinition<TPrepared = undefined> {
  /** Unique name; also the advisory-lock key. */
  name: string;
  /** Length of one period (60 000 for every minute). */
  periodMs: number;
  prepare?: (context: PrepareContext) => Promise<TPrepared>;
  run(context: JobContext, prepared: TPrepared | undefined): Promise<void>;
}

/** A registered job with its prepared-value type erased. */
interface ScheduledJob {
  name: string;
  periodMs: number;
  prepare(context: PrepareContext): Promise<(context: JobContext) => Promise<void>>;
}

/** How one attempt at a job's period ended. */
export type JobOutcome = 'ran' | 'done-elsewhere' | 'busy' | 'failed';

/** Something that logs like pino. */
export interface JobLogger {
  info(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** Options of the scheduler. */
export interface SchedulerOptions {
  /** The app's clock: periods and job times are read from it. */
  clock: Clock;
  logger?: JobLogger;
  /** How often `start()` checks for due jobs (5 s). */
  tickMs?: number;
  /** Job-run rows older than this are deleted by the scheduler's own daily job (7 days). */
  runRetentionMs?: number;
}

/** First key of the two-key advisory locks taken by jobs, so they never collide with other advisory locks. */
const JOB_LOCK_NAMESPACE = 0x4a0b; // "JOB"

function firstRow<T>(result: unknown): T | undefined {
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows[0] as T | undefined) : undefined;
}

/**
 * An in-process scheduler whose jobs run once per period across all server processes
 * (docs/architecture.md "Outside world", docs/scale.md). Each attempt opens a transaction, takes
 * `pg_try_advisory_xact_lock(namespace, hashtext(job))` — so two instances never run the same job
 * at the same time — then claims the period with an `INSERT … ON CONFLICT DO NOTHING` into
 * `job_runs`, and runs the job in that transaction. Another instance that comes later finds the
 * claim and skips; a failed run rolls its claim back and is retried on the next tick. A
 * transaction-level lock is used rather than a session one because pooled connections would let a
 * session lock outlive its holder or be released on the wrong connection.
 */
export class JobScheduler {
  private readonly jobs: ScheduledJob[] = [];
  private readonly lastDonePeriodMs = new Map<string, number>();
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> = Promise.resolve();
  private isStopped = false;

  constructor(
    private readonly db: Db,
    private readonly options: SchedulerOptions,
  ) {
    this.clock = options.clock;
    const retentionMs = options.runRetentionMs ?? 7 * 86_400_000;
    this.register({
      name: 'jobs.prune-runs',
      periodMs: 86_400_000,
      run: async ({ tx, now }) => {
        await tx.delete(jobRuns).where(lt(jobRuns.periodStartAt, new Date(now.getTime() - retentionMs)));
      },
    });
  }

  /** Add a job. @throws Error on a duplicate name or a period under one second. */
  register<TPrepared>(job: JobDefinition<TPrepared>): void {
    if (this.jobs.some((existing) => existing.name === job.name))
      throw new Error(`job ${job.name} is registered twice`);
    if (!(job.periodMs >= 1000)) throw new Error(`job ${job.name}: period must be at least 1 s`);
    this.jobs.push({
      name: job.name,
      periodMs: job.periodMs,
      prepare: async (context) => {
        const prepared = job.prepare ? await job.prepare(context) : undefined;
        return (jobContext) => job.run(jobContext, prepared);
      },
    });
  }

  /** Start ticking every `tickMs` (the timer does not keep the process alive). */
  start(): void {
    if (this.timer || this.isStopped) return;
    const tick = () => {
      this.inFlight = this.tick().catch((error: unknown) =>
        this.options.logger?.error({ err: error }, 'job tick failed'),
      );
    };
    tick();
    this.timer = setInterval(tick, this.options.tickMs ?? 5_000);
    this.timer.unref();
  }

  /** Stop ticking and wait for the running job, if any (graceful shutdown). */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /**
   * Attempt every job whose current period this instance has not seen done, one after another.
   * @returns each attempted job's outcome (tests drive the scheduler through this with a fake clock).
   */
  async tick(): Promise<Record<string, JobOutcome>> {
    const outcomes: Record<string, JobOutcome> = {};
    for (const job of this.jobs) {
      if (this.isStopped) break;
      const now = this.clock.now();
      const periodStartMs = Math.floor(now.getTime() / job.periodMs) * job.periodMs;
      if (this.lastDonePeriodMs.get(job.name) === periodStartMs) continue;
      outcomes[job.name] = await this.attempt(job, new Date(periodStartMs), now);
      if (outcomes[job.name] === 'ran' || outcomes[job.name] === 'done-elsewhere')
        this.lastDonePeriodMs.set(job.name, periodStartMs);
    }
    return outcomes;
  }

  private async attempt(job: ScheduledJob, periodStartAt: Date, now: Date): Promise<JobOutcome> {
    // A duration, not calendar time: the monotonic clock.
    const startedMs = performance.now();
    try {
      const run = await job.prepare({ periodStartAt, now });
      const outcome = await this.db.transaction(async (tx): Promise<JobOutcome> => {
        const lock = firstRow<{ locked: boolean }>(
          await tx.execute(
            sql`SELECT pg_try_advisory_xact_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job.name})) AS locked`,
          ),
        );
        if (!lock?.locked) return 'busy';
        const claimed = await tx
          .insert(jobRuns)
          .values({ jobName: job.name, periodStartAt, startedAt: now })
          .onConflictDoNothing()
          .returning({ jobName: jobRuns.jobName });
        if (claimed.length === 0) return 'done-elsewhere';
        await run({ tx, periodStartAt, now });
        await tx
          .update(jobRuns)
          .set({ finishedAt: this.clock.now() })
          .where(and(eq(jobRuns.jobName, job.name), eq(jobRuns.periodStartAt, periodStartAt)));
        return 'ran';
      });
      if (outcome === 'ran')
        this.options.logger?.info(
          { job: job.name, periodStartAt, durationMs: Math.round(performance.now() - startedMs) },
          'job ran',
        );
      return outcome;
    } catch (error) {
      this.options.logger?.error(
        { err: error, job: job.name, periodStartAt },
        'job failed; it is retried on the next tick',
      );
      return 'failed';
    }
  }
}
