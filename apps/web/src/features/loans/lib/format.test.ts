import { describe, expect, it } from 'vitest';
import { hongKongMinute } from './format.ts';

describe('hongKongMinute', () => {
  it('shows an instant in Hong Kong time (UTC+8), whatever the browser zone', () => {
    expect(hongKongMinute('2026-11-20T06:20:00.000Z')).toBe('2026-11-20 14:20');
    expect(hongKongMinute('2026-11-20T16:05:00.000Z')).toBe('2026-11-21 00:05');
    expect(hongKongMinute('not a time')).toBe('not a time');
  });
});
