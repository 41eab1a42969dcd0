/**
 * The HTTP load of `npm run bench:swap`, run in a worker thread so that the client's work does not
 * share the server's event loop: `concurrency` loops, each doing quote (`GET exchange/rate`) then
 * swap (`POST exchange/swap`) for its users, until `swapsMax` swaps were started or
 * `durationMsMax` passed. Posts its `LoadResult` to the parent.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

const MUTATION_HEADERS = { 'content-type': 'application/json', 'x-meridian-client': 'web' };
/** USDT per swap: the pair's minimum order amount. */
export const SWAP_USDT = '10';

export interface LoadPlan {
  baseUrl: string;
  cookies: string[];
  concurrency: number;
  swapsMax: number;
  durationMsMax: number;
}

export interface LoadResult {
  swaps: number;
  elapsedMs: number;
  swapLatenciesMs: number[];
  quoteLatenciesMs: number[];
  executeLatenciesMs: number[];
  errors: Record<string, number>;
}

export async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const result: LoadResult = { swaps: 0, elapsedMs: 0, swapLatenciesMs: [], quoteLatenciesMs: [], executeLatenciesMs: [], errors: {} };
  const fail = (what: string) => (result.errors[what] = (result.errors[what] ?? 0) + 1);
  const startedMs = performance.now();
  let started = 0;
  const isOver = () => started >= plan.swapsMax || performance.now() - startedMs >= plan.durationMsMax;
  await Promise.all(
    Array.from({ length: plan.concurrency }, async (_unused, workerIndex) => {
      // Worker k uses users k, k + concurrency, …: no two requests of one user at once.
      let round = 0;
      while (!isOver()) {
        started += 1;
        const cookie = plan.cookies[(workerIndex + round * plan.concurrency) % plan.cookies.length]!;
        round += 1;
        const t0 = performance.now();
        try {
          const quote = (await (await fetch(`${plan.baseUrl}/api/exchange/rate?from=USDT&to=USDE&amount=${SWAP_USDT}&side=from`, { headers: { cookie } })).json()) as {
            statusCode: number;
            content: { quoteId: string };
          };
          const t1 = performance.now();
          result.quoteLatenciesMs.push(t1 - t0);
          if (quote.statusCode !== 200) {
            fail(`quote ${quote.statusCode}`);
            continue;
          }
          const swap = (await (
            await fetch(`${plan.baseUrl}/api/exchange/swap`, { method: 'POST', headers: { ...MUTATION_HEADERS, cookie }, body: JSON.stringify({ quoteId: quote.content.quoteId }) })
          ).json()) as { statusCode: number };
          const t2 = performance.now();
          result.executeLatenciesMs.push(t2 - t1);
          if (swap.statusCode !== 200) {
            fail(`swap ${swap.statusCode}`);
            continue;
          }
          result.swaps += 1;
          result.swapLatenciesMs.push(t2 - t0);
        } catch (error) {
          fail(`network ${(error as Error).message}`);
        }
      }
    }),
  );
  result.elapsedMs = performance.now() - startedMs;
  return result;
}

if (!isMainThread) parentPort!.postMessage(await runLoad(workerData as LoadPlan));
