import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { metricsExposureOf, registerMetrics, startMetricsServer } from './metrics.ts';

/** /metrics in production is behind a bearer token or on its own port, never open. */
const TOKEN = 'metrics-token-'.padEnd(40, 'k');
const pool = { poolStats: () => ({ total: 1, idle: 1, waiting: 0 }) };

describe('/metrics exposure', () => {
  let open: TestApp;
  let guarded: TestApp;
  beforeAll(async () => {
    open = await createTestApp();
    guarded = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  it('is open on the app port outside production', async () => {
    const response = await open.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_request_duration_seconds');
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    expect((await guarded.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await guarded.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } }))
        .statusCode,
    ).toBe(401);
    const ok = await guarded.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('is not served on the app port in production without a token or a port', async () => {
    const exposure = metricsExposureOf({ isProduction: true, metrics: { token: undefined, port: undefined } });
    expect(exposure.isOnAppPort).toBe(false);
    const app = Fastify();
    registerMetrics(app, pool, exposure);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await app.close();
    expect(metricsExposureOf({ isProduction: true, metrics: { token: TOKEN, port: undefined } })).toMatchObject({
      isOnAppPort: true,
      token: TOKEN,
    });
    expect(metricsExposureOf({ isProduction: false, metrics: { token: undefined, port: 9464 } })).toMatchObject({
      isOnAppPort: false,
      port: 9464,
    });
  });

  it('serves on METRICS_PORT, behind the token when set, and nothing else there', async () => {
    const app = Fastify();
    const registry = registerMetrics(
      app,
      pool,
      metricsExposureOf({ isProduction: true, metrics: { token: TOKEN, port: 1 } }),
    );
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const server = await startMetricsServer(registry, { port: 0, host: '127.0.0.1', token: TOKEN });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('db_pool_connections');
      expect((await fetch(`${base}/api/user/info`)).status).toBe(404);
    } finally {
      await new Promise((done) => server.close(done));
      await app.close();
    }
  });

  it('reads METRICS_TOKEN and METRICS_PORT from the environment', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics).toEqual({ token: TOKEN, port: 9464 });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
  });
});
