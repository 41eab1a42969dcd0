import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { FieldError } from '../http/errors.ts';
import {
  baseFileName,
  DOCUMENT_UPLOAD_PROFILE,
  megabytesOf,
  UPLOAD_FILE_BYTES_MAX,
  UPLOAD_FILES_PER_SUBMISSION_MAX,
  UploadRefusal,
  type UploadProfile,
  validateUpload,
  type ValidatedUpload,
} from './upload-rules.ts';

/** The multipart field name under which refusals are reported (`files: <file>: File size exceeded`). */
export const UPLOADS_FIELD = 'files';

/** Most text fields, and longest text field, a submission may carry beside its files. */
const FIELDS_MAX = 50;
const FIELD_BYTES_MAX = 8 * 1024;

/** What one multipart submission held: its validated files and its text fields. */
export interface MultipartSubmission {
  files: ValidatedUpload[];
  fields: Record<string, string>;
}

/**
 * Read one file part, stopping the moment it passes `bytesMax`. The parser (busboy, under
 * `@fastify/multipart`'s `fileSize` limit) cuts the stream at the limit and emits `limit`; without
 * listening for it the cut stream would only end at the part's closing boundary, after the whole
 * file had gone through the parser. The byte count is a second guard of the same limit.
 */
function readCapped(part: MultipartFile, bytesMax: number): Promise<{ bytes: Buffer; isTruncated: boolean }> {
  const stream = part.file;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytesRead = 0;
    const finish = (isTruncated: boolean) => {
      stream.removeAllListeners('data');
      // Stop taking the rest of the cut file; the request is answered and closed without it.
      if (isTruncated) stream.pause();
      resolve({ bytes: isTruncated ? Buffer.alloc(0) : Buffer.concat(chunks), isTruncated });
    };
    stream.on('data', (chunk: Buffer) => {
      bytesRead += chunk.length;
      if (bytesRead > bytesMax) finish(true);
      else chunks.push(chunk);
    });
    stream.once('limit', () => finish(true));
    stream.once('end', () => finish(stream.truncated));
    stream.once('error', reject);
  });
}

/** Map a refusal to the field error the error handler answers with (422, in the user's language). */
function toFieldError(refusal: UploadRefusal, field: string): FieldError {
  return new FieldError(field, refusal.messageKey, { file: refusal.fileName, ...refusal.params });
}

/** @fastify/multipart's limit errors, by their stable codes. */
function isMultipartError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * Read a `multipart/form-data` request as it streams in (needs `@fastify/multipart` registered):
 * at most 10 files of at most 10 MB each (the parser's `files` and `fileSize` limits stop the
 * body at the first file too many or the first byte too much), each file checked by
 * `validateUpload` under `profile` (default documents: name ≤ 50, JPG/PNG/PDF by content, image
 * metadata removed; banner images: PNG/JPEG/WebP, 2 MB). Refusals name `field` (default `files`).
 * Nothing is stored here; the caller stores the files when the whole submission is valid.
 * @throws FieldError on `files` naming the file and the rule (`validation.fileSizeExceeded`,
 *   `validation.fileNameExceeded`, `validation.fileFormat`, `validation.fileCount`, …).
 */
export async function readMultipartUploads(
  request: FastifyRequest,
  limits: { fileBytesMax?: number; filesMax?: number; profile?: UploadProfile; field?: string } = {},
): Promise<MultipartSubmission> {
  const profile = limits.profile ?? DOCUMENT_UPLOAD_PROFILE;
  const field = limits.field ?? UPLOADS_FIELD;
  const fileBytesMax = Math.min(limits.fileBytesMax ?? profile.fileBytesMax, UPLOAD_FILE_BYTES_MAX);
  const maximumMb = megabytesOf(fileBytesMax);
  const filesMax = Math.min(limits.filesMax ?? UPLOAD_FILES_PER_SUBMISSION_MAX, UPLOAD_FILES_PER_SUBMISSION_MAX);
  const files: ValidatedUpload[] = [];
  const fields: Record<string, string> = {};
  const parts = request.parts({
    limits: {
      fileSize: fileBytesMax,
      files: filesMax,
      fields: FIELDS_MAX,
      fieldSize: FIELD_BYTES_MAX,
      parts: filesMax + FIELDS_MAX,
    },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const { bytes, isTruncated } = await readCapped(part, fileBytesMax);
      if (isTruncated)
        throw new UploadRefusal(baseFileName(part.filename), 'validation.fileSizeExceeded', { maximumMb });
      files.push(
        await validateUpload(
          { fieldName: part.fieldname, fileName: part.filename, bytes },
          { ...profile, fileBytesMax },
        ),
      );
    }
  } catch (error) {
    if (error instanceof UploadRefusal) throw toFieldError(error, field);
    if (isMultipartError(error, 'FST_REQ_FILE_TOO_LARGE')) {
      // The parser's own limit fired before readCapped saw the end of the cut stream.
      const fileName = baseFileName((error as { part?: { filename?: string } }).part?.filename ?? '');
      throw new FieldError(field, 'validation.fileSizeExceeded', { file: fileName, maximumMb });
    }
    if (isMultipartError(error, 'FST_FILES_LIMIT'))
      throw new FieldError(field, 'validation.fileCount', { maximum: filesMax });
    if (isMultipartError(error, 'FST_PARTS_LIMIT') || isMultipartError(error, 'FST_FIELDS_LIMIT')) {
      throw new FieldError(field, 'validation.fileCount', { maximum: filesMax });
    }
    throw error;
  }
  if (files.length === 0) throw new FieldError(field, 'validation.fileRequired');
  return { files, fields };
}
