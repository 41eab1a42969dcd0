import { describe, expect, it } from 'vitest';
import { expiryText, groupedNumber, maskedNumber, money, refundTiming, secondsLeft } from './card-format.ts';

/** The card page's display rules: mask (first 4, last 4), refund timing (72 h / 31 days). */
describe('card display', () => {
  it('masks a card to its first 4 and last 4 digits', () => {
    expect(maskedNumber({ first4: '4242', last4: '1234' })).toBe('4242 •••• •••• 1234');
  });

  it('groups a revealed number in fours and writes the expiry as MM/YY', () => {
    expect(groupedNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(expiryText(3, 2029)).toBe('03/29');
  });

  it('shows amounts with the currency precision', () => {
    expect(money('1234.5', 'EUR')).toBe('€1,234.50');
    expect(money('1500', 'JPY')).toBe('¥1,500');
  });

  it('shows the refund timing (72 hours, or 31 days) on purchases that took money only', () => {
    expect(refundTiming({ kind: 'PURCHASE', status: 'CLEARED' })).toEqual({ afterHours: 72, fallbackDays: 31 });
    expect(refundTiming({ kind: 'PURCHASE', status: 'AUTHORIZED' })).not.toBeNull();
    expect(refundTiming({ kind: 'PURCHASE', status: 'DECLINED' })).toBeNull();
    expect(refundTiming({ kind: 'TOPUP', status: 'COMPLETED' })).toBeNull();
  });

  it('counts down whole seconds and stops at zero', () => {
    expect(secondsLeft('2026-11-26T10:00:30.000Z', Date.parse('2026-11-26T10:00:00.500Z'))).toBe(30);
    expect(secondsLeft('2026-11-26T10:00:30.000Z', Date.parse('2026-11-26T10:01:00.000Z'))).toBe(0);
  });
});
