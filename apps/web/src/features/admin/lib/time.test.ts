import { describe, expect, it } from 'vitest';
import { formatDateTime, isIdleExpired, isPastDue, splitDuration } from './time.ts';

describe('splitDuration', () => {
  it('rounds down to whole minutes and never goes negative', () => {
    expect(splitDuration(25 * 3_600_000 + 7 * 60_000 + 59_999)).toEqual({ hours: 25, minutes: 7 });
    expect(splitDuration(-5)).toEqual({ hours: 0, minutes: 0 });
  });
});

describe('isIdleExpired', () => {
  it('expires at exactly the idle time', () => {
    expect(isIdleExpired(0, 30 * 60_000 - 1, 30)).toBe(false);
    expect(isIdleExpired(0, 30 * 60_000, 30)).toBe(true);
  });
});

describe('isPastDue', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('uses the due time when there is one', () => {
    expect(isPastDue(now, '2026-11-25T11:59:00Z')).toBe(true);
    expect(isPastDue(now, '2026-11-25T12:01:00Z')).toBe(false);
  });
  it('falls back to the SLA hours from submission', () => {
    expect(isPastDue(now, null, '2026-11-24T11:00:00Z', 24)).toBe(true);
    expect(isPastDue(now, null, '2026-11-24T13:00:00Z', 24)).toBe(false);
    expect(isPastDue(now, null, null, 24)).toBe(false);
  });
});

describe('formatDateTime', () => {
  it('shows a dash for no time and formats in the given language', () => {
    expect(formatDateTime(null, 'en-US')).toBe('—');
    expect(formatDateTime('2026-11-25T12:00:00Z', 'zh-HK')).toMatch(/2026/);
  });
});
