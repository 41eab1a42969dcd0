import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Pool figures the metrics read at scrape time. */
export interface PoolStatsSource {
  poolStats(): { total: number; idle: number; waiting: number };
}

/**
 * Prometheus metrics (prom-client): an HTTP latency histogram labelled by method, route pattern
 * and status; database pool gauges; the process defaults. Served at `GET /metrics`. Each app
 * gets its own registry so tests can build several apps in one process.
 */
export function registerMetrics(app: FastifyInstance, pool: PoolStatsSource): Registry {
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
    httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}

/** What the mail metrics read at scrape time (the identity module's outbox). */
export interface MailDeliveryStatsSource {
  /** Failed delivery attempts since the process started. */
  failuresTotal: number;
  /** Mails waiting to be sent. */
  backlog(): Promise<number>;
}

/**
 * Mail delivery metrics (issue 14 item 6): `meridian_mail_delivery_failures_total` (failed SMTP
 * attempts of this process) and `meridian_mail_outbox_backlog` (PENDING outbox mails). `/readyz`
 * stays about the database; these say that mail is failing.
 */
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
