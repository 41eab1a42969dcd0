import { HEADER_USER_LANG } from '@meridian/contracts/http';
import { isLocale, type Locale, toLocale } from '@meridian/contracts/locale';
import type { FastifyRequest } from 'fastify';

/** The caller's language from the `User-Lang` header, en-US when absent or unknown. */
export function requestLocale(request: FastifyRequest): Locale {
  return toLocale(request.headers[HEADER_USER_LANG.toLowerCase()]);
}

/** The language the request's `User-Lang` names, or undefined when it names none we support. */
export function requestedLocale(request: FastifyRequest): Locale | undefined {
  const value = request.headers[HEADER_USER_LANG.toLowerCase()];
  return typeof value === 'string' && isLocale(value) ? value : undefined;
}
