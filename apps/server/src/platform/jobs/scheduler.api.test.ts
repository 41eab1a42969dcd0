import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { jobRuns } from './jobs.tables.ts';
import { type JobDefinition, JobScheduler } from './scheduler.ts';
import { manualClock, systemClock } from '../clock/clock.ts';

describe('JobScheduler: one run per period across instances', () => {
  let database: Database & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.dispose());

  it('runs a job once per period when two schedulers tick at the same time, over five periods', async () => {
    const clock = manualClock('2026-11-20T10:00:05Z');
    const runs: string[] = [];
    const job = (instance: string): JobDefinition => ({
      name: 'test.count',
      periodMs: 60_000,
      run: async ({ periodStartAt }) => {
        runs.push(`${instance}@${periodStartAt.toISOString()}`);
        // Hold the transaction a moment, so the other instance really races for the lock.
        await new Promise((resolve) => setImmediate(resolve));
      },
    });
    const a = new JobScheduler(database.db, { clock });
    const b = new JobScheduler(database.db, { clock });
    a.register(job('a'));
    b.register(job('b'));
    for (let period = 0; period < 5; period += 1) {
      // Twice per period: an instance that found the lock busy retries and then finds the claim.
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.tick(), b.tick()]);
      clock.advance(60_000);
    }
    expect(runs.map((run) => run.split('@')[1])).toEqual([
      '2026-11-20T10:00:00.000Z',
      '2026-11-20T10:01:00.000Z',
      '2026-11-20T10:02:00.000Z',
      '2026-11-20T10:03:00.000Z',
      '2026-11-20T10:04:00.000Z',
    ]);
    const claims = await database.db.select().from(jobRuns).where(eq(jobRuns.jobName, 'test.count'));
    expect(claims).toHaveLength(5);
    expect(claims.every((claim) => claim.finishedAt !== null)).toBe(true);
  });

  it('rolls a failed run back and retries it on the next tick of the same period', async () => {
    const clock = manualClock('2026-11-20T11:00:00Z');
    let attempts = 0;
    const scheduler = new JobScheduler(database.db, { clock });
    scheduler.register({
      name: 'test.flaky',
      periodMs: 3_600_000,
      run: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('exchange down');
      },
    });
    expect((await scheduler.tick())['test.flaky']).toBe('failed');
    expect(await database.db.select().from(jobRuns).where(eq(jobRuns.jobName, 'test.flaky'))).toHaveLength(0);
    expect((await scheduler.tick())['test.flaky']).toBe('ran');
    expect((await scheduler.tick())['test.flaky']).toBeUndefined();
    expect(attempts).toBe(2);
  });

  it('a second instance started later in the period finds the claim and skips', async () => {
    const clock = manualClock('2026-11-20T12:00:10Z');
    let runs = 0;
    const job: JobDefinition = { name: 'test.late', periodMs: 60_000, run: async () => void (runs += 1) };
    const first = new JobScheduler(database.db, { clock });
    first.register(job);
    await first.tick();
    clock.advance(30_000);
    const second = new JobScheduler(database.db, { clock });
    second.register(job);
    expect((await second.tick())['test.late']).toBe('done-elsewhere');
    expect(runs).toBe(1);
  });

  it('runs prepare outside the transaction and hands its result to run; a failed prepare claims nothing', async () => {
    const clock = manualClock('2026-11-20T13:00:00Z');
    const seen: string[] = [];
    let isExchangeUp = false;
    const scheduler = new JobScheduler(database.db, { clock });
    scheduler.register<string>({
      name: 'test.prepared',
      periodMs: 60_000,
      prepare: async () => {
        if (!isExchangeUp) throw new Error('exchange down');
        return 'BTC 97196.9';
      },
      run: async (_context, prepared) => void seen.push(prepared ?? 'none'),
    });
    expect((await scheduler.tick())['test.prepared']).toBe('failed');
    expect(await database.db.select().from(jobRuns).where(eq(jobRuns.jobName, 'test.prepared'))).toHaveLength(0);
    isExchangeUp = true;
    expect((await scheduler.tick())['test.prepared']).toBe('ran');
    expect(seen).toEqual(['BTC 97196.9']);
  });

  it('refuses a duplicate job name', () => {
    const scheduler = new JobScheduler(database.db, { clock: systemClock });
    expect(() => scheduler.register({ name: 'jobs.prune-runs', periodMs: 60_000, run: async () => {} })).toThrow(
      /registered twice/,
    );
  });
});
