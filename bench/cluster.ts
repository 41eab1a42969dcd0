/**
 * `npm run bench:cluster [-- --seconds 20 --concurrency 16 --users 256]`: swaps and withdrawals per
 * second with p50/p99, in one run, on three set-ups of the production build (`apps/server/dist`,
 * built first when missing):
 *
 * - `pglite`: one server process on the embedded database (its own data directory);
 * - `postgres`: one server process on PostgreSQL directly (a scratch database on the cluster's
 *   primary, so that both PostgreSQL figures come from the same server);
 * - `cluster`: three processes behind HAProxy, PgBouncer in transaction mode, streaming standby
 *   (`scripts/cluster.sh up` on free ports in a temporary directory; its processes stay up, idle,
 *   during the single-process runs).
 *
 * Each set-up gets `--users` users made in process through the app's routes (`soak/setup.ts`: basic
 * KYC, the security code as trade factor, 100,000 USDT); then quote + swap USDT→USDE
 * (`swap-load.ts`) and INTERNAL withdrawals of 10 USDT to another user (`cluster-load.ts`), each for
 * `--seconds` after a 3 s warm-up, at `--concurrency`, the client in a worker thread. Prints each
 * figure and the ratios of each set-up to the single process on PostgreSQL and on PGlite
 * (throughput and p99), then one JSON line. Every figure is noisy on a shared machine: compare
 * the ratios of one run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import {
  clusterCommand,
  clusterHandle,
  freeClusterPortBase,
  REPOSITORY_DIR,
} from '../apps/server/scripts/soak/cluster.ts';
import { freePort, serverEnvironment, type ServerTarget } from '../apps/server/scripts/soak/server-process.ts';
import { SOAK_SECURITY_CODE, setUpSoakUsers, type SoakUser } from '../apps/server/scripts/soak/setup.ts';
import type { WithdrawPlan, WithdrawResult } from './cluster-load.ts';
import type { LoadPlan, LoadResult } from './swap-load.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '16' },
    // Enough users that the per-user quote limit (300 a minute, exchange.routes.ts) is never reached
    // at the rates measured here (~350 swaps/s): with 32, a single process answered most quotes 108
    // (rate limited) within seconds and its swap figures measured the limit, not the server.
    users: { type: 'string', default: '256' },
  },
});
const DURATION_MS = Number(args.seconds) * 1000;
const CONCURRENCY = Number(args.concurrency);
const USERS = Math.max(Number(args.users), CONCURRENCY + 1);
const WARM_UP_MS = 3_000;
const SERVERS = 3;
const DIST_MAIN = join(REPOSITORY_DIR, 'apps/server/dist/main.js');
const READY_POLL_MS = 100;
const READY_POLLS_MAX = 6000;

interface Figures {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Errors by kind (`quote 108`, `swap 131`, `network …`). */
  errorKinds: Record<string, number>;
}
type SetUpName = 'pglite' | 'postgres' | 'cluster';

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function inWorker<P, R>(file: string, plan: P): Promise<R> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(file, import.meta.url), { workerData: plan, execArgv: ['--import', 'tsx'] });
    worker.once('message', (message: R) => resolve(message));
    worker.once('error', reject);
  });
}

