import type { Clock } from '../clock/clock.ts';
import { createHash, randomBytes } from 'node:crypto';
import { readOrCreateSecret } from '../security/secrets.ts';
import { FileCipher } from './file-cipher.ts';
import {
  LocalDirectoryStorage,
  newStorageKey,
  type ObjectStorage,
  S3ObjectStorage,
  type S3StorageSettings,
} from './storage.ts';
import type { UploadMimeType, ValidatedUpload } from './upload-rules.ts';

/** What a feature keeps in its own table about a stored file (the bytes stay in the store). */
export interface StoredUpload {
  storageKey: string;
  fileName: string;
  mimeType: UploadMimeType;
  sizeBytes: number;
  /** SHA-256 of the stored plaintext (after metadata removal), hex: integrity and duplicate checks. */
  sha256: string;
}

/**
 * The one store of uploaded files: validated files go in encrypted (AES-256-GCM) and come out
 * decrypted for an authorised reader. Who may read a file is the calling feature's rule; this
 * store never serves anything by itself.
 */
export class UploadStore {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly cipher: FileCipher,
    /** The app's clock: the month in a new file's key. */
    private readonly now: () => Date,
  ) {}

  /** Encrypt and store one validated file under a fresh key. */
  async save(file: ValidatedUpload): Promise<StoredUpload> {
    const storageKey = newStorageKey(this.now());
    await this.storage.put(storageKey, this.cipher.encrypt(file.bytes, storageKey));
    return {
      storageKey,
      fileName: file.fileName,
      mimeType: file.mimeType,
      sizeBytes: file.sizeBytes,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    };
  }

  /**
   * Store every file of one submission, or none: when one fails, the ones already stored are removed.
   */
  async saveAll(files: readonly ValidatedUpload[]): Promise<StoredUpload[]> {
    const stored: StoredUpload[] = [];
    try {
      for (const file of files) stored.push(await this.save(file));
      return stored;
    } catch (error) {
      await Promise.allSettled(stored.map((item) => this.storage.delete(item.storageKey)));
      throw error;
    }
  }

  /**
   * The plaintext of a stored file, or null when the key holds nothing.
   * @throws FileDecryptionError when the stored bytes were altered or belong to another key.
   */
  async read(storageKey: string): Promise<Buffer | null> {
    const sealed = await this.storage.get(storageKey);
    return sealed === null ? null : this.cipher.decrypt(sealed, storageKey);
  }

  /** Remove a stored file (a rejected or abandoned submission). */
  async remove(storageKey: string): Promise<void> {
    await this.storage.delete(storageKey);
  }
}

/** The part of the server configuration (`Config` in config.ts) the store needs. */
export interface UploadStoreSettings {
  dataDir: string;
  database: { kind: string };
  uploads: { dir: string; encryptionKey: string | undefined; s3: S3StorageSettings | undefined };
}

/**
 * Build the store from the configuration: S3 when the five `S3_*` settings are given, else the
 * local directory; the key from `UPLOADS_ENCRYPTION_KEY`, else a secret generated into
 * DATA_DIR/secrets (in memory for a memory database, so tests leave no files behind).
 */
export function createUploadStore(config: UploadStoreSettings, clock: Clock): UploadStore {
  const isEphemeral = config.database.kind === 'memory';
  const secret =
    config.uploads.encryptionKey ??
    (isEphemeral
      ? randomBytes(48).toString('base64url')
      : readOrCreateSecret(config.dataDir, 'uploads-encryption-key'));
  const storage: ObjectStorage = config.uploads.s3
    ? new S3ObjectStorage(config.uploads.s3)
    : new LocalDirectoryStorage(config.uploads.dir);
  return new UploadStore(storage, new FileCipher(secret), () => clock.now());
}
