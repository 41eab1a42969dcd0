import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Db } from './client.ts';
import { startAutoAnalyze } from './maintenance.ts';

/**
 * The embedded autoanalyze's schedule (`startAutoAnalyze`): one check every period, and none while
 * the previous run is still going. The database is a stand-in that counts the check queries.
 */
const PERIOD_MS = 1_000;
let checks = 0;
let answer: () => Promise<unknown> = async () => ({ rows: [] });
const db = {
  execute: async () => {
    checks += 1;
    return answer();
  },
} as unknown as Db;

beforeEach(() => {
  checks = 0;
  answer = async () => ({ rows: [] });
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('checks once every period', async () => {
  const stop = startAutoAnalyze(db, () => undefined, PERIOD_MS);
  await vi.advanceTimersByTimeAsync(3 * PERIOD_MS);
  expect(checks).toBe(3);
  await stop();
});

it('starts no run while the previous one is still going', async () => {
  let finish: (value: unknown) => void = () => undefined;
  answer = () => new Promise((resolve) => (finish = resolve));
  const stop = startAutoAnalyze(db, () => undefined, PERIOD_MS);
  await vi.advanceTimersByTimeAsync(3 * PERIOD_MS);
  expect(checks).toBe(1);
  finish({ rows: [] });
  answer = async () => ({ rows: [] });
  await vi.advanceTimersByTimeAsync(PERIOD_MS);
  expect(checks).toBe(2);
  await stop();
});
