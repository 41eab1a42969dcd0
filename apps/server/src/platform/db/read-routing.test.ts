import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseLsn, ReadRouter, runWithReadContext } from './read-routing.ts';

/** A pool answering `SELECT …lsn` with whatever `lsn()` says, or failing when it throws. */
function fakePool(lsn: () => string | null): pg.Pool {
  return { query: async () => ({ rows: [{ lsn: lsn() }] }) } as unknown as pg.Pool;
}

function setup() {
  let nowMs = 1_000_000;
  let primaryLsn = '0/100';
  let replayedLsn: string | null = '0/100';
  let replicaUp = true;
  const replica = fakePool(() => {
    if (!replicaUp) throw new Error('connection refused');
    return replayedLsn;
  });
  const router = new ReadRouter(
    fakePool(() => primaryLsn),
    replica,
    { pollMs: 200, maxLagMs: 5000, clockSkewMs: 50, now: () => nowMs },
  );
  return {
    router,
    advance: (ms: number) => (nowMs += ms),
    now: () => nowMs,
    write: (lsn: string) => (primaryLsn = lsn),
    replay: (lsn: string | null) => (replayedLsn = lsn),
    replicaDown: () => (replicaUp = false),
  };
}

describe('parseLsn', () => {
  it('reads both hex halves of a PostgreSQL LSN', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe((1n << 64n) - 1n);
  });
});

describe('ReadRouter', () => {
  it('goes to the primary until the replica has answered, then to the replica', async () => {
    const t = setup();
    expect(t.router.route()).toBe('primary_replica_down');
    await t.router.poll();
    expect(t.router.route()).toBe('replica');
  });

  it("keeps a client on the primary until the replica has replayed that client's write", async () => {
    const t = setup();
    await t.router.poll();
    t.advance(10);
    const writeAtMs = t.now();
    t.write('0/200'); // the write commits on the primary
    t.advance(100);
    await t.router.poll(); // sampled 0/200, replica still at 0/100
    runWithReadContext(writeAtMs, () => expect(t.router.route()).toBe('primary_own_write'));
    runWithReadContext(undefined, () => expect(t.router.route()).toBe('replica')); // others may read the lagging replica
    t.replay('0/200');
    t.advance(200);
    await t.router.poll();
    runWithReadContext(writeAtMs, () => expect(t.router.route()).toBe('replica'));
  });

  it('falls back to the primary when the replica lags beyond the limit or stops answering', async () => {
    const t = setup();
    await t.router.poll();
    t.write('0/300');
    for (let i = 0; i < 30; i += 1) {
      t.advance(200);
      await t.router.poll(); // the replica never replays 0/300
    }
    expect(t.router.lagMs()).toBeGreaterThan(5000);
    expect(t.router.route()).toBe('primary_lagging');
    t.replay('0/300');
    t.advance(200);
    await t.router.poll();
    expect(t.router.route()).toBe('replica');
    t.replicaDown();
    t.advance(700);
    await t.router.poll();
    expect(t.router.route()).toBe('primary_replica_down');
    expect(t.router.counts).toEqual({ replica: 1, primary_replica_down: 1, primary_lagging: 1, primary_own_write: 0 });
  });

  it('never routes to a server that is not a standby', async () => {
    const t = setup();
    t.replay(null); // pg_last_wal_replay_lsn() is NULL on a primary
    await t.router.poll();
    expect(t.router.route()).toBe('primary_lagging');
  });
});
