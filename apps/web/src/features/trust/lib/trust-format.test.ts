import { describe, expect, it } from 'vitest';
import { btc, formatDateTime } from './trust-format.ts';

describe('btc', () => {
  it('formats the decimal string as BTC', () => {
    expect(btc('0.5')).toContain('BTC');
    expect(btc('1234.5')).toMatch(/1,234\.5/);
  });
});

describe('formatDateTime', () => {
  it('shows a medium date and a short time in the given language', () => {
    const iso = '2026-11-15T12:00:00Z';
    expect(formatDateTime(iso, 'en-US')).toContain('Nov');
    expect(formatDateTime(iso, 'en-US')).toContain('2026');
    expect(formatDateTime(iso, 'zh-HK')).toContain('2026');
  });
});
