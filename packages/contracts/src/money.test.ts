import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AmountParseError,
  amountMinorSchema,
  displayInverseRate,
  displayRate,
  parseAmountMinor,
  readAmountMinor,
  toDecimalString,
  withAmountMinor,
} from './money.ts';

describe('parseAmountMinor reads wire decimals exactly', () => {
  it('converts whole and fractional amounts to minor units', () => {
    expect(parseAmountMinor('1234.50', 'USD')).toBe(123450n);
    expect(parseAmountMinor('0.00000001', 'BTC')).toBe(1n);
    expect(parseAmountMinor('250', 'USDT')).toBe(250_000_000n);
    expect(parseAmountMinor('0', 'JPY')).toBe(0n);
    // A value a float cannot hold exactly still parses to the exact integer.
    expect(parseAmountMinor('90071992547409.93', 'USD')).toBe(9007199254740993n);
  });

  it('refuses more decimals than the asset allows, naming the reason', () => {
    expect(() => parseAmountMinor('0.000000001', 'BTC')).toThrow(AmountParseError);
    expect(() => parseAmountMinor('1.5', 'JPY')).toThrowError(/precision/);
    expect(() => parseAmountMinor('1.000', 'USD')).toThrowError(/precision/);
  });

  it('refuses malformed text', () => {
    for (const text of ['', '-1', '+1', '1e3', '1,000', '01', '.5', '5.', ' 1', 'NaN']) {
      expect(() => parseAmountMinor(text, 'USDT'), text).toThrowError(/format/);
    }
  });

  it('refuses amounts too large for numeric(38,0)', () => {
    expect(() => parseAmountMinor('1' + '0'.repeat(38), 'JPY')).toThrowError(/range/);
  });
});

describe('toDecimalString', () => {
  it('writes the wire form with the asset precision', () => {
    expect(toDecimalString(123450n, 'USD')).toBe('1234.50');
    expect(toDecimalString(1n, 'BTC')).toBe('0.00000001');
    expect(toDecimalString(-5n, 'USDT')).toBe('-0.000005');
    expect(toDecimalString(42n, 'JPY')).toBe('42');
  });

  it('round-trips every precision', () => {
    for (const [text, asset] of [
      ['0.12345678', 'BTC'],
      ['999999.999999', 'USDE'],
      ['7', 'JPY'],
    ] as const) {
      expect(toDecimalString(parseAmountMinor(text, asset), asset)).toBe(text);
    }
  });
});

describe('displayRate and displayInverseRate (a rate a person can read)', () => {
  it('shows 6 significant digits, at least 2 decimals, with thousands separators', () => {
    expect(displayRate('0.000055110975226')).toBe('0.000055111');
    expect(displayRate('18145.2019')).toBe('18,145.20');
    expect(displayRate('18145.206030181')).toBe('18,145.21');
    expect(displayRate('1.000123456')).toBe('1.00012');
    expect(displayRate('0.5')).toBe('0.50');
    expect(displayRate('1')).toBe('1.00');
    expect(displayRate('0.999999')).toBe('0.999999');
  });
  it('rounds half up, and keeps the whole integer part', () => {
    expect(displayRate('0.12345650')).toBe('0.123457');
    expect(displayRate('0.12345649')).toBe('0.123456');
    expect(displayRate('9.9999996')).toBe('10.00');
    expect(displayRate('1234567.891')).toBe('1,234,567.89');
  });
  it('computes the inverse exactly from the decimal', () => {
    // 18145.206…: every digit shown is a real one, so 2 decimals round to .21 (not a padded 18,145.2|0).
    expect(displayInverseRate('0.000055110975226')).toBe('18,145.21');
    expect(displayInverseRate('18145.20')).toBe('0.000055111');
    expect(displayInverseRate('1')).toBe('1.00');
    expect(displayInverseRate('0.999')).toBe('1.001');
  });
  it('shows a text that is no positive decimal as it is, and has no inverse for it', () => {
    expect(displayRate('abc')).toBe('abc');
    expect(displayRate('0')).toBe('0');
    expect(displayInverseRate('0')).toBeNull();
    expect(displayInverseRate('-1')).toBeNull();
  });
});

describe('money parsed once, at the edge', () => {
  it('reads a positive amount into minor units and names every refusal by its message key', () => {
    expect(readAmountMinor('1234.50', 'USD')).toEqual({ amountMinor: 123450n });
    expect(readAmountMinor('1.5', 'JPY')).toEqual({
      refusal: { messageKey: 'validation.amountPrecision', params: { decimals: 0 } },
    });
    expect(readAmountMinor('0.000', 'USDT')).toEqual({
      refusal: { messageKey: 'validation.amountPositive', params: {} },
    });
    expect(readAmountMinor('-1', 'USDT')).toEqual({ refusal: { messageKey: 'validation.amount', params: {} } });
    expect(readAmountMinor('1' + '0'.repeat(38), 'JPY')).toEqual({
      refusal: { messageKey: 'validation.amount', params: {} },
    });
  });

  it('turns the wire string of a body into amountMinor of the coin another field names, refusing on the amount field', () => {
    const schema = withAmountMinor(
      z.object({ coin: z.enum(['USDT', 'BTC']), amount: z.string() }),
      (body) => body.coin,
    );
    expect(schema.parse({ coin: 'BTC', amount: '0.01' })).toEqual({ coin: 'BTC', amountMinor: 1_000_000n });
    const refused = schema.safeParse({ coin: 'USDT', amount: '1.0000001' });
    expect(refused.error?.issues).toMatchObject([
      { path: ['amount'], message: 'validation.amountPrecision', params: { decimals: 6 } },
    ]);
    // A body that fails its own fields is refused by them alone: the amount is not read.
    expect(schema.safeParse({ coin: 'DOGE', amount: '0' }).error?.issues.map((issue) => issue.path)).toEqual([
      ['coin'],
    ]);
  });

  it('reads an amount of a fixed asset, refusing the format on the field itself', () => {
    expect(amountMinorSchema('USD').parse('1.50')).toBe(150n);
    expect(amountMinorSchema('USD').safeParse('0').error?.issues[0]?.message).toBe('validation.amountPositive');
    expect(amountMinorSchema('USD').safeParse('1e3').error?.issues[0]?.message).toBe('validation.amount');
  });
});
