/**
 * The HTTP load of `npm run bench:card-auth`, in a worker thread so the client's work does not
 * share the server's event loop: signed authorisation webhooks sent open-loop at a fixed rate
 * (request i leaves at start + i / rate, whatever the answers before it), each timed from its
 * scheduled departure to its answer (so queueing in the client counts). Posts its `AuthLoadResult`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

export interface AuthLoadPlan {
  baseUrl: string;
  secret: string;
  tokens: string[];
  ratePerSecond: number;
  count: number;
  /** Amount of each authorisation (EUR). */
  amount: string;
  connections: number;
}

export interface AuthLoadResult {
  sent: number;
  elapsedMs: number;
  latenciesMs: number[];
  /** Each answered decision's scheduled departure, epoch ms (`performance.timeOrigin` based), in the order of `latenciesMs`. */
  departuresEpochMs: number[];
  decisions: Record<string, number>;
  errors: Record<string, number>;
}

export async function runAuthLoad(plan: AuthLoadPlan): Promise<AuthLoadResult> {
  const pool = new Pool(plan.baseUrl, { connections: plan.connections, pipelining: 1 });
  const result: AuthLoadResult = {
    sent: 0,
    elapsedMs: 0,
    latenciesMs: [],
    departuresEpochMs: [],
    decisions: {},
    errors: {},
  };
  const count = (table: Record<string, number>, key: string) => (table[key] = (table[key] ?? 0) + 1);
  const prefix = randomBytes(6).toString('hex');
  const startedMs = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < plan.count; index += 1) {
    const dueMs = startedMs + (index * 1000) / plan.ratePerSecond;
    const waitMs = dueMs - performance.now();
    if (waitMs > 1) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const body = JSON.stringify({
      deliveryId: `${prefix}-${index}`,
      sentAt: new Date().toISOString(),
      event: {
        type: 'authorization',
        authorizationId: `bench_${prefix}_${index}`,
        cardToken: plan.tokens[index % plan.tokens.length],
        amount: plan.amount,
        currency: 'EUR',
        merchantName: 'Bench Merchant',
        mcc: '5734',
        isOnline: true,
        isThreeDs: false,
        pinResult: 'NOT_PRESENT',
        isExpiryCorrect: true,
      },
    });
    const signature = `sha256=${createHmac('sha256', plan.secret).update(body).digest('hex')}`;
    result.sent += 1;
    inFlight.push(
      (async () => {
        try {
          const response = await pool.request({
            path: '/api/card/processor/webhook',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-card-signature': signature },
            body,
          });
          const answer = (await response.body.json()) as { statusCode: number; content: { decision: string } };
          result.latenciesMs.push(performance.now() - dueMs);
          result.departuresEpochMs.push(performance.timeOrigin + dueMs);
          if (answer.statusCode !== 200) count(result.errors, `status ${answer.statusCode}`);
          else count(result.decisions, answer.content.decision);
        } catch (error) {
          count(result.errors, `network ${(error as Error).message}`);
        }
      })(),
    );
  }
  await Promise.all(inFlight);
  result.elapsedMs = performance.now() - startedMs;
  await pool.close();
  return result;
}

if (!isMainThread) parentPort!.postMessage(await runAuthLoad(workerData as AuthLoadPlan));
