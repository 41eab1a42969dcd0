import type { FastifyReply, FastifyRequest } from 'fastify';

/** Interval of the comment line that keeps idle proxies from closing a stream. */
const HEARTBEAT_MS = 25_000;
/** Streams one user may hold open in one process (tabs); the oldest is closed beyond it. */
const STREAMS_PER_USER_MAX = 10;

interface Stream {
  reply: FastifyReply;
  heartbeat: NodeJS.Timeout;
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

  /** Take over the response as an event stream for `userId` until the client disconnects. */
  attach(userId: string, request: FastifyRequest, reply: FastifyReply): void {
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

  /** Send one event to every stream of `userId` in this process. */
  publish(userId: string, event: string, data: unknown): void {
    const payload = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of this.streams.get(userId) ?? []) stream.reply.raw.write(payload);
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
