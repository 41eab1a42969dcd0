import {
  BANNER_IMAGE_BYTES_MAX,
  BANNER_IMAGE_FIELD,
  BANNER_IMAGE_MIME_TYPES,
  type BannerImageUpload,
  backOfficeBannerEndpoints,
} from '@meridian/contracts/back-office';
import type { Envelope } from '@meridian/contracts/envelope';
import { API_BASE_PATH, CSRF_HEADER_VALUE, HEADER_CSRF, HEADER_USER_LANG } from '@meridian/contracts/http';
import { getStoredLocale } from '../../../lib/locale.ts';

/** What an upload ends with: the stored image, or the server's refusal (its message names the file and the rule). */
export type BannerImageOutcome = { isOk: true; image: BannerImageUpload } | { isOk: false; message: string };

/** The `accept` attribute of the file picker: the types the server takes (it checks the content anyway). */
export const BANNER_IMAGE_ACCEPT = BANNER_IMAGE_MIME_TYPES.join(',');

/**
 * Whether a picked file may be sent: a PNG, JPEG or WebP by its declared type, at most 2 MB. Only
 * to spare a doomed upload; the server decides by the file's magic bytes.
 */
export function isSendableBannerImage(file: { type: string; size: number }): boolean {
  return (BANNER_IMAGE_MIME_TYPES as readonly string[]).includes(file.type) && file.size <= BANNER_IMAGE_BYTES_MAX;
}

/**
 * `POST admin/banners/images` (multipart/form-data, the part `image`; docs/back-office.md
 * "Home-page banners"), with the operator's cookie. Resolves, never rejects: a network failure is
 * a refusal with `networkMessage`.
 */
export async function uploadBannerImage(file: File, networkMessage: string): Promise<BannerImageOutcome> {
  const body = new FormData();
  body.append(BANNER_IMAGE_FIELD, file, file.name);
  try {
    const response = await fetch(`${API_BASE_PATH}${backOfficeBannerEndpoints.uploadBannerImage.path}`, {
      method: 'POST',
      credentials: 'include',
      headers: { [HEADER_CSRF]: CSRF_HEADER_VALUE, [HEADER_USER_LANG]: getStoredLocale(), Accept: 'application/json' },
      body,
    });
    const envelope = (await response.json()) as Envelope<BannerImageUpload>;
    if (envelope.statusCode === 200 && envelope.content) return { isOk: true, image: envelope.content };
    const fields = (envelope.content as { fields?: { message: string }[] } | null)?.fields;
    return { isOk: false, message: fields?.[0]?.message ?? (envelope.message || networkMessage) };
  } catch {
    return { isOk: false, message: networkMessage };
  }
}
