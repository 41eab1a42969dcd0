import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ReadRouter } from '../db/read-routing.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Where and how `GET /metrics` is served (METRICS_TOKEN, METRICS_PORT):
 * - `port` set: on a separate listener (`startMetricsServer`), never on the app port;
 * - else on the app port, behind `token` (bearer) when set;
 * - in production with neither: not served at all (404 on the app port) — the safe default, since
 *   the app port faces the internet; outside production it stays open as before.
 */
export interface MetricsExposure {
  /** Serve `/metrics` on the app port. */
  isOnAppPort: boolean;
  /** Bearer token required wherever it is served; undefined: open. */
  token: string | undefined;
  /** Separate listener's port, or undefined. */
  port: number | undefined;
}

/** Decide the exposure from the configuration (see `MetricsExposure`). */
export function metricsExposureOf(config: {
  isProduction: boolean;
  metrics: { token: string | undefined; port: number | undefined };
}): MetricsExposure {
  const { token, port } = config.metrics;
  return { isOnAppPort: port === undefined && (!config.isProduction || token !== undefined), token, port };
}

/** Whether an `Authorization` header carries the bearer `token` (constant-time comparison). */
export function hasBearerToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return false;
  // Compare digests so the lengths match and the comparison takes the same time whatever the input.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** Pool figures the metrics read at scrape time. */
export interface PoolStatsSource {
  poolStats(): { total: number; idle: number; waiting: number };
}

/**
 * Prometheus metrics (prom-client): an HTTP latency histogram labelled by method, route pattern
 * and status; database pool gauges; the process defaults. Served at `GET /metrics` on the app port
 * as `exposure` says (`metricsExposureOf`). Each app gets its own registry so tests can build
 * several apps in one process.
 */
export function registerMetrics(
  app: FastifyInstance,
  pool: PoolStatsSource,
  exposure: MetricsExposure = { isOnAppPort: true, token: undefined, port: undefined },
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const poolGauge = new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = pool.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  void poolGauge;

  app.addHook('onResponse', async (request, reply) => {
    // Label by the route pattern, never the raw URL, to keep the label set bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    httpDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  if (exposure.isOnAppPort) {
    const { token } = exposure;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (token !== undefined && !hasBearerToken(request.headers.authorization, token)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send('unauthorized\n');
      }
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  }
  return registry;
}

/**
 * Serve `GET /metrics` of `registry` on its own port (METRICS_PORT), behind `token` when set; any
 * other path answers 404. `main.ts` starts it and closes it with the app.
 */
export async function startMetricsServer(
  registry: Registry,
  options: { port: number; host: string; token: string | undefined },
): Promise<Server> {
  const server = createServer((request: IncomingMessage, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end('not found\n');
      return;
    }
    if (options.token !== undefined && !hasBearerToken(request.headers.authorization, options.token)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}

/** What the mail metrics read at scrape time (the identity module's outbox). */
export interface MailDeliveryStatsSource {
  /** Failed delivery attempts since the process started. */
  failuresTotal: number;
  /** Mails waiting to be sent. */
  backlog(): Promise<number>;
}

/**
 * Mail delivery metrics: `meridian_mail_delivery_failures_total` (failed SMTP
 * attempts of this process) and `meridian_mail_outbox_backlog` (PENDING outbox mails). `/readyz`
 * stays about the database; these say that mail is failing.
 */
/**
 * Read routing to the replica (docs/scale.md): `db_replica_lag_ms` (Infinity until the replica
 * answers) and `db_reads_total` by where each read went and why (`replica`, `primary_replica_down`,
 * `primary_lagging`, `primary_own_write`).
 */
export function registerReadRoutingMetrics(registry: Registry, router: ReadRouter): void {
  new Gauge({
    name: 'db_replica_lag_ms',
    help: 'How far the read replica is behind the primary, in milliseconds',
    registers: [registry],
    collect() {
      this.set(router.lagMs());
    },
  });
  const reported: Record<string, number> = {};
  new Counter({
    name: 'db_reads_total',
    help: 'Reads that may lag, by where they went',
    labelNames: ['route'] as const,
    registers: [registry],
    collect() {
      for (const [route, count] of Object.entries(router.counts)) {
        const delta = count - (reported[route] ?? 0);
        if (delta > 0) this.inc({ route }, delta);
        reported[route] = count;
      }
    },
  });
}

export function registerMailMetrics(registry: Registry, source: MailDeliveryStatsSource): void {
  let counted = 0;
  new Counter({
    name: 'meridian_mail_delivery_failures_total',
    help: 'Failed mail delivery attempts',
    registers: [registry],
    collect() {
      this.inc(source.failuresTotal - counted);
      counted = source.failuresTotal;
    },
  });
  new Gauge({
    name: 'meridian_mail_outbox_backlog',
    help: 'Mails queued in the outbox and not yet sent',
    registers: [registry],
    async collect() {
      this.set(await source.backlog());
    },
  });
}
