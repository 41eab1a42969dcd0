import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { and, eq, lt } from 'drizzle-orm';
import stringify from 'safe-stable-stringify';
import type { Clock } from '../clock/clock.ts';
import { DomainError } from '../http/errors.ts';
import type { Db, DbOrTx } from './client.ts';
import { idempotencyKeys } from './idempotency.tables.ts';
import type { ServerInstance } from './instance.ts';

/**
 * How long a racing twin waits for the first request's answer before it is told the request is
 * still in progress (409 IDEMPOTENCY_IN_PROGRESS). Below the web client's 6 s timeout
 * (`HTTP_TIMEOUT_MS`), so the twin still gets an answer it can read.
 */
export const IDEMPOTENCY_WAIT_MS = 3000;
/** How often a waiting twin looks for the answer. */
export const IDEMPOTENCY_POLL_MS = 25;
/**
 * A claim older than this (by the app's clock) belongs to an attempt that died (its process
 * stopped): the next request with the key takes it over and runs the call again. The modules'
 * own unique keys on their rows stop a second movement of money if the dead attempt had committed.
 * A claim that names its server instance is taken over at once when that instance is gone
 * (docs/decisions/0017-instance-owned-claims.md); the lease is for claims that name none.
 */
export const IDEMPOTENCY_LEASE_MS = 120_000;
/**
 * How long a completed answer is kept for replay before the purge job deletes it (24 h, as
 * Stripe keeps keys); `IDEMPOTENCY_RETENTION_HOURS` sets it.
 */
export const IDEMPOTENCY_RETENTION_MS_DEFAULT = 24 * 3_600_000;
/** `Retry-After` of the 409 in progress, in seconds. */
export const IDEMPOTENCY_RETRY_AFTER_SEC = 1;

/**
 * What a module writes in the `request_hash` column its rows kept from before the one store: the
 * request's hash now lives in `idempotency_keys` (docs/decisions/0009-idempotency.md).
 */
export const REQUEST_HASH_IN_STORE = 'idempotency_keys';

/** One idempotent call: whose key, the key, and the hash of the request it was first used with. */
export interface IdempotentCall {
  ownerId: string;
  idempotencyKey: string;
  requestHash: string;
}

/** What `runOnce` answers: the work's result, or the stored answer of the first request. */
export interface RunOnceResult<T> {
  answer: T;
  /** True when `answer` is the stored answer of an earlier request (nothing was done now). */
  isReplay: boolean;
}

/**
 * Store the call's answer in the work's own transaction `tx`, so that the answer commits with the
 * money it describes: a process that dies after that commit leaves a replayable answer, not a claim
 * in progress. Optional: an answer not settled this way is stored when `work` returns.
 */
export type SettleAnswer = (tx: DbOrTx, answer: unknown) => Promise<void>;

/** Runs a call once per idempotency key; see `createIdempotencyStore`. */
export interface IdempotencyStore {
  runOnce<T>(call: IdempotentCall, work: (settle: SettleAnswer) => Promise<T>): Promise<RunOnceResult<T>>;
  /**
   * Delete the answers completed before `before` (claims still running are kept): a key used
   * again after that runs as a new request. Answers how many were deleted.
   */
  purgeAnswers(db: DbOrTx, before: Date): Promise<number>;
}

/**
 * SHA-256 (hex) of a request's parts in a canonical JSON form: object keys sorted, bigints written
 * as their digits, so equal requests hash equally whatever the order of their fields.
 */
export function requestHashOf(parts: unknown): string {
  return createHash('sha256')
    .update(stringify(parts) ?? '')
    .digest('hex');
}

/**
 * The one store of idempotent answers (docs/decisions/0009-idempotency.md). `runOnce(call, work)`:
 *
 * 1. claims the key (a `RUNNING` row, committed at once) and runs `work`; its answer is stored as
 *    JSON text (`DONE`) — in the work's own transaction when the work calls `settle` there, else
 *    when it returns — and returned. When `work` throws, the claim is released (deleted) and the
 *    error rethrown: a refusal moves nothing and is not replayed, so a retry runs again.
 * 2. finds the key claimed: another request hash → DomainError CONFLICT (121); `DONE` → the stored
 *    answer (`isReplay`); `RUNNING` by a server instance that is gone (`instance.isGone`: killed
 *    mid-request) or older than the lease → the claim is taken over and the work runs now;
 *    `RUNNING` otherwise → the racing twin waits up to `IDEMPOTENCY_WAIT_MS` for the
 *    answer (or for a released claim, which it then claims itself), then
 *    DomainError IDEMPOTENCY_IN_PROGRESS (409) with `{ retryAfterSeconds }` as content.
 *
 * The claim's time is the app's clock; the waiting is measured with the monotonic clock
 * (docs/clock.md: durations are not calendar time).
 * @throws DomainError CONFLICT, IDEMPOTENCY_IN_PROGRESS; whatever `work` throws.
 */
