import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { createRedisClient } from './redis-client.ts';
import { DomainError } from '../http/errors.ts';

/**
 * Per-IP request limits (docs/architecture.md "Request path", docs/scale.md): `@fastify/rate-limit`, not global; a route opts in
 * with `config: { rateLimit: { max, timeWindow } }`. The counters live in Redis when `REDIS_URL` is
 * set (shared by every server process) and in process memory otherwise. Over the limit the one
 * error handler answers 108 (HTTP 429) with `Retry-After` (seconds left in the window; the error
 * handler gives every other 429 one too).
 */
export interface RateLimitOptions {
  redisUrl: string | undefined;
  /** Key prefix in Redis, so several apps (or test files) can share one server. */
  nameSpace?: string;
}

/** Register the limiter; closes its Redis connection when the app closes. */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const redis = options.redisUrl ? createRedisClient(options.redisUrl) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis } : {}),
    nameSpace: options.nameSpace ?? 'meridian-rl-',
    skipOnError: false,
    errorResponseBuilder: () => new DomainError('RATE_LIMITED'),
  });
}

/** Route config for a per-IP limit of `max` requests per `windowMs`. */
export function perIpLimit(max: number, windowMs: number) {
  return { max, timeWindow: windowMs };
}