/** One server process of the production build on `target`, as cluster.sh starts one (development, jobs on). */
async function startBuiltServer(target: ServerTarget): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...serverEnvironment(target, port), NODE_ENV: 'development' };
  delete env.JOBS_ENABLED;
  const child = spawn(process.execPath, [DIST_MAIN], { env, stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${port}`;
  // A start on a loaded 2-core machine took over 2 minutes (migrations, seed, price history).
  for (let attempt = 0; attempt < READY_POLLS_MAX; attempt += 1) {
    const isReady = await fetch(`${baseUrl}/readyz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (isReady) return { child, baseUrl };
    if (child.exitCode !== null)
      throw new Error(`server on ${target.databaseUrl ?? 'PGlite'} exited before it was ready`);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  child.kill('SIGKILL');
  throw new Error(`server not ready within ${(READY_POLLS_MAX * READY_POLL_MS) / 1000} s`);
}

async function measure(baseUrl: string, users: SoakUser[]): Promise<{ swaps: Figures; withdrawals: Figures }> {
  const swapPlan: LoadPlan = {
    baseUrl,
    cookies: users.map((user) => user.cookie),
    concurrency: CONCURRENCY,
    swapsMax: Number.MAX_SAFE_INTEGER,
    durationMsMax: DURATION_MS,
    warmUp: { swapsMax: Number.MAX_SAFE_INTEGER, durationMsMax: WARM_UP_MS },
  };
  const swaps = await inWorker<LoadPlan, LoadResult>('./swap-load.ts', swapPlan);
  const withdrawPlan: WithdrawPlan = {
    baseUrl,
    users: users.map((user) => ({ cookie: user.cookie, address: user.depositAddress })),
    securityCode: SOAK_SECURITY_CODE,
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    warmUpMs: WARM_UP_MS,
  };
  const withdrawals = await inWorker<WithdrawPlan, WithdrawResult>('./cluster-load.ts', withdrawPlan);
  const errors = (record: Record<string, number>) => Object.values(record).reduce((sum, n) => sum + n, 0);
  return {
    swaps: {
      perSecond: swaps.swaps / (swaps.elapsedMs / 1000),
      p50Ms: percentile(swaps.swapLatenciesMs, 0.5),
      p99Ms: percentile(swaps.swapLatenciesMs, 0.99),
      errors: errors(swaps.errors),
      errorKinds: swaps.errors,
    },
    withdrawals: {
      perSecond: withdrawals.withdrawals / (withdrawals.elapsedMs / 1000),
      p50Ms: percentile(withdrawals.latenciesMs, 0.5),
      p99Ms: percentile(withdrawals.latenciesMs, 0.99),
      errors: errors(withdrawals.errors),
      errorKinds: withdrawals.errors,
    },
  };
}

const FUNDING_USDT = '100000';

async function singleProcess(target: ServerTarget): Promise<{ swaps: Figures; withdrawals: Figures }> {
  const users = await setUpSoakUsers(target, USERS, FUNDING_USDT);
  const server = await startBuiltServer(target);
  try {
    return await measure(server.baseUrl, users);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

function print(name: SetUpName, figures: { swaps: Figures; withdrawals: Figures }): void {
  for (const kind of ['swaps', 'withdrawals'] as const) {
    const f = figures[kind];
    console.log(
      `${name.padEnd(8)} ${kind.padEnd(11)} ${f.perSecond.toFixed(1).padStart(7)}/s  p50 ${f.p50Ms.toFixed(1).padStart(7)} ms  p99 ${f.p99Ms.toFixed(1).padStart(7)} ms  errors ${f.errors}${f.errors > 0 ? ` ${JSON.stringify(f.errorKinds)}` : ''}`,
    );
  }
}

async function main(): Promise<void> {
  if (!existsSync(DIST_MAIN)) throw new Error('apps/server/dist/main.js is missing: npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'meridian-bench-cluster-'));
  chmodSync(dir, 0o755);
  const cluster = clusterHandle(join(dir, 'cluster'), await freeClusterPortBase(SERVERS), SERVERS, false);
  const results: Partial<Record<SetUpName, { swaps: Figures; withdrawals: Figures }>> = {};
  console.log(
    `bench:cluster · concurrency ${CONCURRENCY} · ${USERS} users per set-up · ${DURATION_MS / 1000} s per load after ${WARM_UP_MS / 1000} s warm-up`,
  );
  try {
    await clusterCommand(cluster, 'up');
    results.pglite = await singleProcess({ dataDir: join(dir, 'pglite'), databaseUrl: undefined });
    print('pglite', results.pglite);
    const admin = new pg.Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE meridian_bench_single');
    await admin.end();
    results.postgres = await singleProcess({
      dataDir: join(dir, 'single'),
      databaseUrl: cluster.primaryUrl.replace(/\/meridian$/, '/meridian_bench_single'),
    });
    print('postgres', results.postgres);
    const clusterUsers = await setUpSoakUsers(
      { dataDir: join(cluster.dir, 'data'), databaseUrl: cluster.primaryUrl },
      USERS,
      FUNDING_USDT,
    );
    results.cluster = await measure(cluster.baseUrl, clusterUsers);
    print('cluster', results.cluster);
  } finally {
    await clusterCommand(cluster, 'down').catch((error: unknown) => console.error(String(error)));
    rmSync(dir, { recursive: true, force: true });
  }
  const ratios: Record<string, number> = {};
  for (const base of ['postgres', 'pglite'] as const) {
    for (const kind of ['swaps', 'withdrawals'] as const) {
      const over = results.cluster![kind];
      const under = results[base]![kind];
      ratios[`${kind} throughput cluster/${base}`] = over.perSecond / under.perSecond;
      ratios[`${kind} p99 cluster/${base}`] = over.p99Ms / under.p99Ms;
    }
  }
  for (const [name, value] of Object.entries(ratios)) console.log(`  ${name.padEnd(34)} ${value.toFixed(2)}`);
  console.log(
    JSON.stringify({ concurrency: CONCURRENCY, users: USERS, seconds: DURATION_MS / 1000, ...results, ratios }),
  );
}

await main();
