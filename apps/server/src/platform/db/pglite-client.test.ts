import { describe, expect, it } from 'vitest';
import { bindMessage } from './pglite-client.ts';

/**
 * The Bind message as PostgreSQL's "Message Formats" lays it out, built part by part: 'B', int32
 * length (itself included), portal name and statement name (C strings), int16 0 parameter format
 * codes, int16 count, per value int32 length (-1 for NULL) and its bytes, int16 0 result codes.
 */
function referenceBind(name: string, values: (string | null)[]): Buffer {
  const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
  const int32 = (value: number) => {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32BE(value);
    return buffer;
  };
  const parts = [Buffer.from('\0'), Buffer.from(`${name}\0`, 'utf8'), int16(0), int16(values.length)];
  for (const value of values) {
    if (value === null) parts.push(int32(-1));
    else parts.push(int32(Buffer.byteLength(value, 'utf8')), Buffer.from(value, 'utf8'));
  }
  parts.push(int16(0));
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from('B'), int32(body.length + 4), body]);
}

describe('bindMessage', () => {
  it('lays out a Bind as the protocol does, byte for byte', () => {
    const cases: [string, (string | null)[]][] = [
      ['meridian_1', []],
      ['meridian_22', ['1', null, '', 'USDT']],
      ['meridian_3', ['{"a","b\\"c"}', '香港 · 證券', null, 'é'.repeat(300)]],
    ];
    for (const [name, values] of cases) expect(bindMessage(name, values)).toEqual(referenceBind(name, values));
  });
});
