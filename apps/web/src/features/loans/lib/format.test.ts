import { describe, expect, it } from 'vitest';
import { hongKongMinute, thresholdPrice } from './format.ts';

describe('hongKongMinute', () => {
  it('shows an instant in Hong Kong time (UTC+8), whatever the browser zone', () => {
    expect(hongKongMinute('2026-11-20T06:20:00.000Z')).toBe('2026-11-20 14:20');
    expect(hongKongMinute('2026-11-20T16:05:00.000Z')).toBe('2026-11-21 00:05');
    expect(hongKongMinute('not a time')).toBe('not a time');
  });
});

describe('thresholdPrice', () => {
  it('rounds a liquidation price up to the cent, as the margin-call message shows it', () => {
    // The same wire value as loans.money-format.api.test.ts: the card and the message agree.
    expect(thresholdPrice('37402.33384075')).toBe('$37,402.34');
    expect(thresholdPrice('3180.231')).toBe('$3,180.24');
    expect(thresholdPrice('3180.24')).toBe('$3,180.24');
  });
});
