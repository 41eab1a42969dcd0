import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, testRunClock } from './helpers.ts';
import {
  call,
  custodyPost,
  type Json,
  type ServerProcess,
  signUp,
  startServer,
  waitReady,
} from './server-processes.ts';

/**
 * A small cluster as docs/scale.md lays it out, started by `scripts/cluster.sh` with
 * `CLUSTER_SERVERS=0` (a PostgreSQL primary, a hot standby fed by streaming replication, PgBouncer
 * in transaction mode), and two server processes of the sources on it: every query through
 * PgBouncer, LISTEN and migrations on the direct connection, history reads on the replica. It
 * checks the routing, read-your-writes with the standby's replay paused, the fallback when the
 * standby lags beyond the limit, and a server killed with SIGKILL. PostgreSQL project only; it fails
 * (does not skip) when PostgreSQL 15's binaries or PgBouncer are missing.
 */
const repositoryDir = new URL('../../..', import.meta.url).pathname;
const MAX_LAG_MS = 2_000;

/** The first of four consecutive free loopback ports (primary, standby, PgBouncer, Redis). */
async function freePortBlock(): Promise<number> {
  const isFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const answers = await Promise.all([0, 1, 2, 3].map((offset) => isFree(base + offset)));
    if (answers.every(Boolean)) return base;
  }
}

function cluster(command: string, env: Record<string, string>): string {
  const result = spawnSync('bash', [join(repositoryDir, 'scripts/cluster.sh'), command], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`cluster.sh ${command} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** `db_reads_total` of one route on `server`'s /metrics (0 before the first). */
async function readsTo(server: ServerProcess, route: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const match = new RegExp(`^db_reads_total\\{route="${route}"\\} (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** The user's deposit records as `server` answers them, with `cookie`. */
async function depositTxHashes(server: ServerProcess, cookie: string): Promise<string[]> {
  const page = await call(server, 'GET', '/api/wallet/record?action=deposit&pageID=1&pageSize=20', { cookie });
  expect(page.statusCode).toBe(200);
  return (page.content.list as Json[]).map((record) => String(record.txHash ?? ''));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(testDatabaseKind !== 'postgres')('a small cluster: primary, standby, PgBouncer, two servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-cluster-'));
  let env: Record<string, string>;
  let urls: { bouncer: string; primary: string; standby: string };
  let a: ServerProcess;
  let b: ServerProcess;
  let standbyAdmin: pg.Client;

  const serverEnv = () => ({
    DATABASE_DIRECT_URL: urls.primary,
    DATABASE_READ_URL: urls.standby,
    DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
  });

  beforeAll(async () => {
    chmodSync(dir, 0o755);
    const base = await freePortBlock();
    env = { CLUSTER_DIR: join(dir, 'cluster'), CLUSTER_PORT_BASE: String(base), CLUSTER_SERVERS: '0' };
    cluster('up', env);
    urls = {
      primary: `postgres://postgres@127.0.0.1:${base}/meridian`,
      standby: `postgres://postgres@127.0.0.1:${base + 1}/meridian`,
      bouncer: `postgres://postgres@127.0.0.1:${base + 2}/meridian`,
    };
    [a, b] = await Promise.all([startServer(urls.bouncer, serverEnv()), startServer(urls.bouncer, serverEnv())]);
    await Promise.all([waitReady(a!, 120_000), waitReady(b!, 120_000)]);
    standbyAdmin = new pg.Client({ connectionString: urls.standby });
    await standbyAdmin.connect();
  }, 240_000);

  afterAll(async () => {
    await standbyAdmin?.end().catch(() => undefined);
    for (const server of [a, b]) {
      if (!server) continue;
      server.child.kill('SIGTERM');
      await server.exit;
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    if (env) cluster('down', env);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reads history from the replica, keeps a client that just wrote on the primary, and falls back when the replica lags', async () => {
    const user = await signUp(a);
    // Without the read-after-write cookie: the session alone.
    const sessionOnly = user.cookie
      .split('; ')
      .filter((pair) => !pair.startsWith('meridian_rw='))
      .join('; ');
    await until('the replica to answer history reads', async () => {
      const before = await readsTo(b, 'replica');
      await depositTxHashes(b, sessionOnly);
      return (await readsTo(b, 'replica')) > before ? true : undefined;
    });

    await standbyAdmin.query('SELECT pg_wal_replay_pause()');
    try {
      const lookup = await custodyPost(a, '/api/custody/address-lookup', {
        email: user.email,
        coin: 'USDT',
        network: 'TRC20',
      });
      const txHash = `cluster-${randomUUID()}`;
      const deposit = await custodyPost(a, '/api/custody/webhook', {
        deliveryId: randomUUID(),
        sentAt: testRunClock.now().toISOString(),
        event: {
          type: 'deposit',
          network: 'TRC20',
          coin: 'USDT',
          address: lookup.content.address,
          txHash,
          outputIndex: 0,
          amount: '12.5',
          confirmations: 100,
        },
      });
      expect(deposit.statusCode).toBe(200);

      // The paused replica does not have the deposit yet; a client that has not written reads it there.
      expect(await depositTxHashes(b, sessionOnly)).not.toContain(txHash);
      // The client writes something (marks its messages read) through the other process: from then
      // on its reads go to the primary, which has the deposit.
      const write = await call(a, 'POST', '/api/message/readAll', { cookie: sessionOnly, body: {} });
      const stamp = write.cookies.find((item) => item.startsWith('meridian_rw='))?.split(';')[0];
      expect(stamp).toBeDefined();
      const ownWritesBefore = await readsTo(b, 'primary_own_write');
      expect(await depositTxHashes(b, `${sessionOnly}; ${stamp}`)).toContain(txHash);
      expect(await readsTo(b, 'primary_own_write')).toBeGreaterThan(ownWritesBefore);

      // Beyond the lag limit every read goes to the primary.
      await until('reads to fall back to the primary', async () =>
        (await depositTxHashes(b, sessionOnly)).includes(txHash) ? true : undefined,
      );
      expect(await readsTo(b, 'primary_lagging')).toBeGreaterThan(0);
    } finally {
      await standbyAdmin.query('SELECT pg_wal_replay_resume()');
    }
    const replicaBefore = await readsTo(b, 'replica');
    await until('the caught-up replica to serve reads again', async () => {
      const seen = await depositTxHashes(b, sessionOnly);
      return (await readsTo(b, 'replica')) > replicaBefore && seen.length > 0 ? true : undefined;
    });
  }, 90_000);

  it('keeps serving through the other process while one is killed, and serves again once restarted', async () => {
    const user = await signUp(a);
    a.child.kill('SIGKILL');
    await a.exit;
    expect((await call(b, 'GET', '/api/user/self', { cookie: user.cookie })).statusCode).toBe(200);
    rmSync(a.dataDir, { recursive: true, force: true });
    a = await startServer(urls.bouncer, serverEnv());
    await waitReady(a, 120_000);
    expect((await call(a, 'GET', '/api/user/self', { cookie: user.cookie })).statusCode).toBe(200);
  }, 180_000);
});
