import { describe, expect, it } from 'vitest';
import { manualClock, startedClock } from './clock.ts';

describe('startedClock', () => {
  it('reads the start instant when created, then runs at the real rate', () => {
    let realMs = Date.parse('2026-11-28T10:00:00Z');
    const clock = startedClock(new Date('2027-02-28T23:59:00+08:00'), () => realMs);
    expect(clock.now().toISOString()).toBe('2027-02-28T15:59:00.000Z');
    realMs += 90_500;
    expect(clock.now().toISOString()).toBe('2027-02-28T16:00:30.500Z');
  });
});

describe('manualClock', () => {
  it('stands still until set or advanced', () => {
    const clock = manualClock('2028-02-29T12:00:00+08:00');
    expect(clock.now().toISOString()).toBe('2028-02-29T04:00:00.000Z');
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2028-03-01T04:00:00.000Z');
    clock.set(new Date('2026-12-15T15:59:00Z'));
    expect(clock.now().toISOString()).toBe('2026-12-15T15:59:00.000Z');
    expect(() => clock.set('not a date')).toThrowError(RangeError);
  });
});
