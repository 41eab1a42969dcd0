import { hasUnsafeCharacters, UNSAFE_TEXT_PATTERN } from '@meridian/contracts/text';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/**
 * The rules every feature that takes files shares ("uploads 10 MB /
 * 10 files / name 50"; refusal texts). A refusal is an `UploadRefusal` naming the file and
 * the message key of the rule (`@meridian/contracts/validation`).
 */
export const UPLOAD_FILE_BYTES_MAX = 10 * 1024 * 1024;
/** The same limit in megabytes, for messages. */
export const UPLOAD_FILE_MEGABYTES_MAX = 10;
export const UPLOAD_FILES_PER_SUBMISSION_MAX = 10;
/** Longest file name, counted in Unicode code points. */
export const UPLOAD_FILE_NAME_LENGTH_MAX = 50;

/** Accepted content types of documents, recognised by their magic bytes (never by the name or the declared type). */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
/** Accepted content types of pictures shown on the site (banner images): no PDF, WebP too. */
export const IMAGE_UPLOAD_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Every content type the store keeps. */
export type UploadMimeType = (typeof UPLOAD_MIME_TYPES)[number] | (typeof IMAGE_UPLOAD_MIME_TYPES)[number];
type ImageMimeType = Exclude<UploadMimeType, 'application/pdf'>;

/**
 * What one kind of upload accepts: its content types (by magic bytes), its size limit, and the
 * message key that lists the accepted formats when a file is refused.
 */
export interface UploadProfile {
  mimeTypes: readonly UploadMimeType[];
  /** Largest file, bytes (at most `UPLOAD_FILE_BYTES_MAX`). */
  fileBytesMax: number;
  formatMessageKey: 'validation.fileFormat' | 'validation.imageFormat';
}

/** Identity documents and evidence: JPG, PNG or PDF, 10 MB. */
export const DOCUMENT_UPLOAD_PROFILE: UploadProfile = {
  mimeTypes: UPLOAD_MIME_TYPES,
  fileBytesMax: UPLOAD_FILE_BYTES_MAX,
  formatMessageKey: 'validation.fileFormat',
};

/** The size limit of a banner image, bytes (a 1600 × 600 picture well compressed is far below it). */
export const BANNER_IMAGE_BYTES_MAX = 2 * 1024 * 1024;
/** Banner images: PNG, JPEG or WebP, 2 MB. */
export const BANNER_IMAGE_UPLOAD_PROFILE: UploadProfile = {
  mimeTypes: IMAGE_UPLOAD_MIME_TYPES,
  fileBytesMax: BANNER_IMAGE_BYTES_MAX,
  formatMessageKey: 'validation.imageFormat',
};

/** A byte limit in megabytes for messages (rounded to one decimal; 2 MB → 2). */
export function megabytesOf(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

/** A file that passed every rule: its bytes are the ones to store (image metadata already removed). */
export interface ValidatedUpload {
  /** The multipart field it came in. */
  fieldName: string;
  /** The name the client gave (base name only), for display; never used as a storage path. */
  fileName: string;
  mimeType: UploadMimeType;
  /** `jpg`, `png`, `webp` or `pdf`, from the detected content. */
  extension: 'jpg' | 'png' | 'webp' | 'pdf';
  bytes: Buffer;
  sizeBytes: number;
}

export type UploadRuleKey =
  | 'validation.fileSizeExceeded'
  | 'validation.fileNameExceeded'
  | 'validation.fileFormat'
  | 'validation.imageFormat'
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

const EXTENSIONS: Record<UploadMimeType, ValidatedUpload['extension']> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/**
 * The type of `bytes` by magic bytes (`file-type`) when it is one of `accepted` (default: the
 * document types), or null for anything else.
 */
export async function detectUploadType(
  bytes: Uint8Array,
  accepted: readonly UploadMimeType[] = UPLOAD_MIME_TYPES,
): Promise<{ mimeType: UploadMimeType; extension: ValidatedUpload['extension'] } | null> {
  const detected = await fileTypeFromBuffer(bytes);
  const mimeType = accepted.find((type) => type === detected?.mime);
  return mimeType ? { mimeType, extension: EXTENSIONS[mimeType] } : null;
}

/**
 * Re-encode an image so that no metadata survives (EXIF with GPS position and device, XMP, ICC
 * comments, PNG text chunks): sharp writes only pixels unless asked to keep metadata. The EXIF
 * orientation is applied to the pixels first, so the picture still looks the way it was taken.
 * sharp's pixel limit (268 megapixels) refuses decompression bombs.
 * @throws Error when the image cannot be decoded.
 */
export async function stripImageMetadata(bytes: Buffer, mimeType: ImageMimeType): Promise<Buffer> {
  const image = sharp(bytes, { failOn: 'error' }).rotate();
  if (mimeType === 'image/jpeg') return image.jpeg({ quality: 92 }).toBuffer();
  if (mimeType === 'image/webp') return image.webp({ quality: 90 }).toBuffer();
  return image.png().toBuffer();
}

/**
 * Apply every content rule of `profile` (default: documents) to one received file: size, name,
 * type by content, and metadata removal for images. PDFs are kept byte for byte (their metadata is not rewritten).
 * @throws UploadRefusal naming the file and the rule it broke.
 */
export async function validateUpload(
  input: { fieldName: string; fileName: string; bytes: Buffer },
  profile: UploadProfile = DOCUMENT_UPLOAD_PROFILE,
): Promise<ValidatedUpload> {
  const fileName = checkFileName(input.fileName);
  const fileBytesMax = Math.min(profile.fileBytesMax, UPLOAD_FILE_BYTES_MAX);
  if (input.bytes.length > fileBytesMax)
    throw new UploadRefusal(fileName, 'validation.fileSizeExceeded', { maximumMb: megabytesOf(fileBytesMax) });
  if (input.bytes.length === 0) throw new UploadRefusal(fileName, 'validation.fileRequired');
  const type = await detectUploadType(input.bytes, profile.mimeTypes);
  if (!type) throw new UploadRefusal(fileName, profile.formatMessageKey);
  let bytes = input.bytes;
  if (type.mimeType !== 'application/pdf') {
    try {
      bytes = await stripImageMetadata(input.bytes, type.mimeType);
    } catch {
      // A file with an image's magic bytes that no decoder can read is not a supported image.
      throw new UploadRefusal(fileName, profile.formatMessageKey);
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
