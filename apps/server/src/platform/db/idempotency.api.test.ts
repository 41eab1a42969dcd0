import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { manualClock } from '../clock/clock.ts';
import { DomainError } from '../http/errors.ts';
import { createIdempotencyStore, IDEMPOTENCY_LEASE_MS, type IdempotencyStore, requestHashOf } from './idempotency.ts';
import { idempotencyPurgeJob } from './idempotency.jobs.ts';
import { idempotencyKeys } from './idempotency.tables.ts';
import { type ServerInstance, startServerInstance } from './instance.ts';

/**
 * The one idempotency store (docs/api.md "Idempotency") on the test database: replay, a changed
 * request (121), a refusal releasing its claim, a twin told the first request is still running
 * (290), an answer settled in the work's transaction, a dead attempt's claim taken over after
 * its lease, or at once when its server instance is gone, and the purge of old answers.
 */
const clock = manualClock('2026-11-20T04:00:00Z');
let t: TestApp;
let store: IdempotencyStore;
let instance: ServerInstance;
const call = (requestHash = 'h1') => ({ ownerId: 'user-1', idempotencyKey: randomUUID(), requestHash });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  instance = await startServerInstance(t.database);
  store = createIdempotencyStore({ db: t.database.db, clock, instance });
});
afterAll(async () => {
  await instance.stop();
  await t.close();
});

/** A claim left `RUNNING` by the instance `other` (its work never finishes), as a killed server leaves it. */
async function claimOf(other: ServerInstance): Promise<ReturnType<typeof call>> {
  const first = call();
  let isRunning!: () => void;
  const started = new Promise<void>((resolve) => (isRunning = resolve));
  void createIdempotencyStore({ db: t.database.db, clock, instance: other }).runOnce(first, () => {
    isRunning();
    return new Promise<never>(() => {});
  });
  await started;
  return first;
}

describe('runOnce', () => {
  it('runs the work once and replays its answer; another request hash under the key is CONFLICT', async () => {
    const first = call();
    let runs = 0;
    const work = async () => ({ runs: (runs += 1), amount: '10.00' });
    expect(await store.runOnce(first, work)).toEqual({ answer: { runs: 1, amount: '10.00' }, isReplay: false });
    expect(await store.runOnce(first, work)).toEqual({ answer: { runs: 1, amount: '10.00' }, isReplay: true });
    expect(await codeOf(store.runOnce({ ...first, requestHash: 'h2' }, work))).toBe('CONFLICT');
    expect(runs).toBe(1);
  });

  it('releases the claim of a refused request, so a retry runs again', async () => {
    const first = call();
    const refusal = store.runOnce(first, async () => {
      throw new DomainError('INSUFFICIENT_BALANCE');
    });
    expect(await codeOf(refusal)).toBe('INSUFFICIENT_BALANCE');
    expect(await store.runOnce(first, async () => 'done')).toEqual({ answer: 'done', isReplay: false });
  });

  it('tells a twin the first request is still running (290), then replays once it is done', async () => {
    const first = call();
    let release!: () => void;
    const latch = new Promise<void>((resolve) => (release = resolve));
    let isRunning!: () => void;
    const started = new Promise<void>((resolve) => (isRunning = resolve));
    const owner = store.runOnce(first, async () => {
      isRunning();
      await latch;
      return 'first';
    });
    await started;
    expect(await codeOf(store.runOnce(first, async () => 'twin'))).toBe('IDEMPOTENCY_IN_PROGRESS');
    release();
    expect(await owner).toEqual({ answer: 'first', isReplay: false });
    expect(await store.runOnce(first, async () => 'twin')).toEqual({ answer: 'first', isReplay: true });
  });

  it('keeps an answer settled in the work’s transaction, and rolls it back with it', async () => {
    const settled = call();
    const answer = await store.runOnce(settled, (settle) =>
      t.database.db.transaction(async (tx) => {
        await settle(tx, { id: 7 });
        return { id: 7 };
      }),
    );
    expect(answer.isReplay).toBe(false);
    expect(await store.runOnce(settled, async () => ({ id: 8 }))).toEqual({ answer: { id: 7 }, isReplay: true });

    const rolledBack = call();
    const refused = store.runOnce(rolledBack, (settle) =>
      t.database.db.transaction(async (tx) => {
        await settle(tx, { id: 9 });
        throw new DomainError('INSUFFICIENT_BALANCE');
      }),
    );
    expect(await codeOf(refused)).toBe('INSUFFICIENT_BALANCE');
    expect(await store.runOnce(rolledBack, async () => ({ id: 10 }))).toEqual({ answer: { id: 10 }, isReplay: false });
  });

  it('takes over the claim of an attempt that died, once its lease has passed', async () => {
    const first = call();
    let isRunning!: () => void;
    const started = new Promise<void>((resolve) => (isRunning = resolve));
    // Never settles: the attempt of a process that died holding the claim.
    void store.runOnce(first, () => {
      isRunning();
      return new Promise<never>(() => {});
    });
    await started;
    expect(await codeOf(store.runOnce(first, async () => 'twin'))).toBe('IDEMPOTENCY_IN_PROGRESS');
    clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    expect(await store.runOnce(first, async () => 'retried')).toEqual({ answer: 'retried', isReplay: false });
  });
});

