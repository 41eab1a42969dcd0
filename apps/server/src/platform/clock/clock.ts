/**
 * The server's one source of the current instant (docs/clock.md). Every rule that depends on the
 * time of day or the date — expiries, windows, due dates, statements, jobs — reads `clock.now()`;
 * `buildApp` creates one clock and hands it to every module. Durations (how long something took,
 * how long to wait) are not calendar time: they use `performance.now()`.
 */

/** A source of the current instant. `now()` answers a fresh `Date` on every call. */
export interface Clock {
  now(): Date;
}

/** The machine's clock: the real current instant. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that reads `startAt` at the moment it is created and then runs at the real rate: after
 * 1.5 real seconds it reads `startAt` + 1 500 ms. Test servers use it for `TEST_CLOCK_AT`, so a run
 * sees one chosen date while timeouts and expiries still pass at the speed they do in production.
 * @param startAt the instant the clock reads when created.
 * @param realNowMs the real time in milliseconds since the epoch (a parameter for this module's tests).
 */
export function startedClock(startAt: Date, realNowMs: () => number = () => Date.now()): Clock {
  const offsetMs = startAt.getTime() - realNowMs();
  return { now: () => new Date(realNowMs() + offsetMs) };
}

/** A clock a test sets and moves by hand; it stands still in between. */
export interface ManualClock extends Clock {
  /** Read `at` (an ISO 8601 instant, e.g. `2026-01-30T10:00:00+08:00`, or a `Date`) from now on. */
  set(at: string | Date): void;
  /** Move the clock forward by `ms` milliseconds (backward when negative). */
  advance(ms: number): void;
}

/**
 * A clock that reads `at` until the test sets or advances it.
 * @param at an ISO 8601 instant with its offset, or a `Date`.
 * @throws RangeError when `at` is not a valid instant.
 */
export function manualClock(at: string | Date): ManualClock {
  const instantMs = (value: string | Date) => {
    const ms = typeof value === 'string' ? Date.parse(value) : value.getTime();
    if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${String(value)}`);
    return ms;
  };
  let nowMs = instantMs(at);
  return {
    now: () => new Date(nowMs),
    set: (next) => void (nowMs = instantMs(next)),
    advance: (ms) => void (nowMs += ms),
  };
}
