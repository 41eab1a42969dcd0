import { describe, expect, it } from 'vitest';
import { findUnsafeText, hasUnsafeCharacters, safeText } from './text.ts';

describe('the text rule', () => {
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

  it('refuses every bidirectional formatting control and keeps right-to-left letters', () => {
    for (const code of [
      0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ]) {
      expect(hasUnsafeCharacters(`a${String.fromCharCode(code)}gnp.exe`), code.toString(16)).toBe(true);
    }
    for (const text of ['مرحبا بالعالم', 'שלום עולם', 'mixed עברית and العربية 123']) {
      expect(hasUnsafeCharacters(text), text).toBe(false);
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

  it('lets a field named multi-line hold a tab or a line break, and only that field', () => {
    const seen: string[] = [];
    const isMultiline = (path: readonly PropertyKey[]) => {
      seen.push(path.join('.'));
      return path.join('.') === 'note.text';
    };
    const body = { note: { text: 'line 1\nline 2\t', title: 'a\tb' }, list: ['x\ny', 'fine'] };
    expect(findUnsafeText(body, { isMultiline })).toEqual([
      ['note', 'title'],
      ['list', 0],
    ]);
    // asked only for the strings the strict rule refuses
    expect(seen).toEqual(['note.text', 'note.title', 'list.0']);
    expect(findUnsafeText({ note: { text: 'a\u0000' } }, { isMultiline })).toEqual([['note', 'text']]);
  });

  it('safeText() carries the rule into a zod schema with the message key', () => {
    const result = safeText().safeParse('a\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('validation.controlCharacter');
    expect(safeText().safeParse('fine').success).toBe(true);
  });
});
