import { randomInt, randomUUID } from 'node:crypto';
import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { CSRF_HEADER_VALUE, HEADER_CSRF, HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { parseAmountMinor } from '@meridian/contracts/money';
import { WITHDRAW_STATUS, type WalletRecord, type WithdrawStatus } from '@meridian/contracts/wallet';
import type { ServerProcess } from './server-process.ts';
import { SOAK_COIN, SOAK_NETWORK, SOAK_SECURITY_CODE, type SoakUser } from './setup.ts';

/**
 * The soak's client: concurrent HTTP requests that move money between the soak users — INTERNAL
 * withdrawals to another user's deposit address (settled at once), OUTER withdrawals to an outside
 * address (frozen, status 0) and cancels of the client's own waiting withdrawals — each POST with
 * an `Idempotency-Key`. A request whose answer never came (the server was killed, or answered 5xx)
 * is kept and sent again, same key and same body, once a server answers again, until its outcome
 * is known. With every outcome known, the client knows each user's exact balances and each
 * withdrawal's status; the final check compares them with the database.
 */
export const EXTERNAL_TRON_ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
/** A request that takes longer than this counts as unanswered (and is sent again later). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Passes over the unanswered requests within one server's life before giving up on it. */
const RETRY_PASSES_MAX = 5;
/** Of 100 operations: cancels (when the user has a waiting withdrawal), INTERNAL, the rest OUTER. */
const CANCEL_PERCENT = 15;
const INTERNAL_PERCENT = 45;

interface WithdrawBody {
  coin: typeof SOAK_COIN;
  network: typeof SOAK_NETWORK;
  address: string;
  amount: string;
  securityPassword: string;
}

/** An OUTER withdrawal the client made and has not cancelled: what it holds frozen. */
interface Waiting {
  id: string;
  heldMinor: bigint;
}

interface RequestBase {
  key: string;
  from: number;
  /** When the first server that may have received it was killed (ms since epoch); null while never lost. */
  lostAtMs: number | null;
}
type SoakRequest =
  | (RequestBase & { kind: 'withdraw'; body: WithdrawBody; amountMinor: bigint; recipient: number | null })
  | (RequestBase & { kind: 'cancel'; withdrawal: Waiting });

type Answer = { isAnswered: true; statusCode: number; content: unknown } | { isAnswered: false; reason: string };

/** One server process's life as the client sees it. */
export interface Generation {
  server: ServerProcess;
  isDown: boolean;
  killedAtMs: number | null;
}

/** How the requests whose answer was lost turned out once sent again. */
export interface RetryFigures {
  /** The server had applied it before it died (a withdrawal replayed by its key; a cancel already done). */
  appliedBeforeKill: number;
  /** It had not been applied; the retry applied it. */
  appliedOnRetry: number;
  /** It had not been applied; the retry was refused (e.g. the balance changed meanwhile). */
  refusedOnRetry: number;
}

export class SoakClient {
  private readonly availableMinor: bigint[];
  private readonly frozenMinor: bigint[];
  private readonly waiting: Waiting[][];
  private readonly userByAddress = new Map<string, number>();
  private pending: SoakRequest[] = [];
  /** Final outcome of every withdrawal key: the withdrawal id, or null when it was refused. */
  readonly withdrawalByKey = new Map<string, { userId: string; withdrawalId: string | null }>();
  /** The status each withdrawal the client made must have now. */
  readonly expectedStatus = new Map<string, WithdrawStatus>();
  readonly figures = {
    requests: 0,
    attempts: 0,
    /** Operations the server applied (withdrawals and cancels answered 200, or found applied). */
    ops: 0,
    refusals: {} as Record<string, number>,
    /** Requests in flight when a server was killed (each counted once). */
    lostInFlight: 0,
    withdraw: { appliedBeforeKill: 0, appliedOnRetry: 0, refusedOnRetry: 0 } satisfies RetryFigures,
    cancel: { appliedBeforeKill: 0, appliedOnRetry: 0, refusedOnRetry: 0 } satisfies RetryFigures,
    /** Answers that contradict what the client asked for (an OUTER answer to an INTERNAL request …). */
    unexpectedAnswers: 0,
  };

  constructor(
    readonly users: SoakUser[],
    fundingMinor: bigint,
    private readonly concurrency: number,
  ) {
    this.availableMinor = users.map(() => fundingMinor);
    this.frozenMinor = users.map(() => 0n);
    this.waiting = users.map(() => []);
    for (const user of users) this.userByAddress.set(user.depositAddress, user.index);
  }

  /** Requests whose outcome is still unknown. */
  get unresolvedCount(): number {
    return this.pending.length;
  }

  /** What each soak user must hold now, from every known outcome. */
  expectedBalances(): { userId: string; availableMinor: bigint; frozenMinor: bigint }[] {
    return this.users.map((user) => ({
      userId: user.userId,
      availableMinor: this.availableMinor[user.index]!,
      frozenMinor: this.frozenMinor[user.index]!,
    }));
  }

  /**
   * Serve one generation: first send again everything unanswered, then load it with `concurrency`
   * workers until it is killed (`isDown`); with `isLoaded` false only the retries run.
   */
  async run(generation: Generation, isLoaded: boolean): Promise<void> {
    await this.retryPending(generation);
    if (!isLoaded) return;
    await Promise.all(Array.from({ length: this.concurrency }, () => this.worker(generation)));
  }

  private async worker(generation: Generation): Promise<void> {
    while (!generation.isDown) await this.perform(generation, this.nextRequest());
  }

  private async retryPending(generation: Generation): Promise<void> {
    for (let pass = 0; pass < RETRY_PASSES_MAX && this.pending.length > 0 && !generation.isDown; pass += 1) {
      const queue = this.pending;
      this.pending = [];
      const next = async () => {
        for (let request = queue.shift(); request; request = queue.shift()) {
          if (generation.isDown) this.pending.push(request);
          else await this.perform(generation, request);
        }
      };
      await Promise.all(Array.from({ length: this.concurrency }, next));
    }
  }

  private nextRequest(): SoakRequest {
    const from = randomInt(this.users.length);
    const roll = randomInt(100);
    const pool = this.waiting[from]!;
    const base = { key: `soak-${randomUUID()}`, from, lostAtMs: null };
    if (roll < CANCEL_PERCENT && pool.length > 0) {
      // Taken out of the pool: no other request cancels it, so a "state changed" answer to a retry
      // can only mean that this cancel was applied before the kill.
      const [withdrawal] = pool.splice(randomInt(pool.length), 1);
      return { ...base, kind: 'cancel', withdrawal: withdrawal! };
    }
    const recipient =
      roll < CANCEL_PERCENT + INTERNAL_PERCENT
        ? (from + 1 + randomInt(this.users.length - 1)) % this.users.length
        : null;
    const amount = `${10 + randomInt(40)}.${String(randomInt(1_000_000)).padStart(6, '0')}`;
    const address = recipient === null ? EXTERNAL_TRON_ADDRESS : this.users[recipient]!.depositAddress;
    const body: WithdrawBody = {
      coin: SOAK_COIN,
      network: SOAK_NETWORK,
      address,
      amount,
      securityPassword: SOAK_SECURITY_CODE,
    };
    return { ...base, kind: 'withdraw', body, amountMinor: parseAmountMinor(amount, SOAK_COIN), recipient };
  }

  private async perform(generation: Generation, request: SoakRequest): Promise<void> {
    if (request.lostAtMs === null) this.figures.requests += 1;
    const answer = await this.send(generation, request);
    if (!answer.isAnswered) {
      if (request.lostAtMs === null) {
        request.lostAtMs = generation.killedAtMs ?? Date.now();
        this.figures.lostInFlight += 1;
      }
      this.pending.push(request);
      return;
    }
    if (request.kind === 'withdraw') this.settleWithdraw(request, answer);
    else this.settleCancel(request, answer);
  }

  private async send(generation: Generation, request: SoakRequest): Promise<Answer> {
    const user = this.users[request.from]!;
    const path =
      request.kind === 'withdraw' ? '/api/wallet/withdraw' : `/api/wallet/withdraw/${request.withdrawal.id}/cancel`;
    this.figures.attempts += 1;
    try {
      const response = await fetch(`${generation.server.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [HEADER_CSRF]: CSRF_HEADER_VALUE,
          // The cancel is idempotent by its state transition (a repeat answers 138 and moves
          // nothing); it carries a key all the same, as every money-moving POST of the client does.
          [HEADER_IDEMPOTENCY_KEY]: request.key,
          cookie: user.cookie,
        },
        body: request.kind === 'withdraw' ? JSON.stringify(request.body) : '{}',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status >= 500) return { isAnswered: false, reason: `HTTP ${response.status}` };
      const envelope = JSON.parse(text) as { statusCode: number; content: unknown };
      return { isAnswered: true, statusCode: envelope.statusCode, content: envelope.content };
    } catch (error) {
      return { isAnswered: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private refused(statusCode: number): void {
    const name =
      Object.entries(BUSINESS_CODES).find(([, entry]) => entry.code === statusCode)?.[0] ?? String(statusCode);
    this.figures.refusals[name] = (this.figures.refusals[name] ?? 0) + 1;
  }

  private settleWithdraw(
    request: Extract<SoakRequest, { kind: 'withdraw' }>,
    answer: Extract<Answer, { isAnswered: true }>,
  ): void {
    const user = this.users[request.from]!;
    const isRetry = request.lostAtMs !== null;
    if (answer.statusCode !== BUSINESS_CODES.OK.code) {
      this.withdrawalByKey.set(request.key, { userId: user.userId, withdrawalId: null });
      this.refused(answer.statusCode);
      if (isRetry) this.figures.withdraw.refusedOnRetry += 1;
      return;
    }
    const record = answer.content as WalletRecord;
    this.withdrawalByKey.set(request.key, { userId: user.userId, withdrawalId: record.id });
    this.figures.ops += 1;
    if (isRetry) {
      // A replay answers the first withdrawal, created by the server that was killed; a retry that
      // was not a replay creates it now, in a server started after that kill.
      if (Date.parse(record.createTime) < request.lostAtMs!) this.figures.withdraw.appliedBeforeKill += 1;
      else this.figures.withdraw.appliedOnRetry += 1;
    }
    const isInternal = record.type === 'INTERNAL';
    if (
      isInternal !== (request.recipient !== null) ||
      parseAmountMinor(record.amount, SOAK_COIN) !== request.amountMinor
    )
      this.figures.unexpectedAnswers += 1;
    if (request.recipient !== null) {
      this.availableMinor[request.from]! -= request.amountMinor;
      this.availableMinor[request.recipient]! += request.amountMinor;
      this.expectedStatus.set(record.id, WITHDRAW_STATUS.SUCCESS);
      return;
    }
    const heldMinor = request.amountMinor + parseAmountMinor(record.fee, SOAK_COIN);
    this.availableMinor[request.from]! -= heldMinor;
    this.frozenMinor[request.from]! += heldMinor;
    this.expectedStatus.set(record.id, WITHDRAW_STATUS.WAITING);
    this.waiting[request.from]!.push({ id: record.id, heldMinor });
  }

  private settleCancel(
    request: Extract<SoakRequest, { kind: 'cancel' }>,
    answer: Extract<Answer, { isAnswered: true }>,
  ): void {
    const isRetry = request.lostAtMs !== null;
    const isApplied = answer.statusCode === BUSINESS_CODES.OK.code;
    const wasAppliedBeforeKill = isRetry && answer.statusCode === BUSINESS_CODES.WITHDRAW_STATE_CHANGED.code;
    if (!isApplied && !wasAppliedBeforeKill) {
      this.refused(answer.statusCode);
      if (isRetry) this.figures.cancel.refusedOnRetry += 1;
      // Still waiting: it may be cancelled later.
      this.waiting[request.from]!.push(request.withdrawal);
      return;
    }
    this.figures.ops += 1;
    if (wasAppliedBeforeKill) this.figures.cancel.appliedBeforeKill += 1;
    else if (isRetry) this.figures.cancel.appliedOnRetry += 1;
    this.availableMinor[request.from]! += request.withdrawal.heldMinor;
    this.frozenMinor[request.from]! -= request.withdrawal.heldMinor;
    this.expectedStatus.set(request.withdrawal.id, WITHDRAW_STATUS.CANCEL);
  }
}
