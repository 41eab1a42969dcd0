import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('SecretBox seals secrets at rest', () => {
  const box = new SecretBox('server-secret-'.padEnd(48, 'x'), 'totp');

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses a value sealed for another purpose or key, a tampered one, and plaintext', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(() => new SecretBox('server-secret-'.padEnd(48, 'x'), 'other').open(sealed)).toThrow();
    expect(() => new SecretBox('another-secret-'.padEnd(48, 'y'), 'totp').open(sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => box.open('JBSWY3DPEHPK3PXP')).toThrow(/not sealed/);
  });
});
