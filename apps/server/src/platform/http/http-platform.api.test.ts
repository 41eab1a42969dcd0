import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimalAmountSchema } from '@meridian/contracts/money';
import { createTestApp, mutationHeaders, type TestApp, testDatabaseRegistry } from '../../../test/helpers.ts';
import { DomainError } from './errors.ts';

/** A probe route with a zod body, standing in for any money route, to prove the shared behaviour. */
function registerProbe(app: FastifyInstance, calls: unknown[]) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/probe',
    {
      schema: {
        body: z.strictObject({
          coin: z.enum(['BTC', 'USDT']),
          amount: decimalAmountSchema,
          note: z.string().max(5).optional(),
        }),
      },
    },
    async (request) => {
      calls.push(request.body);
      if (request.body.amount === '999') throw new DomainError('INSUFFICIENT_BALANCE');
      if (request.body.amount === '1000') throw new DomainError('AMOUNT_ABOVE_MAX', { amount: '500', unit: 'USDT' });
      if (request.body.amount === '500') throw new Error('database exploded with secret detail');
      if (request.body.amount === '501')
        throw new Error('Failed query: secret', {
          cause: Object.assign(new Error('terminating connection'), { code: '57P01' }),
        });
      return { statusCode: 200, content: request.body, message: 'Success' };
    },
  );
}

/** An inline script as the web build writes one into index.html (its boot script). */
const BOOT_SCRIPT = "\n(function () { document.documentElement.setAttribute('data-boot-path', 'app'); })();\n";

