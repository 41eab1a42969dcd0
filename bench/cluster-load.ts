/**
 * The withdrawal load of `npm run bench:cluster`, run in a worker thread like `swap-load.ts`:
 * `concurrency` loops post INTERNAL withdrawals (10 USDT to another user's deposit address, the
 * security code as the trade factor, an Idempotency-Key each) for `durationMs` after a warm-up of
 * `warmUpMs` on the same connections; posts a `WithdrawResult` to the parent.
 */
import { randomUUID } from 'node:crypto';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

export interface WithdrawPlan {
  baseUrl: string;
  /** Per user: session cookie and deposit address. */
  users: { cookie: string; address: string }[];
  securityCode: string;
  concurrency: number;
  durationMs: number;
  warmUpMs: number;
}

export interface WithdrawResult {
  withdrawals: number;
  elapsedMs: number;
  latenciesMs: number[];
  errors: Record<string, number>;
}

export async function runWithdrawals(plan: WithdrawPlan): Promise<WithdrawResult> {
  const pool = new Pool(plan.baseUrl, { connections: plan.concurrency, pipelining: 1 });
  const result: WithdrawResult = { withdrawals: 0, elapsedMs: 0, latenciesMs: [], errors: {} };
  const fail = (what: string) => (result.errors[what] = (result.errors[what] ?? 0) + 1);
  const startedMs = performance.now();
  const measuredFromMs = startedMs + plan.warmUpMs;
  const endMs = measuredFromMs + plan.durationMs;
  await Promise.all(
    Array.from({ length: plan.concurrency }, async (_unused, worker) => {
      for (let round = 0; performance.now() < endMs; round += 1) {
        // Worker k uses users k, k + concurrency, …: no two requests of one user at once.
        const from = (worker + round * plan.concurrency) % plan.users.length;
        const to = (from + 1) % plan.users.length;
        const t0 = performance.now();
        try {
          const response = await pool.request({
            path: '/api/wallet/withdraw',
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-meridian-client': 'web',
              'idempotency-key': randomUUID(),
              cookie: plan.users[from]!.cookie,
            },
            body: JSON.stringify({
              coin: 'USDT',
              network: 'TRC20',
              address: plan.users[to]!.address,
              amount: '10',
              securityPassword: plan.securityCode,
            }),
          });
          const envelope = (await response.body.json()) as { statusCode: number };
          if (envelope.statusCode !== 200) {
            fail(`withdraw ${envelope.statusCode}`);
            continue;
          }
          if (t0 >= measuredFromMs) {
            result.withdrawals += 1;
            result.latenciesMs.push(performance.now() - t0);
          }
        } catch (error) {
          fail(`network ${(error as Error).message}`);
        }
      }
    }),
  );
  result.elapsedMs = performance.now() - measuredFromMs;
  await pool.close();
  return result;
}

if (!isMainThread) parentPort!.postMessage(await runWithdrawals(workerData as WithdrawPlan));
