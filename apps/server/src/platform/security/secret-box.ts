import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Prefix and version of a sealed value, so the format can change later without guessing. */
const SEALED_PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encryption at rest for small secrets the server must read back (authenticator seeds):
 * AES-256-GCM with a key derived by HKDF-SHA-256 (RFC 5869) from the server secret and a purpose
 * label, so one secret never serves two uses. A sealed value is `v1:` + base64url(iv ‖ tag ‖ data).
 * Changing the server secret makes sealed values unreadable: rotate by re-sealing.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'meridian-secret-box', purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** @throws Error when the value is not sealed by this box (wrong key, tampered, or not sealed). */
  open(sealed: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('value is not sealed');
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
