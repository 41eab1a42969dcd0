import type { Locale } from '@meridian/contracts/locale';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Interval of the comment line that keeps idle proxies from closing a stream. */
const HEARTBEAT_MS = 25_000;
/** Streams one user may hold open in one process (tabs); the oldest is closed beyond it. */
const STREAMS_PER_USER_MAX = 10;

interface Stream {
  reply: FastifyReply;
  heartbeat: NodeJS.Timeout;
  /** The language the tab asked for, or undefined for the account's own. */
  locale: Locale | undefined;
}

/**
 * Server-sent event streams of this process, by user. Fan-out between processes happens before
 * this hub (PostgreSQL LISTEN/NOTIFY); the hub only writes to the tabs connected here.
 */
export class SseHub {
  private readonly streams = new Map<string, Set<Stream>>();

  /** Number of open streams, for tests and metrics. */
  get size(): number {
    let count = 0;
    for (const set of this.streams.values()) count += set.size;
    return count;
  }

  hasUser(userId: string): boolean {
    return (this.streams.get(userId)?.size ?? 0) > 0;
  }

  /**
   * Take over the response as an event stream for `userId` until the client disconnects; `locale`
   * is the language the tab shows (its events are written in it), undefined for the account's own.
   */
  attach(userId: string, request: FastifyRequest, reply: FastifyReply, locale?: Locale): void {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write('retry: 5000\n\n');
    const stream: Stream = {
      reply,
      heartbeat: setInterval(() => reply.raw.write(': keep-alive\n\n'), HEARTBEAT_MS),
      locale,
    };
    const set = this.streams.get(userId) ?? new Set<Stream>();
    if (set.size >= STREAMS_PER_USER_MAX) {
      const oldest = set.values().next().value;
      if (oldest) this.detach(userId, oldest, true);
    }
    set.add(stream);
    this.streams.set(userId, set);
    request.raw.on('close', () => this.detach(userId, stream, false));
  }

  /** The languages the open streams of `userId` asked for (undefined: the account's own). */
  localesOf(userId: string): Set<Locale | undefined> {
    return new Set([...(this.streams.get(userId) ?? [])].map((stream) => stream.locale));
  }

  /**
   * Send one event to every stream of `userId` in this process: `data`, or for an event written in
   * words, `data(locale)` — each stream gets its own language's (`localesOf` tells which are open).
   */
  publish(userId: string, event: string, data: unknown | ((locale: Locale | undefined) => unknown)): void {
    const payloads = new Map<Locale | undefined, string>();
    for (const stream of this.streams.get(userId) ?? []) {
      let payload = payloads.get(stream.locale);
      if (payload === undefined) {
        const body =
          typeof data === 'function' ? (data as (locale: Locale | undefined) => unknown)(stream.locale) : data;
        payload = `event: ${event}\ndata: ${JSON.stringify(body)}\n\n`;
        payloads.set(stream.locale, payload);
      }
      stream.reply.raw.write(payload);
    }
  }

  /** End every stream (server shutdown). */
  closeAll(): void {
    for (const [userId, set] of this.streams) for (const stream of set) this.detach(userId, stream, true);
  }

  private detach(userId: string, stream: Stream, end: boolean): void {
    clearInterval(stream.heartbeat);
    const set = this.streams.get(userId);
    set?.delete(stream);
    if (set && set.size === 0) this.streams.delete(userId);
    if (end) stream.reply.raw.end();
  }
}
