import { systemClock } from '../clock/clock.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCipher } from './file-cipher.ts';
import { S3ObjectStorage } from './storage.ts';
import { UploadStore } from './upload-store.ts';

/**
 * A minimal S3-compatible endpoint on localhost (path-style PUT, GET, DELETE of objects; the
 * `NoSuchKey` error document of the S3 API for a missing key), standing in for a bucket.
 */
function fakeS3(): { server: Server; objects: Map<string, Buffer>; methods: string[] } {
  const objects = new Map<string, Buffer>();
  const methods: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
      methods.push(`${request.method} ${path}`);
      if (request.method === 'PUT') {
        objects.set(path, Buffer.concat(chunks));
        response.writeHead(200, { ETag: '"etag"' }).end();
      } else if (request.method === 'GET') {
        const body = objects.get(path);
        if (body)
          response
            .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length })
            .end(body);
        else {
          response
            .writeHead(404, { 'Content-Type': 'application/xml' })
            .end(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
            );
        }
      } else if (request.method === 'DELETE') {
        objects.delete(path);
        response.writeHead(204).end();
      } else response.writeHead(405).end();
    });
  });
  return { server, objects, methods };
}

const fake = fakeS3();
let storage: S3ObjectStorage;

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  const port = (fake.server.address() as AddressInfo).port;
  storage = new S3ObjectStorage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'meridian-kyc',
    region: 'ap-east-1',
    accessKeyId: 'test',
    secretAccessKey: 'test-secret',
  });
});
afterAll(async () => {
  storage.close();
  await new Promise<void>((resolve) => fake.server.close(() => resolve()));
});

describe('S3-compatible storage', () => {
  it('puts, reads and deletes encrypted objects path-style in the bucket; a missing key reads as null', async () => {
    const store = new UploadStore(storage, new FileCipher('s'.repeat(48)), () => systemClock.now());
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const stored = await store.save({
      fieldName: 'proof',
      fileName: 'bill.pdf',
      mimeType: 'application/pdf',
      extension: 'pdf',
      bytes: pdf,
      sizeBytes: pdf.length,
    });
    const objectPath = `/meridian-kyc/${stored.storageKey}`;
    expect(fake.objects.has(objectPath)).toBe(true);
    expect(fake.objects.get(objectPath)?.includes(pdf)).toBe(false);
    expect((await store.read(stored.storageKey))?.equals(pdf)).toBe(true);
    await store.remove(stored.storageKey);
    expect(fake.objects.has(objectPath)).toBe(false);
    expect(await store.read(stored.storageKey)).toBeNull();
    expect(fake.methods.map((line) => line.split(' ')[0])).toEqual(['PUT', 'GET', 'DELETE', 'GET']);
  });
});
