import type { FastifyRequest } from 'fastify';

/**
 * The raw JSON body text of each request, kept by the app's JSON parser (app.ts) for checks that
 * cover the bytes as sent (the developer API's request signatures). Held weakly: it
 * goes with the request.
 */
const rawBodies = new WeakMap<FastifyRequest, string>();

/** Keep `text` as the raw body of `request`. */
export function rememberRawBody(request: FastifyRequest, text: string): void {
  rawBodies.set(request, text);
}

/** The raw JSON body text of `request`, or '' when it had none. */
export function rawBodyOf(request: FastifyRequest): string {
  return rawBodies.get(request) ?? '';
}
