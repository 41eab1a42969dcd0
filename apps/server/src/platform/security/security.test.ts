import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords.ts';
import { hashesEqual, keyedHash, randomNumericCode } from './one-time-codes.ts';
import { hashSecret, verifySecret } from './passwords.ts';
import { matchTotpStep, totpCode } from './totp.ts';

interface OtpVectors {
  totp_rfc6238: { keys: Record<string, { base32: string }>; vectors: { time: number; mode: string; totp: string }[] };
}
const vectors: OtpVectors = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../test/vectors/rfc4226_rfc6238_otp_vectors.json'), 'utf8'),
);

describe('TOTP (RFC 6238 Appendix B, SHA-1, 30 s, 6 digits = last 6 of the 8-digit vector)', () => {
  const sha1 = vectors.totp_rfc6238.vectors.filter((vector) => vector.mode === 'SHA1');
  const secret = vectors.totp_rfc6238.keys.SHA1!.base32;

  it.each(sha1)('matches the vector at $time s', ({ time, totp }) => {
    const code = totp.slice(-6);
    expect(totpCode(secret, time * 1000)).toBe(code);
    expect(matchTotpStep(secret, code, time * 1000)).toBe(Math.floor(time / 30));
  });

  it('accepts one step either side and refuses two steps away', () => {
    const time = 1_111_111_109_000;
    const previous = totpCode(secret, time - 30_000);
    expect(matchTotpStep(secret, previous, time)).toBe(Math.floor(time / 30_000) - 1);
    expect(matchTotpStep(secret, totpCode(secret, time + 30_000), time)).toBe(Math.floor(time / 30_000) + 1);
    expect(matchTotpStep(secret, totpCode(secret, time - 60_000), time)).toBeNull();
  });
});

describe('passwords and codes', () => {
  it('hashes with argon2id and verifies, also spending time on an unknown account', async () => {
    const hash = await hashSecret('Correct-Horse-9');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifySecret(hash, 'Correct-Horse-9')).toBe(true);
    expect(await verifySecret(hash, 'correct-horse-9')).toBe(false);
    expect(await verifySecret(null, 'anything')).toBe(false);
  });

  it('refuses the common passwords of the NCSC list, not uncommon ones', () => {
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword(' qwerty ')).toBe(true);
    expect(isCommonPassword('Uncommon-Passphrase-7')).toBe(false);
  });

  it('draws 6-digit codes and compares keyed hashes in constant time', () => {
    const codes = Array.from({ length: 200 }, () => randomNumericCode());
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(190);
    const a = keyedHash('k', 'ctx', '123456');
    expect(hashesEqual(a, keyedHash('k', 'ctx', '123456'))).toBe(true);
    expect(hashesEqual(a, keyedHash('k', 'other', '123456'))).toBe(false);
  });
});
