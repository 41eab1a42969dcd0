/**
 * The HTTP load of `npm run bench:swap`, run in a worker thread so that the client's work does not
 * share the server's event loop: `concurrency` loops, each doing quote (`GET exchange/rate`) then
 * swap (`POST exchange/swap`) for its users, until `swapsMax` swaps were started or
 * `durationMsMax` passed, after a warm-up (`warmUp`, not recorded) run by the same loops on the
 * same connections without a pause: a measured run started afresh in a new worker began with 32
 * new connections and a cold client, and its first 100 ms held a third to a half of the slowest
 * 1 % of swaps. Errors are counted in both. Posts its `LoadResult` (the measured run) to the parent. The client is undici's connection
 * pool (one keep-alive connection per loop): on a 2-core machine the load generator shares the CPU
 * with the server, and `fetch` costs it several times more per request.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const MUTATION_HEADERS = { 'content-type': 'application/json', 'x-meridian-client': 'web' };
/** USDT per swap: the pair's minimum order amount. */
export const SWAP_USDT = '10';

export interface LoadPlan {
  baseUrl: string;
  cookies: string[];
  concurrency: number;
  swapsMax: number;
  durationMsMax: number;
  /** Swaps (or time) run first and not recorded: JIT, connections, prepared plans, caches. */
  warmUp: { swapsMax: number; durationMsMax: number };
}

export interface LoadResult {
  swaps: number;
  /** Swaps that succeeded, the warm-up's included (the work behind the CPU time of the whole load). */
  swapsWithWarmUp: number;
  elapsedMs: number;
  swapLatenciesMs: number[];
  /** Each recorded pair's departure (its quote's), epoch ms (`performance.timeOrigin` based), in the order of `swapLatenciesMs`. */
  swapDeparturesEpochMs: number[];
  quoteLatenciesMs: number[];
  executeLatenciesMs: number[];
  errors: Record<string, number>;
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const pool = new Pool(plan.baseUrl, { connections: plan.concurrency, pipelining: 1 });
  const call = async (
    path: string,
    init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  ) => {
    const response = await pool.request({ path, method: init.method ?? 'GET', headers: init.headers, body: init.body });
    return (await response.body.json()) as { statusCode: number; content: { quoteId: string } };
  };
  const result: LoadResult = {
    swaps: 0,
    swapsWithWarmUp: 0,
    elapsedMs: 0,
    swapLatenciesMs: [],
    swapDeparturesEpochMs: [],
    quoteLatenciesMs: [],
    executeLatenciesMs: [],
    errors: {},
  };
  const fail = (what: string) => (result.errors[what] = (result.errors[what] ?? 0) + 1);
  // The loops never pause: swaps started after the warm-up are recorded, timed from the first of them.
  const warmUpStartedMs = performance.now();
  let measuredStartedMs: number | undefined;
  let started = 0;
  const isWarmUpOver = () =>
    started >= plan.warmUp.swapsMax || performance.now() - warmUpStartedMs >= plan.warmUp.durationMsMax;
  const isOver = () =>
    measuredStartedMs !== undefined &&
    (started >= plan.swapsMax || performance.now() - measuredStartedMs >= plan.durationMsMax);
  await Promise.all(
    Array.from({ length: plan.concurrency }, async (_unused, workerIndex) => {
      // Worker k uses users k, k + concurrency, …: no two requests of one user at once.
      let round = 0;
      while (!isOver()) {
        if (measuredStartedMs === undefined && isWarmUpOver()) {
          measuredStartedMs = performance.now();
          started = 0;
        }
        const isRecorded = measuredStartedMs !== undefined;
        started += 1;
        const cookie = plan.cookies[(workerIndex + round * plan.concurrency) % plan.cookies.length]!;
        round += 1;
        const t0 = performance.now();
        try {
          const quote = await call(`/api/exchange/rate?from=USDT&to=USDE&amount=${SWAP_USDT}&side=from`, {
            headers: { cookie },
          });
          const t1 = performance.now();
          if (isRecorded) result.quoteLatenciesMs.push(t1 - t0);
          if (quote.statusCode !== 200) {
            fail(`quote ${quote.statusCode}`);
            continue;
          }
          const swap = await call('/api/exchange/swap', {
            method: 'POST',
            headers: { ...MUTATION_HEADERS, cookie },
            body: JSON.stringify({ quoteId: quote.content.quoteId }),
          });
          const t2 = performance.now();
          if (isRecorded) result.executeLatenciesMs.push(t2 - t1);
          if (swap.statusCode !== 200) {
            fail(`swap ${swap.statusCode}`);
            continue;
          }
          result.swapsWithWarmUp += 1;
          if (!isRecorded) continue;
          result.swaps += 1;
          result.swapLatenciesMs.push(t2 - t0);
          result.swapDeparturesEpochMs.push(performance.timeOrigin + t0);
        } catch (error) {
          fail(`network ${(error as Error).message}`);
        }
      }
    }),
  );
  // Recorded swaps still in flight at the end are counted when they finish: elapsed runs to the last.
  result.elapsedMs = performance.now() - (measuredStartedMs ?? warmUpStartedMs);
  await pool.close();
  return result;
}

if (!isMainThread) parentPort!.postMessage(await runLoad(workerData as LoadPlan));
