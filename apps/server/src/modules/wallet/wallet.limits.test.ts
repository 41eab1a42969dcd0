import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/http/errors.ts';
import {
  assertWithinLimits,
  type LimitUsage,
  monthStartHongKong,
  toLimitsContent,
  usdValueCents,
} from './wallet.limits.ts';

/** The pure rules of the withdrawal limits: the Hong Kong month, the USD value, the refusal. */
describe('withdrawal limit rules', () => {
  it('starts the month at 00:00 Hong Kong time on the 1st (16:00 UTC the day before)', () => {
    expect(monthStartHongKong(new Date('2026-03-15T12:00:00Z')).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    // 1 March 01:00 in Hong Kong is still 28 February in UTC: already March's window.
    expect(monthStartHongKong(new Date('2026-02-28T17:00:00Z')).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(monthStartHongKong(new Date('2026-02-28T15:59:59Z')).toISOString()).toBe('2026-01-31T16:00:00.000Z');
  });

  it('values an amount in USD cents, rounded up', () => {
    expect(usdValueCents(1_000_000n, 'USDT', '1')).toBe(100n);
    expect(usdValueCents(1_000_001n, 'USDT', '1')).toBe(101n);
    expect(usdValueCents(12_345_678n, 'BTC', '64321.5')).toBe(794_093n); // 0.12345678 × 64321.5 = 7940.92527…
  });

  const usage = (left24hCents: bigint, leftMonthCents: bigint): LimitUsage => ({
    level: 1,
    per24h: { limit: 2_000_000n, used: 2_000_000n - left24hCents, left: left24hCents },
    perMonth: { limit: 20_000_000n, used: 20_000_000n - leftMonthCents, left: leftMonthCents },
  });

  it('passes up to what is left and refuses one cent more, naming the tighter window', () => {
    expect(() => assertWithinLimits(usage(123_456n, 500_000n), 123_456n)).not.toThrow();
    try {
      assertWithinLimits(usage(123_456n, 500_000n), 123_457n);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'WITHDRAW_LIMIT_EXCEEDED',
        params: { leftUsd: '1,234.56', windowEn: 'in the next 24 hours' },
        content: { window: '24h', leftUsd: '1234.56' },
      });
    }
    expect(() => assertWithinLimits(usage(500_000n, 100n), 101n)).toThrow(
      expect.objectContaining({ content: { window: 'month', leftUsd: '1.00' } }),
    );
  });

  it('answers decimal strings with 2 decimals', () => {
    expect(toLimitsContent(usage(0n, 150n))).toEqual({
      level: 1,
      per24h: { limitUsd: '20000.00', usedUsd: '20000.00', leftUsd: '0.00' },
      perMonth: { limitUsd: '200000.00', usedUsd: '199998.50', leftUsd: '1.50' },
    });
  });
});
