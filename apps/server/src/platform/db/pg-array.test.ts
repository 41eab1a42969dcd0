import { describe, expect, it } from 'vitest';
import { nullableArrayLiteral, pgArrayLiteral } from './pg-array.ts';

// PostgreSQL "Array Value Input": elements double-quoted, `"` and `\` escaped by a backslash,
// an unquoted NULL is SQL NULL.
describe('pgArrayLiteral', () => {
  it('quotes every element of strings, numbers and bigints', () => {
    expect(pgArrayLiteral(['a', 'b c', '1.50'])).toBe('{"a","b c","1.50"}');
    expect(pgArrayLiteral([1, 2n, -3])).toBe('{"1","2","-3"}');
    expect(pgArrayLiteral(['NULL', ''])).toBe('{"NULL",""}');
  });

  it('is the empty array for no values', () => {
    expect(pgArrayLiteral([])).toBe('{}');
    expect(nullableArrayLiteral([])).toBe('{}');
  });

  it('escapes quotes and backslashes wherever they are', () => {
    expect(pgArrayLiteral(['plain', 'say "hi"', 'a\\b'])).toBe('{"plain","say \\"hi\\"","a\\\\b"}');
    expect(pgArrayLiteral(['{"json":1}'])).toBe('{"{\\"json\\":1}"}');
  });
});

describe('nullableArrayLiteral', () => {
  it('writes null as an unquoted NULL and quotes the rest', () => {
    expect(nullableArrayLiteral(['a', null, 'b"'])).toBe('{"a",NULL,"b\\""}');
    expect(nullableArrayLiteral(['a', 'b'])).toBe('{"a","b"}');
  });
});
