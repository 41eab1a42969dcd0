import { describe, expect, it } from 'vitest';
import { shortenMiddle } from './shorten-middle.ts';

/** Addresses in the history tables keep their first 8 and last 6 characters around an ellipsis. */
describe('shortenMiddle', () => {
  it('keeps both ends of a long address', () => {
    expect(shortenMiddle('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL')).toBe('TNPeeaaF…1NYqeL');
    expect(shortenMiddle('0xF44Af2c4d33bc5d4c40924e62B4007d50dfCEe78')).toBe('0xF44Af2…fCEe78');
  });
  it('leaves text that would not get shorter unchanged', () => {
    expect(shortenMiddle('')).toBe('');
    expect(shortenMiddle('123456789012345')).toBe('123456789012345');
    expect(shortenMiddle('1234567890123456')).toBe('12345678…123456');
  });
});