describe('claims of server instances', () => {
  it('takes over at once, without the lease, the claim of a server instance that is gone', async () => {
    const killed = await startServerInstance(t.database);
    const first = await claimOf(killed);
    expect(await instance.isGone(killed.id)).toBe(false);
    await killed.stop(); // as a killed process's connection (and its lock) goes
    expect(await instance.isGone(killed.id)).toBe(true);
    expect(await store.runOnce(first, async () => 'retried')).toEqual({ answer: 'retried', isReplay: false });
    expect(await store.runOnce(first, async () => 'again')).toEqual({ answer: 'retried', isReplay: true });
  });

  it('still waits for the claim of another instance that is running (290)', async () => {
    const other = await startServerInstance(t.database);
    try {
      const first = await claimOf(other);
      expect(other.id).not.toBe(instance.id);
      expect(await codeOf(store.runOnce(first, async () => 'twin'))).toBe('IDEMPOTENCY_IN_PROGRESS');
    } finally {
      await other.stop();
    }
  });

  it('never counts its own instance as gone', async () => {
    expect(await instance.isGone(instance.id)).toBe(false);
  });
});

describe('idempotency.purge-answers job', () => {
  it('deletes the answers completed before the retention, keeps newer ones and running claims', async () => {
    const purgeClock = manualClock('2026-11-21T04:00:00Z');
    const purgeStore = createIdempotencyStore({ db: t.database.db, clock: purgeClock, instance });
    const old = call();
    await purgeStore.runOnce(old, async () => 'old');
    purgeClock.advance(23 * 3_600_000);
    const recent = call();
    await purgeStore.runOnce(recent, async () => 'recent');
    const running = await claimOf(instance);
    purgeClock.advance(2 * 3_600_000); // old: 25 h ago, recent: 2 h ago
    const job = idempotencyPurgeJob(purgeStore, 24 * 3_600_000);
    await t.database.db.transaction(async (tx) =>
      job.run({ tx, periodStartAt: purgeClock.now(), now: purgeClock.now() }, undefined),
    );
    const keys = (await t.database.db.select({ key: idempotencyKeys.idempotencyKey }).from(idempotencyKeys)).map(
      (row) => row.key,
    );
    expect(keys).not.toContain(old.idempotencyKey);
    expect(keys).toContain(recent.idempotencyKey);
    expect(keys).toContain(running.idempotencyKey);
    // A purged key runs as a new request.
    expect(await purgeStore.runOnce(old, async () => 'anew')).toEqual({ answer: 'anew', isReplay: false });
  });
});

describe('requestHashOf', () => {
  it('is the same whatever the order of the fields, and writes bigints as digits', () => {
    expect(requestHashOf({ a: 1, b: 2n })).toBe(requestHashOf({ b: 2n, a: 1 }));
    expect(requestHashOf({ amountMinor: 10n })).not.toBe(requestHashOf({ amountMinor: 11n }));
  });
});
