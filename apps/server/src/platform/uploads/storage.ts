import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * Where encrypted uploads live (docs/architecture.md "Outside world", files: an S3-compatible store in production, a
 * local directory by default). Objects are opaque encrypted bytes under a key made by
 * `newStorageKey`; nothing here is ever served from a static path.
 */
export interface ObjectStorage {
  /** Store `bytes` under `key`, replacing nothing: keys are fresh. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under `key`, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Remove `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** `uploads/2026/11/<uuid>`: a fresh key, grouped by the UTC month of `now` (the app's clock) for operations. */
export function newStorageKey(now: Date): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `uploads/${now.getUTCFullYear()}/${month}/${randomUUID()}`;
}

/** Keys this module makes; anything else (`..`, absolute paths) is refused before it reaches a path. */
const STORAGE_KEY_PATTERN = /^uploads\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/;

/** @throws Error when `key` is not one `newStorageKey` makes. */
export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}

/** Objects as files under one directory (mode 0600), written to a temporary name and renamed, so a crash never leaves half a file. */
export class LocalDirectoryStorage implements ObjectStorage {
  constructor(readonly rootDir: string) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return join(this.rootDir, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporaryPath = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporaryPath, bytes, { mode: 0o600, flag: 'wx' });
    await rename(temporaryPath, path);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** Settings of an S3-compatible bucket (`S3_*` in config). */
export interface S3StorageSettings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Objects in an S3-compatible bucket (AWS S3, MinIO, Ceph …; path-style addressing, which every one of them accepts). */
export class S3ObjectStorage implements ObjectStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3StorageSettings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      // Checksums only where S3 requires them: several S3-compatible stores refuse the newer default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    assertStorageKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: bytes,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    assertStorageKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /** Close the client's connections (at shutdown). */
  close(): void {
    this.client.destroy();
  }
}
