import { Redis } from 'ioredis';

/**
 * A Redis client for the shared rate limits and replay marks. ioredis reconnects by itself after a
 * lost connection; its `error` events are reported as one process warning per distinct message
 * (unhandled, ioredis prints a stack for every attempt). Requests made while disconnected fail
 * after one retry (`maxRetriesPerRequest: 1`) and the callers refuse rather than let through.
 */
export function createRedisClient(url: string): Redis {
  const redis = new Redis(url, { connectTimeout: 5000, maxRetriesPerRequest: 1, lazyConnect: false });
  let lastMessage: string | undefined;
  redis.on('error', (error: Error) => {
    if (error.message === lastMessage) return;
    lastMessage = error.message;
    process.emitWarning(`Redis ${url.replace(/\/\/[^@/]*@/, '//')}: ${error.message}`);
  });
  redis.on('ready', () => (lastMessage = undefined));
  return redis;
}
