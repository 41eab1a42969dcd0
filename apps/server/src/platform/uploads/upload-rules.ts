import { hasUnsafeCharacters, UNSAFE_TEXT_PATTERN } from '@meridian/contracts/text';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/**
 * The rules every feature that takes files shares (issue 15 "Uploads"; spec §9 "uploads 10 MB /
 * 10 files / name 50"; spec §8 refusal texts). A refusal is an `UploadRefusal` naming the file and
 * the message key of the rule (`@meridian/contracts/validation`).
 */
export const UPLOAD_FILE_BYTES_MAX = 10 * 1024 * 1024;
/** The same limit in megabytes, for messages. */
export const UPLOAD_FILE_MEGABYTES_MAX = 10;
export const UPLOAD_FILES_PER_SUBMISSION_MAX = 10;
/** Longest file name, counted in Unicode code points. */
export const UPLOAD_FILE_NAME_LENGTH_MAX = 50;

/** Accepted content types, recognised by their magic bytes (never by the name or the declared type). */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type UploadMimeType = (typeof UPLOAD_MIME_TYPES)[number];

/** A file that passed every rule: its bytes are the ones to store (image metadata already removed). */
export interface ValidatedUpload {
  /** The multipart field it came in. */
  fieldName: string;
  /** The name the client gave (base name only), for display; never used as a storage path. */
  fileName: string;
  mimeType: UploadMimeType;
  /** `jpg`, `png` or `pdf`, from the detected content. */
  extension: 'jpg' | 'png' | 'pdf';
  bytes: Buffer;
  sizeBytes: number;
}

export type UploadRuleKey =
  | 'validation.fileSizeExceeded'
  | 'validation.fileNameExceeded'
  | 'validation.fileFormat'
  | 'validation.fileCount'
  | 'validation.fileRequired'
  | 'validation.controlCharacter';

/** A file refused by one rule: `fileName` and `messageKey` with its `params` make the user's message. */
export class UploadRefusal extends Error {
  constructor(
    readonly fileName: string,
    readonly messageKey: UploadRuleKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${fileName}: ${messageKey}`);
    this.name = 'UploadRefusal';
  }
}

/** The base name of a client-supplied file name (browsers may send `C:\\fakepath\\x.png`). */
export function baseFileName(rawName: string): string {
  return rawName.split(/[\\/]/).pop() ?? '';
}

/**
 * Check a file name: present, no control characters, at most 50 code points.
 * @throws UploadRefusal (`validation.fileRequired`, `validation.controlCharacter`, `validation.fileNameExceeded`).
 */
export function checkFileName(rawName: string): string {
  const name = baseFileName(rawName);
  if (name.trim() === '') throw new UploadRefusal(rawName, 'validation.fileRequired');
  if (hasUnsafeCharacters(name))
    throw new UploadRefusal(
      name.replace(new RegExp(UNSAFE_TEXT_PATTERN.source, 'g'), '?'),
      'validation.controlCharacter',
    );
  if ([...name].length > UPLOAD_FILE_NAME_LENGTH_MAX)
    throw new UploadRefusal(name, 'validation.fileNameExceeded', { maximum: UPLOAD_FILE_NAME_LENGTH_MAX });
  return name;
}

/** The accepted type of `bytes` by magic bytes (`file-type`), or null for anything else. */
export async function detectUploadType(
  bytes: Uint8Array,
): Promise<{ mimeType: UploadMimeType; extension: ValidatedUpload['extension'] } | null> {
  const detected = await fileTypeFromBuffer(bytes);
  switch (detected?.mime) {
    case 'image/jpeg':
      return { mimeType: 'image/jpeg', extension: 'jpg' };
    case 'image/png':
      return { mimeType: 'image/png', extension: 'png' };
    case 'application/pdf':
      return { mimeType: 'application/pdf', extension: 'pdf' };
    default:
      return null;
  }
}

/**
 * Re-encode an image so that no metadata survives (EXIF with GPS position and device, XMP, ICC
 * comments, PNG text chunks): sharp writes only pixels unless asked to keep metadata. The EXIF
 * orientation is applied to the pixels first, so the picture still looks the way it was taken.
 * sharp's pixel limit (268 megapixels) refuses decompression bombs.
 * @throws Error when the image cannot be decoded.
 */
export async function stripImageMetadata(bytes: Buffer, mimeType: 'image/jpeg' | 'image/png'): Promise<Buffer> {
  const image = sharp(bytes, { failOn: 'error' }).rotate();
  return mimeType === 'image/jpeg' ? image.jpeg({ quality: 92 }).toBuffer() : image.png().toBuffer();
}

/**
 * Apply every content rule to one received file: size, name, type by content, and metadata
 * removal for images. PDFs are kept byte for byte (their metadata is not rewritten).
 * @throws UploadRefusal naming the file and the rule it broke.
 */
export async function validateUpload(input: {
  fieldName: string;
  fileName: string;
  bytes: Buffer;
}): Promise<ValidatedUpload> {
  const fileName = checkFileName(input.fileName);
  if (input.bytes.length > UPLOAD_FILE_BYTES_MAX)
    throw new UploadRefusal(fileName, 'validation.fileSizeExceeded', { maximumMb: UPLOAD_FILE_MEGABYTES_MAX });
  if (input.bytes.length === 0) throw new UploadRefusal(fileName, 'validation.fileRequired');
  const type = await detectUploadType(input.bytes);
  if (!type) throw new UploadRefusal(fileName, 'validation.fileFormat');
  let bytes = input.bytes;
  if (type.mimeType !== 'application/pdf') {
    try {
      bytes = await stripImageMetadata(input.bytes, type.mimeType);
    } catch {
      // A file with an image's magic bytes that no decoder can read is not a supported image.
      throw new UploadRefusal(fileName, 'validation.fileFormat');
    }
  }
  return {
    fieldName: input.fieldName,
    fileName,
    mimeType: type.mimeType,
    extension: type.extension,
    bytes,
    sizeBytes: bytes.length,
  };
}