describe('HTTP platform: envelope, validation, CSRF guard, errors', () => {
  let t: TestApp;
  const calls: unknown[] = [];
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'meridian-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(
      join(webDir, 'index.html'),
      `<!doctype html><title>Meridian</title><script>${BOOT_SCRIPT}</script><div id="root"></div>`,
    );
    writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    mkdirSync(join(webDir, 'prerendered', 'product'), { recursive: true });
    writeFileSync(
      join(webDir, 'prerendered', 'product', 'earn.html'),
      `<!doctype html><title>Earn</title><script>${BOOT_SCRIPT}</script><div id="root">earn page</div>`,
    );
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir }, configure: (app) => registerProbe(app, calls) });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('accepts a valid body and answers in the envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders(),
      payload: { coin: 'BTC', amount: '1.5' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: 200, content: { coin: 'BTC', amount: '1.5' }, message: 'Success' });
  });

  it('names the failing field in English and changes nothing', async () => {
    const before = calls.length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders(),
      payload: { coin: 'BTC', amount: '1,5' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.statusCode).toBe(120);
    expect(body.message).toBe('amount: Enter a valid amount');
    expect(body.content.fields).toEqual([{ field: 'amount', message: 'Enter a valid amount' }]);
    expect(calls.length).toBe(before);
  });

  it('names the failing field in Traditional Chinese when User-Lang is zh-HK', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders({ 'User-Lang': 'zh-HK' }),
      payload: { coin: 'DOGE', note: 'far too long' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.message).toMatch(/^coin：無效的選項/);
    const fields = Object.fromEntries(
      body.content.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(fields.amount).toBe('此欄位為必填');
    // A too-long string says so in words, not zod's generic "數值過大".
    expect(fields.note).toBe('此欄位過長（最多 5 個字元）');
  });

  it('refuses unknown fields and a missing body', async () => {
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders(),
      payload: { coin: 'BTC', amount: '1', admin: true },
    });
    expect(extra.json().content.fields[0]).toEqual({ field: 'admin', message: expect.stringContaining('admin') });
    const empty = await t.app.inject({ method: 'POST', url: '/api/probe', headers: { 'x-meridian-client': 'web' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().content.fields[0].field).toBe('body');
  });

  it('maps domain errors to catalogue codes with filled placeholders', async () => {
    const insufficient = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders(),
      payload: { coin: 'USDT', amount: '999' },
    });
    expect(insufficient.statusCode).toBe(422);
    expect(insufficient.json()).toEqual({ statusCode: 130, content: null, message: 'Insufficient Balance' });
    const aboveMax = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders({ 'User-Lang': 'zh-HK' }),
      payload: { coin: 'USDT', amount: '1000' },
    });
    expect(aboveMax.json().message).toBe('最大下單金額 500 USDT');
  });

  it('hides the details of unexpected errors', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: mutationHeaders(),
      payload: { coin: 'USDT', amount: '500' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      content: null,
      message: 'Server error, please try again later',
    });
    expect(response.body).not.toContain('secret');
  });

  it('answers 503 with Retry-After, in both languages, when the database is out of reach', async () => {
    for (const [lang, message] of [
      ['en-US', 'This function is temporarily unavailable'],
      ['zh-HK', '此功能暫時無法使用'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/probe',
        headers: { ...mutationHeaders(), 'user-lang': lang },
        payload: { coin: 'USDT', amount: '501' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ statusCode: 107, content: null, message });
      expect(response.body).not.toContain('secret');
    }
  });

  it('refuses a state-changing call without the client header or with a form content type', async () => {
    const before = calls.length;
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: { 'content-type': 'application/json' },
      payload: { coin: 'BTC', amount: '1' },
    });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().statusCode).toBe(102);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/probe',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-meridian-client': 'web' },
      payload: 'coin=BTC&amount=1',
    });
    expect(form.statusCode).toBe(403);
    expect(calls.length).toBe(before);
  });

  it('answers unknown API paths with a 404 envelope and other pages with the web app', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ statusCode: 104, content: null, message: 'Not found' });
    const page = await t.app.inject({ method: 'GET', url: '/my/account/overview', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
    // The built page's inline boot script runs by its hash; no other inline script does.
    const bootHash = createHash('sha256').update(BOOT_SCRIPT, 'utf8').digest('base64');
    const scriptSrc = /script-src [^;]*/.exec(String(page.headers['content-security-policy']))?.[0];
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${bootHash}'`);
    // A page asked for with any Accept header (curl sends */*) is the app too; a missing file is not.
    for (const accept of ['*/*', undefined]) {
      const plain = await t.app.inject({ method: 'GET', url: '/some/page?x=1', headers: accept ? { accept } : {} });
      expect(plain.statusCode, `Accept ${accept}`).toBe(200);
      expect(plain.body).toContain('<div id="root">');
    }
    const missingFile = await t.app.inject({ method: 'GET', url: '/assets/gone-0000.js', headers: { accept: '*/*' } });
    expect(missingFile.statusCode).toBe(404);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers a prerendered page with its own HTML at its path only, the same boot script allowed', async () => {
    const earn = await t.app.inject({
      method: 'GET',
      url: '/product/earn?locale=zh-HK',
      headers: { accept: 'text/html' },
    });
    expect(earn.statusCode).toBe(200);
    expect(earn.body).toContain('earn page');
    expect(earn.headers['cache-control']).toBe('no-cache');
    const bootHash = createHash('sha256').update(BOOT_SCRIPT, 'utf8').digest('base64');
    expect(earn.headers['content-security-policy']).toContain(`'sha256-${bootHash}'`);
    for (const url of ['/product/earn/', '/product/earn/more', '/product']) {
      const other = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(other.statusCode, url).toBe(200);
      expect(other.body, url).not.toContain('earn page');
    }
  });

  it('echoes or assigns a request id', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers['x-request-id']).toBe('trace-42');
    const assigned = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(assigned.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('reports health and database readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('exposes Prometheus metrics with HTTP latency and pool gauges', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('http_request_duration_seconds_bucket');
    expect(metrics.body).toMatch(/route="\/healthz"/);
    expect(metrics.body).toContain('db_pool_connections{state="total"}');
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.paths['/api/market/banner/getList'].get).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });

  it('reports the database unavailable after it closes', async () => {
    // This database is gone on purpose: take it off the list the after-file ledger check reads.
    testDatabaseRegistry.open.delete(t.database);
    await t.database.close();
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
  });
});
