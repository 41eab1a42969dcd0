import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { DomainError } from '../http/errors.ts';
import { perIpLimit } from './rate-limit.ts';

/**
 * Every 429 carries `Retry-After` in seconds — a route's per-IP limit (as on
 * exchange/rate), and a service's own RATE_LIMITED refusal.
 */
describe('Retry-After on every 429', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      configure: (app) => {
        app.get('/api/probe/limited', { config: { rateLimit: perIpLimit(1, 30_000) } }, async () => ({
          statusCode: 200,
          content: null,
          message: 'Success',
        }));
        app.get('/api/probe/daily-cap', async () => {
          throw new DomainError('RATE_LIMITED');
        });
      },
    });
  });
  afterAll(async () => t.close());

  it('a per-IP limit answers 429 with the seconds left in the window', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/probe/limited', remoteAddress: '10.9.9.9' });
    expect(first.statusCode).toBe(200);
    const second = await t.app.inject({ method: 'GET', url: '/api/probe/limited', remoteAddress: '10.9.9.9' });
    expect(second.statusCode).toBe(429);
    expect(second.json().statusCode).toBe(108);
    const seconds = Number(second.headers['retry-after']);
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 30).toBe(true);
  });

  it('a service refusal with code 108 also carries Retry-After', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/probe/daily-cap' });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('the exchange/rate limit carries it too', async () => {
    const session = await registerAndLogin(t.app);
    let last;
    for (let i = 0; i < 320; i += 1) {
      last = await t.app.inject({
        method: 'GET',
        url: '/api/exchange/rate?from=USDT&to=BTC&side=SELL',
        headers: { cookie: session.cookie },
        remoteAddress: '10.8.8.8',
      });
      if (last.statusCode === 429) break;
    }
    expect(last?.statusCode).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
