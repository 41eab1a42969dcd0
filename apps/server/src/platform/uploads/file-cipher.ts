import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Leading bytes of an encrypted file: format name and version, so the format can change later. */
const MAGIC = Buffer.from('MUP1', 'ascii');
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Raised when a stored file cannot be decrypted: wrong key, wrong object, or altered bytes. */
export class FileDecryptionError extends Error {
  constructor(reason: string) {
    super(`stored file cannot be decrypted: ${reason}`);
    this.name = 'FileDecryptionError';
  }
}

/**
 * Encryption at rest of uploaded files (docs/architecture.md "Outside world": "local directory, encrypted at
 * rest"): AES-256-GCM (NIST SP 800-38D) with a fresh 96-bit IV per file and a key derived by
 * HKDF-SHA-256 (RFC 5869) from the uploads secret. The storage key is bound as additional
 * authenticated data, so a file moved to another object's key is refused like an altered one.
 * Layout: `MUP1` ‖ IV (12) ‖ ciphertext ‖ tag (16). Files are at most 10 MB, so whole buffers are used.
 */
export class FileCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('the uploads secret must be at least 32 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'meridian-uploads', 'aes-256-gcm file key v1', 32));
  }

  /** Encrypt `plaintext` for storage under `storageKey`. */
  encrypt(plaintext: Buffer, storageKey: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(storageKey, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([MAGIC, iv, data, cipher.getAuthTag()]);
  }

  /**
   * Decrypt what `encrypt` produced for the same `storageKey`.
   * @throws FileDecryptionError when the format, the key, the storage key or any byte differs.
   */
  decrypt(sealed: Buffer, storageKey: string): Buffer {
    if (sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new FileDecryptionError('not an encrypted upload');
    }
    const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(storageKey, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(MAGIC.length + IV_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new FileDecryptionError('authentication failed');
    }
  }
}
