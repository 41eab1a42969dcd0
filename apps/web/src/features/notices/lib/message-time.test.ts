import { describe, expect, it } from 'vitest';
import { formatMessageDateTime, formatPreviewTime } from './message-time.ts';

/** The header preview shows HH:mm:ss for today's messages and YYYY-MM-DD for older ones. */
describe('formatPreviewTime', () => {
  // Local times, so the test holds in every time zone the suite runs in.
  const now = new Date(2026, 10, 20, 23, 30, 0);

  it('shows the time of a message from today', () => {
    expect(formatPreviewTime(new Date(2026, 10, 20, 9, 5, 7).toISOString(), now)).toBe('09:05:07');
    expect(formatPreviewTime(new Date(2026, 10, 20, 0, 0, 0).toISOString(), now)).toBe('00:00:00');
  });

  it('shows the date of a message from an earlier day', () => {
    expect(formatPreviewTime(new Date(2026, 10, 19, 23, 59, 59).toISOString(), now)).toBe('2026-11-19');
    expect(formatPreviewTime(new Date(2025, 10, 20, 12, 0, 0).toISOString(), now)).toBe('2025-11-20');
  });

  it('shows nothing for a time it cannot read', () => {
    expect(formatPreviewTime('not a time', now)).toBe('');
  });
});

describe('formatMessageDateTime', () => {
  it('uses the product date-time format YYYY-MM-DD HH:mm', () => {
    expect(formatMessageDateTime(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe('2026-01-02 03:04');
  });
});
