import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../http/error-handler.ts';
import { readMultipartUploads } from './multipart-reader.ts';
import { UPLOAD_FILE_BYTES_MAX } from './upload-rules.ts';

const BOUNDARY = '----meridian-test-boundary';

function partHeader(fieldName: string, fileName: string, contentType: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
}
const CLOSING = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A whole multipart body with the given files. */
function multipartBody(files: { fieldName?: string; fileName: string; contentType?: string; bytes: Buffer }[]): Buffer {
  const pieces = files.flatMap((file) => [
    partHeader(file.fieldName ?? 'files', file.fileName, file.contentType ?? 'application/octet-stream'),
    file.bytes,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...pieces, CLOSING]);
}

/**
 * A multipart body streamed in 64 KiB chunks, one per turn of the event loop as a socket delivers
 * them for one file of `fileBytes` (a PNG header then
 * zeros); `pulled()` tells how many body bytes the server has asked for so far.
 */
function streamedBody(fileName: string, fileBytes: number, png: Buffer): { stream: Readable; pulled: () => number } {
  let pulledBytes = 0;
  const chunkBytes = 64 * 1024;
  function* pieces(): Generator<Buffer> {
    yield partHeader('files', fileName, 'image/png');
    yield png;
    for (let sent = png.length; sent < fileBytes; sent += chunkBytes)
      yield Buffer.alloc(Math.min(chunkBytes, fileBytes - sent));
    yield Buffer.from('\r\n');
    yield CLOSING;
  }
  const iterator = pieces();
  const stream = new Readable({
    read() {
      setImmediate(() => {
        const next = iterator.next();
        if (next.done) this.push(null);
        else {
          pulledBytes += next.value.length;
          this.push(next.value);
        }
      });
    },
  });
  return { stream, pulled: () => pulledBytes };
}

let app: FastifyInstance;
let png: Buffer;
/** Body bytes pulled from the client when the reader refused the submission (set by the route). */
let pulledAtRefusal: number | undefined;
let pulledNow: () => number = () => 0;

beforeAll(async () => {
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'blue' } })
    .png()
    .toBuffer();
  app = Fastify();
  registerErrorHandling(app);
  await app.register(fastifyMultipart);
  app.post('/upload', async (request) => {
    const submission = await readMultipartUploads(request).catch((error: unknown) => {
      pulledAtRefusal = pulledNow();
      throw error;
    });
    return {
      files: submission.files.map((file) => ({
        fileName: file.fileName,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
      })),
    };
  });
  await app.ready();
});
afterAll(() => app.close());

async function post(payload: Buffer | Readable, locale = 'en-US') {
  return app.inject({
    method: 'POST',
    url: '/upload',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'user-lang': locale },
  });
}

describe('streaming multipart reader', () => {
  it('accepts ten real images and returns them validated', async () => {
    const files = Array.from({ length: 10 }, (_, index) => ({ fileName: `page-${index}.png`, bytes: png }));
    const response = await post(multipartBody(files));
    expect(response.statusCode).toBe(200);
    expect(response.json().files).toHaveLength(10);
    expect(response.json().files[0]).toMatchObject({ fileName: 'page-0.png', mimeType: 'image/png' });
  });

  it('refuses eleven files', async () => {
    const files = Array.from({ length: 11 }, (_, index) => ({ fileName: `page-${index}.png`, bytes: png }));
    const response = await post(multipartBody(files));
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields).toEqual([{ field: 'files', message: 'At most 10 files per submission' }]);
  });

  it('refuses a script renamed to .png, naming the file, in both languages', async () => {
    const body = () =>
      multipartBody([
        { fileName: 'id-front.png', contentType: 'image/png', bytes: Buffer.from('<script>alert(1)</script>') },
      ]);
    const english = await post(body());
    expect(english.statusCode).toBe(422);
    expect(english.json().content.fields[0]).toEqual({
      field: 'files',
      message: 'id-front.png: File format not supported yet (JPG, PNG or PDF)',
    });
    const chinese = await post(body(), 'zh-HK');
    expect(chinese.json().content.fields[0].message).toBe('id-front.png：暫不支援此檔案格式（JPG、PNG 或 PDF）');
  });

  it('refuses a file name of 51 characters', async () => {
    const response = await post(multipartBody([{ fileName: `${'n'.repeat(47)}.png`, bytes: png }]));
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields[0].message).toBe(
      `${'n'.repeat(47)}.png: File name exceeded (at most 50 characters)`,
    );
  });

  it('refuses 10 MB + 1 byte when the limit fires, before the body is read whole', async () => {
    const exact = streamedBody('statement.png', UPLOAD_FILE_BYTES_MAX + 1, png);
    const response = await post(exact.stream);
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields[0].message).toBe('statement.png: File size exceeded (at most 10 MB)');

    // A 200 MB file: the refusal comes once about 10 MB have been read; the rest had not been asked
    // for yet (what the HTTP layer does with the unread body afterwards is not the reader's business).
    const huge = streamedBody('huge.png', 200 * 1024 * 1024, png);
    pulledNow = huge.pulled;
    pulledAtRefusal = undefined;
    const hugeResponse = await post(huge.stream);
    expect(hugeResponse.statusCode).toBe(422);
    expect(pulledAtRefusal).toBeGreaterThan(UPLOAD_FILE_BYTES_MAX);
    expect(pulledAtRefusal).toBeLessThan(UPLOAD_FILE_BYTES_MAX + 2 * 1024 * 1024);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const exact = streamedBody('big.png', UPLOAD_FILE_BYTES_MAX, png);
    const response = await post(exact.stream);
    // A PNG followed by zeros up to 10 MB: accepted; re-encoding keeps the pixels and drops the trailing bytes.
    expect(response.statusCode).toBe(200);
    expect(response.json().files[0]).toMatchObject({ fileName: 'big.png', mimeType: 'image/png' });
    expect(response.json().files[0].sizeBytes).toBeLessThan(1024);
  });
});
