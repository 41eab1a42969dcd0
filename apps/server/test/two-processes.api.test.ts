import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db/rows.ts';
import { createTestDatabase, testDatabaseKind, testRunClock } from './helpers.ts';
import { type ServerProcess, startServer, waitReady, call, signUp, custodyPost } from './server-processes.ts';

/**
 * Two server processes on one PostgreSQL database, as `docs/operations.md` "Several processes" sets
 * them up: a session made on one is honoured by the other
 * and, once revoked on the first, refused by the other within a second; a message caused on one
 * reaches the user's open stream on the other; the scheduled jobs claim each period once; with
 * `REDIS_URL` the per-IP limits are counted across both. Real processes (`node --import tsx
 * src/main.ts`), real HTTP; runs in the PostgreSQL project only.
 */

describe.skipIf(testDatabaseKind !== 'postgres')('two server processes on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startServer(database.url!);
    b = await startServer(database.url!);
    await Promise.all([waitReady(a, 120_000), waitReady(b, 120_000)]);
  }, 150_000);

  afterAll(async () => {
    for (const server of [a, b]) {
      if (!server) continue;
      server.child.kill('SIGTERM');
      await server.exit;
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    await database?.dispose();
  }, 60_000);

  it('honours a session made on one process on the other, and refuses it there within a second of its revocation', async () => {
    const user = await signUp(a);
    expect((await call(b, 'GET', '/api/user/self', { cookie: user.cookie })).statusCode).toBe(200);
    expect((await call(b, 'GET', '/api/user/self', { cookie: user.cookie })).statusCode).toBe(200); // now cached on b

    expect((await call(a, 'POST', '/api/user/logout', { cookie: user.cookie, body: {} })).statusCode).toBe(200);
    const revokedAt = Date.now();
    let refusedAfterMs = -1;
    while (Date.now() - revokedAt < 5_000) {
      if ((await call(b, 'GET', '/api/user/self', { cookie: user.cookie })).statusCode === 101) {
        refusedAfterMs = Date.now() - revokedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(refusedAfterMs).toBeGreaterThanOrEqual(0);
    expect(refusedAfterMs).toBeLessThan(1_000);
  }, 60_000);

  it('streams a message caused on one process to the user’s open stream on the other', async () => {
    const user = await signUp(a);
    const controller = new AbortController();
    const stream = await fetch(`${b.url}/api/notice/stream`, {
      headers: { cookie: user.cookie },
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const arrival = (async () => {
      while (!received.includes('event: message')) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value);
      }
    })();

    const lookup = await custodyPost(a, '/api/custody/address-lookup', {
      email: user.email,
      coin: 'USDT',
      network: 'TRC20',
    });
    expect(lookup.statusCode).toBe(200);
    const deposit = await custodyPost(a, '/api/custody/webhook', {
      deliveryId: randomUUID(),
      sentAt: testRunClock.now().toISOString(),
      event: {
        type: 'deposit',
        network: 'TRC20',
        coin: 'USDT',
        address: lookup.content.address,
        txHash: `two-processes-${randomUUID()}`,
        outputIndex: 0,
        amount: '12.5',
        confirmations: 100,
      },
    });
    expect(deposit.statusCode).toBe(200);
    await Promise.race([arrival, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    controller.abort();
    expect(received).toContain('event: message');
    expect(received).toContain('12.50');
    // The balance is one, whichever process answers.
    for (const server of [a, b]) {
      const balance = await call(server, 'GET', '/api/account/balance', { cookie: user.cookie });
      const main = balance.content.wallet.accounts.find(
        (item: { accountType: string }) => item.accountType === 'MainAccount',
      );
      expect(
        main.assets.find(
          (item: { coinCode: string; type: string }) => item.coinCode === 'USDT' && item.type === 'available',
        ).amount,
      ).toMatch(/^12\.5/);
    }
  }, 60_000);

  it('claims each period of each scheduled job once between the two', async () => {
    const runs = await queryRows<{ job_name: string; period_start_at: string; n: number }>(
      database.db,
      sql`SELECT job_name, period_start_at::text, count(*)::int AS n FROM job_runs GROUP BY 1, 2`,
    );
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((run) => run.n !== 1)).toEqual([]);
    // The daily jobs of today ran (claimed) once, by one of the two.
    const daily = runs.filter((run) => run.job_name === 'funds.daily');
    expect(daily.length).toBeLessThanOrEqual(1);
    const [products] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM fund_products WHERE type = 'CURRENT'`,
    );
    expect(products?.n).toBe(1); // seeded by both at start, made once
  });

  it.skipIf(!process.env.REDIS_URL)(
    'counts the per-IP login limit across both processes (Redis)',
    async () => {
      // The counters of 127.0.0.1 start from zero and are dropped again after, so no later test on
      // this Redis (the e2e servers' sign-ins come from 127.0.0.1 too) inherits them.
      const forgetCounters = async () => {
        const redis = new Redis(process.env.REDIS_URL!);
        const keys = await redis.keys('meridian-rl-*127.0.0.1*');
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      };
      await forgetCounters();
      const answers: number[] = [];
      for (let attempt = 0; attempt < 31; attempt += 1) {
        const server = attempt % 2 === 0 ? a : b;
        answers.push((await call(server, 'POST', '/api/user/login', { body: {} })).statusCode);
      }
      // 30 per minute per IP (identity.routes.ts): 15 on each process pass, the 31st is refused.
      expect(answers.slice(0, 30).every((code) => code !== 108)).toBe(true);
      await forgetCounters();
      expect(answers[30]).toBe(108);
    },
    60_000,
  );
});