export function createIdempotencyStore(deps: { db: Db; clock: Clock; instance: ServerInstance }): IdempotencyStore {
  const { db, clock, instance } = deps;
  const where = (call: IdempotentCall) =>
    and(eq(idempotencyKeys.ownerId, call.ownerId), eq(idempotencyKeys.idempotencyKey, call.idempotencyKey));

  async function runClaimed<T>(
    call: IdempotentCall,
    claimToken: string,
    work: (settle: SettleAnswer) => Promise<T>,
  ): Promise<T> {
    const mine = and(where(call), eq(idempotencyKeys.claimToken, claimToken));
    const store = (tx: DbOrTx, answer: unknown) =>
      tx
        .update(idempotencyKeys)
        .set({ state: 'DONE', answer: JSON.stringify(answer ?? null), completedAt: clock.now() })
        .where(mine);
    let isSettled = false;
    let answer: T;
    try {
      answer = await work(async (tx, settled) => {
        await store(tx, settled);
        isSettled = true;
      });
    } catch (error) {
      await db.delete(idempotencyKeys).where(mine);
      throw error;
    }
    if (!isSettled) await store(db, answer);
    return answer;
  }

  async function claim(call: IdempotentCall, claimToken: string): Promise<boolean> {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...call, state: 'RUNNING', claimToken, instanceId: instance.id, claimedAt: clock.now() })
      .onConflictDoNothing()
      .returning({ claimToken: idempotencyKeys.claimToken });
    return inserted.length > 0;
  }

  /** Take over a claim whose attempt died (its instance gone, or older than the lease); true when this request now holds it. */
  async function takeOver(call: IdempotentCall, staleToken: string, claimToken: string): Promise<boolean> {
    const taken = await db
      .update(idempotencyKeys)
      .set({ claimToken, instanceId: instance.id, claimedAt: clock.now() })
      .where(and(where(call), eq(idempotencyKeys.claimToken, staleToken), eq(idempotencyKeys.state, 'RUNNING')))
      .returning({ claimToken: idempotencyKeys.claimToken });
    return taken.length > 0;
  }

  return {
    async runOnce<T>(call: IdempotentCall, work: (settle: SettleAnswer) => Promise<T>): Promise<RunOnceResult<T>> {
      const startedMs = performance.now();
      for (;;) {
        const claimToken = randomUUID();
        if (await claim(call, claimToken)) return { answer: await runClaimed(call, claimToken, work), isReplay: false };
        const [row] = await db.select().from(idempotencyKeys).where(where(call));
        if (!row) continue; // released by a refused first attempt: claim it now
        if (row.requestHash !== call.requestHash)
          throw new DomainError('CONFLICT', {}, { idempotencyKey: call.idempotencyKey });
        if (row.state === 'DONE') return { answer: JSON.parse(row.answer ?? 'null') as T, isReplay: true };
        const isStale =
          clock.now().getTime() - row.claimedAt.getTime() > IDEMPOTENCY_LEASE_MS ||
          (row.instanceId !== null && (await instance.isGone(row.instanceId)));
        if (isStale && (await takeOver(call, row.claimToken, claimToken)))
          return { answer: await runClaimed(call, claimToken, work), isReplay: false };
        if (performance.now() - startedMs >= IDEMPOTENCY_WAIT_MS)
          throw new DomainError(
            'IDEMPOTENCY_IN_PROGRESS',
            { seconds: IDEMPOTENCY_RETRY_AFTER_SEC },
            { retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SEC },
          );
        await delay(IDEMPOTENCY_POLL_MS);
      }
    },
    async purgeAnswers(tx: DbOrTx, before: Date): Promise<number> {
      const deleted = await tx
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.state, 'DONE'), lt(idempotencyKeys.completedAt, before)))
        .returning({ ownerId: idempotencyKeys.ownerId });
      return deleted.length;
    },
  };
}
