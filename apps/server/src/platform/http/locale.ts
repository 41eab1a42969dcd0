import { HEADER_USER_LANG } from '@meridian/contracts/http';
import { type Locale, toLocale } from '@meridian/contracts/locale';
import type { FastifyRequest } from 'fastify';

/** The caller's language from the `User-Lang` header (spec §7), en-US when absent or unknown. */
export function requestLocale(request: FastifyRequest): Locale {
  return toLocale(request.headers[HEADER_USER_LANG.toLowerCase()]);
}
