import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock/clock.ts';
import { FileCipher, FileDecryptionError } from './file-cipher.ts';
import { LocalDirectoryStorage } from './storage.ts';
import { UploadRefusal, validateUpload } from './upload-rules.ts';
import { createUploadStore, UploadStore } from './upload-store.ts';

const tempDir = mkdtempSync(join(tmpdir(), 'meridian-uploads-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

/** A 16×16 JPEG carrying EXIF (camera make and model) the way a phone writes it. */
async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'MeridianPhone', Model: 'Secret Model 9', Copyright: 'Home address 1 Queen St' } })
    .toBuffer();
}

async function refusalOf(promise: Promise<unknown>): Promise<UploadRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UploadRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('upload content rules', () => {
  it('refuses a shell script renamed to .png, by its content', async () => {
    const refusal = await refusalOf(
      validateUpload({ fieldName: 'idFront', fileName: 'passport.png', bytes: Buffer.from('#!/bin/sh\nrm -rf / \n') }),
    );
    expect(refusal).toMatchObject({ fileName: 'passport.png', messageKey: 'validation.fileFormat' });
  });

  it('refuses a file name of 51 characters and accepts 50', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    const name50 = `${'a'.repeat(46)}.png`;
    expect((await validateUpload({ fieldName: 'f', fileName: name50, bytes: png })).fileName).toBe(name50);
    const refusal = await refusalOf(validateUpload({ fieldName: 'f', fileName: `${'a'.repeat(47)}.png`, bytes: png }));
    expect(refusal).toMatchObject({ messageKey: 'validation.fileNameExceeded', params: { maximum: 50 } });
  });

  it('removes EXIF from a JPEG and keeps it a JPEG of the same size in pixels', async () => {
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes(Buffer.from('Secret Model 9'))).toBe(true);
    const cleaned = await validateUpload({
      fieldName: 'selfie',
      fileName: 'C:\\fakepath\\selfie.JPG',
      bytes: original,
    });
    expect(cleaned).toMatchObject({ fileName: 'selfie.JPG', mimeType: 'image/jpeg', extension: 'jpg' });
    const metadata = await sharp(cleaned.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([16, 16]);
    expect(cleaned.bytes.includes(Buffer.from('Secret Model 9'))).toBe(false);
  });

  it('accepts a PDF by its header whatever its name, byte for byte', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const accepted = await validateUpload({ fieldName: 'proof', fileName: 'bill', bytes: pdf });
    expect(accepted).toMatchObject({ mimeType: 'application/pdf', extension: 'pdf', sizeBytes: pdf.length });
    expect(accepted.bytes.equals(pdf)).toBe(true);
  });

  it('refuses a truncated PNG whose magic bytes promise an image', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    const refusal = await refusalOf(
      validateUpload({ fieldName: 'f', fileName: 'cut.png', bytes: png.subarray(0, 40) }),
    );
    expect(refusal.messageKey).toBe('validation.fileFormat');
  });
});

describe('encryption at rest', () => {
  const cipher = new FileCipher('s'.repeat(48));
  const key = 'uploads/2026/11/0b9d3c1e-6a0f-4d55-9b1e-7c7f0a7d2b11';

  it('round-trips, with a fresh IV each time', () => {
    const plaintext = Buffer.from('identity document bytes');
    const first = cipher.encrypt(plaintext, key);
    expect(first.equals(cipher.encrypt(plaintext, key))).toBe(false);
    expect(cipher.decrypt(first, key).equals(plaintext)).toBe(true);
  });

  it('refuses a tampered byte, another object key and another secret', () => {
    const sealed = cipher.encrypt(Buffer.from('identity document bytes'), key);
    const tampered = Buffer.from(sealed);
    tampered[20] = (tampered[20] ?? 0) ^ 0x01;
    expect(() => cipher.decrypt(tampered, key)).toThrow(FileDecryptionError);
    expect(() => cipher.decrypt(sealed, key.replace('0b9d', '1b9d'))).toThrow(FileDecryptionError);
    expect(() => new FileCipher('t'.repeat(48)).decrypt(sealed, key)).toThrow(FileDecryptionError);
    expect(() => cipher.decrypt(Buffer.from('plain'), key)).toThrow(FileDecryptionError);
  });
});

describe('upload store on a local directory', () => {
  it('stores only ciphertext on disk and reads the plaintext back; a file altered on disk is refused', async () => {
    const store = createUploadStore(
      {
        dataDir: tempDir,
        database: { kind: 'pglite' },
        uploads: { dir: join(tempDir, 'uploads'), encryptionKey: undefined, s3: undefined },
      },
      systemClock,
    );
    const file = await validateUpload({ fieldName: 'selfie', fileName: 'selfie.jpg', bytes: await jpegWithExif() });
    const stored = await store.save(file);
    expect(stored).toMatchObject({ fileName: 'selfie.jpg', mimeType: 'image/jpeg', sizeBytes: file.sizeBytes });
    expect(stored.storageKey).toMatch(/^uploads\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    const onDisk = readFileSync(join(tempDir, 'uploads', stored.storageKey));
    expect(onDisk.includes(file.bytes.subarray(0, 64))).toBe(false);
    expect((await store.read(stored.storageKey))?.equals(file.bytes)).toBe(true);
    // The key was generated into DATA_DIR/secrets.
    expect(
      readFileSync(join(tempDir, 'secrets', 'uploads-encryption-key'), 'utf8').trim().length,
    ).toBeGreaterThanOrEqual(32);

    onDisk[onDisk.length - 1] = (onDisk[onDisk.length - 1] ?? 0) ^ 0xff;
    writeFileSync(join(tempDir, 'uploads', stored.storageKey), onDisk);
    await expect(store.read(stored.storageKey)).rejects.toThrow(FileDecryptionError);
    await store.remove(stored.storageKey);
    expect(await store.read(stored.storageKey)).toBeNull();
  });

  it('refuses storage keys it did not make (no path traversal)', async () => {
    const storage = new LocalDirectoryStorage(join(tempDir, 'uploads'));
    const store = new UploadStore(storage, new FileCipher('s'.repeat(48)), () => systemClock.now());
    await expect(store.read('../secrets/uploads-encryption-key')).rejects.toThrow(/invalid storage key/);
  });
});
