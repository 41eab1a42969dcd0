import { describe, expect, it } from 'vitest';
import { findUnsafeText, hasUnsafeCharacters, safeText } from './text.ts';

describe('the text rule (issue 14 item 1)', () => {
  it('accepts ordinary text: letters, Chinese, emoji (surrogate pairs), spaces, punctuation', () => {
    for (const text of ['My wallet', '主帳戶 錢包', 'cold 🧊 storage', 'a-b_c.d@e+f', '', '\u00a0non-breaking', 'ÿ']) {
      expect(hasUnsafeCharacters(text), text).toBe(false);
    }
  });

  it('refuses NUL, C0 and C1 controls, DEL and lone surrogates', () => {
    for (const text of [
      'a\u0000',
      '\u0001',
      'tab\there',
      'line\nfeed',
      'cr\r',
      'del\u007f',
      'c1\u0080',
      'nel\u0085',
      '\u009f',
      'hi\ud800',
      '\udc00lo',
      'x\ud83dy',
    ]) {
      expect(hasUnsafeCharacters(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('lets a multi-line field hold tab, LF and CR, and nothing else', () => {
    expect(hasUnsafeCharacters('line 1\r\nline 2\tend', { multiline: true })).toBe(false);
    expect(hasUnsafeCharacters('line 1\u0000', { multiline: true })).toBe(true);
  });

  it('finds every offending path in a nested value, keys included, and stops at the limit', () => {
    expect(findUnsafeText({ a: 'ok', b: { c: ['fine', 'bad\u0000'] }, 'k\u0001': 1 })).toEqual([
      ['b', 'c', 1],
      ['k\u0001'],
    ]);
    expect(
      findUnsafeText(
        Array.from({ length: 100 }, () => '\u0000'),
        { limit: 3 },
      ),
    ).toHaveLength(3);
    expect(findUnsafeText('\u0000')).toEqual([[]]);
  });

  it('safeText() carries the rule into a zod schema with the message key', () => {
    const result = safeText().safeParse('a\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('validation.controlCharacter');
    expect(safeText().safeParse('fine').success).toBe(true);
  });
});
