import { BUSINESS_CODES, businessMessage } from '@meridian/contracts/codes';
import type { Envelope } from '@meridian/contracts/envelope';
import type { FastifyRequest } from 'fastify';
import { requestLocale } from './locale.ts';

/** Wrap a successful result in the envelope with the localized success message. */
export function ok<T>(request: FastifyRequest, content: T): Envelope<T> {
  return { statusCode: BUSINESS_CODES.OK.code, content, message: businessMessage('OK', requestLocale(request)) };
}
