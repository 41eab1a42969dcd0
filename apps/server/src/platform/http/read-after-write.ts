import type { FastifyInstance } from 'fastify';
import { noteWriteInReadContext, READ_AFTER_WRITE_COOKIE, runWithReadContext } from '../db/read-routing.ts';

/** How long a client's reads follow its last write to the primary at most (the cookie's life). */
const READ_AFTER_WRITE_COOKIE_MAX_AGE_SECONDS = 60;

const WRITING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Read-your-writes across server processes (docs/scale.md): a writing request's answer carries the
 * time of the write in a cookie, and every request runs with the time its client last wrote, so that
 * `Database.reads` keeps that client on the primary until the replica has replayed the write. The
 * cookie decides nothing but where a read goes: forged, it only sends its own reads to the primary.
 * Registered only when a replica is configured.
 */
export function registerReadAfterWrite(app: FastifyInstance, nowMs: () => number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const stamped = Number(request.cookies[READ_AFTER_WRITE_COOKIE]);
    runWithReadContext(Number.isSafeInteger(stamped) && stamped > 0 ? stamped : undefined, done);
  });
  app.addHook('onSend', async (request, reply) => {
    if (!WRITING_METHODS.has(request.method) || reply.statusCode >= 500) return;
    const atMs = nowMs();
    noteWriteInReadContext(atMs);
    reply.setCookie(READ_AFTER_WRITE_COOKIE, String(atMs), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      maxAge: READ_AFTER_WRITE_COOKIE_MAX_AGE_SECONDS,
    });
  });
}
