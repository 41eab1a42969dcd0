import { randomInt, randomUUID } from 'node:crypto';
import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { CSRF_HEADER_VALUE, HEADER_CSRF, HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { EXTERNAL_TRON_ADDRESS } from './load.ts';
import { SOAK_COIN, SOAK_NETWORK, SOAK_SECURITY_CODE, type SoakUser } from './setup.ts';

/**
 * The cluster soak's client: `concurrency` workers send money-moving requests through HAProxy —
 * OUTER withdrawals (`withdraw`), INTERNAL withdrawals to another soak user (`transfer`), quoted
 * swaps USDT→USDE (`swap`), current-fund subscriptions from USDT (`subscribe`) and partial loan
 * repayments (`repay`) — each POST with an `Idempotency-Key`. A request without an answer (the
 * connection dropped, a 5xx, or 409 "in progress") is sent again, same key and body, until it is
 * answered or `RESOLVE_TIMEOUT_MS` passes; every final outcome is recorded for the database checks.
 */
export type OpKind = 'withdraw' | 'transfer' | 'swap' | 'subscribe' | 'repay';
export const OP_KINDS: readonly OpKind[] = ['withdraw', 'transfer', 'swap', 'subscribe', 'repay'];
/** Of 100 operations, how many of each kind (the rest after the last bound is `repay`). */
const MIX_PERCENT: Record<Exclude<OpKind, 'repay'>, number> = { withdraw: 20, transfer: 25, swap: 25, subscribe: 15 };
/** A single attempt longer than this counts as unanswered. */
const ATTEMPT_TIMEOUT_MS = 20_000;
/** How long one request is retried before it is given up (counted as unresolved). */
const RESOLVE_TIMEOUT_MS = 180_000;
const RETRY_PAUSE_MS = 250;
/** The answer "the same key is still being worked on" (409 + business code 290). */
const IN_PROGRESS_CODE = 290;

/** The final outcome of one request: `resourceId` null when it was refused. */
export interface Outcome {
  kind: OpKind;
  key: string;
  userId: string;
  resourceId: string | null;
}

type Answer =
  { isAnswered: true; statusCode: number; content: Record<string, unknown> } | { isAnswered: false; reason: string };

/** A soak user with its loan (the order id repayments go to). */
export interface ClusterSoakUser extends SoakUser {
  loanOrderId: string | null;
}

export class ClusterSoakClient {
  readonly outcomes: Outcome[] = [];
  readonly figures = {
    requests: 0,
    attempts: 0,
    /** Attempts after the first of a request (same key and body). */
    retries: 0,
    /** Requests answered 200, by kind. */
    applied: Object.fromEntries(OP_KINDS.map((kind) => [kind, 0])) as Record<OpKind, number>,
    /** Business refusals by code name (insufficient balance, an expired quote …). */
    refusals: {} as Record<string, number>,
    /** What the clients saw instead of an answer: HTTP 5xx codes, 409 in progress, connection errors. */
    clientErrors: {} as Record<string, number>,
    /** Requests given up after RESOLVE_TIMEOUT_MS without an answer. */
    unresolved: 0,
  };

  constructor(
    private readonly baseUrl: string,
    readonly users: ClusterSoakUser[],
    private readonly concurrency: number,
  ) {}

  /** Run the workers until `isOver()`; every request started is followed to its outcome. */
  async run(isOver: () => boolean): Promise<void> {
    await Promise.all(
      Array.from({ length: this.concurrency }, async (_unused, worker) => {
        for (let round = 0; !isOver(); round += 1) {
          // Worker k uses users k, k + concurrency, …: no two requests of one user at once.
          const user = this.users[(worker + round * this.concurrency) % this.users.length]!;
          await this.operate(user);
        }
      }),
    );
  }

  /** `POST loan/borrow` for every user once (1 BTC collateral, 2,000 USDT for 30 days). */
  async borrowAll(): Promise<void> {
    for (const user of this.users) {
      const borrow = { loanCoin: 'USDT', termDays: 30, collateralAmount: '1', principal: '2000' };
      // Not a `soakc-` key: the checks compare those with the load's outcomes.
      const key = `soak-borrow-${randomUUID()}`;
      const answer = await this.resolve(
        user,
        '/api/loan/borrow',
        { ...borrow, securityPassword: SOAK_SECURITY_CODE },
        key,
      );
      if (!answer.isAnswered || answer.statusCode !== BUSINESS_CODES.OK.code)
        throw new Error(`set-up: loan/borrow answered ${JSON.stringify(answer)}`);
      user.loanOrderId = String(answer.content.orderId);
    }
  }

  private pickKind(): OpKind {
    let roll = randomInt(100);
    for (const kind of ['withdraw', 'transfer', 'swap', 'subscribe'] as const) {
      if (roll < MIX_PERCENT[kind]) return kind;
      roll -= MIX_PERCENT[kind];
    }
    return 'repay';
  }

  private async operate(user: ClusterSoakUser): Promise<void> {
    const kind = this.pickKind();
    const amount = (whole: number, spread: number) =>
      `${whole + randomInt(spread)}.${String(randomInt(100)).padStart(2, '0')}`;
    const withdrawBody = (address: string) => ({
      coin: SOAK_COIN,
      network: SOAK_NETWORK,
      address,
      amount: amount(10, 20),
      securityPassword: SOAK_SECURITY_CODE,
    });
    let path: string;
    let body: Record<string, unknown>;
    if (kind === 'withdraw') [path, body] = ['/api/wallet/withdraw', withdrawBody(EXTERNAL_TRON_ADDRESS)];
    else if (kind === 'transfer') {
      const recipient = this.users[(user.index + 1 + randomInt(this.users.length - 1)) % this.users.length]!;
      [path, body] = ['/api/wallet/withdraw', withdrawBody(recipient.depositAddress)];
    } else if (kind === 'swap') {
      const quoteId = await this.quote(user);
      if (quoteId === null) return;
      [path, body] = ['/api/exchange/swap', { quoteId }];
    } else if (kind === 'subscribe') {
      const subscribe = {
        productId: CURRENT_PRODUCT_ID,
        actionType: 'WALLET',
        coin: SOAK_COIN,
        amount: amount(100, 50),
      };
      [path, body] = ['/api/fund/v2/subscribe', { ...subscribe, securityPassword: SOAK_SECURITY_CODE }];
    } else {
      if (user.loanOrderId === null) return;
      const repay = { orderId: user.loanOrderId, repayType: 'WALLET', amount: amount(1, 5) };
      [path, body] = ['/api/loan/repay', { ...repay, securityPassword: SOAK_SECURITY_CODE }];
    }
    const key = `soakc-${randomUUID()}`;
    this.figures.requests += 1;
    const answer = await this.resolve(user, path, body, key);
    if (!answer.isAnswered) {
      this.figures.unresolved += 1;
      return;
    }
    const isApplied = answer.statusCode === BUSINESS_CODES.OK.code;
    if (isApplied) this.figures.applied[kind] += 1;
    else this.refused(answer.statusCode);
    const content = answer.content;
    const resourceId = isApplied ? String(content.swapId ?? content.id ?? '') : null;
    this.outcomes.push({ kind, key, userId: user.userId, resourceId });
  }

  /** A firm quote for 10 USDT → USDE; null when none came (counted as a client error or refusal). */
  private async quote(user: ClusterSoakUser): Promise<string | null> {
    try {
      const response = await fetch(`${this.baseUrl}/api/exchange/rate?from=USDT&to=USDE&amount=10&side=from`, {
        headers: { cookie: user.cookie },
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      if (response.status >= 500) {
        this.clientError(`quote HTTP ${response.status}`);
        return null;
      }
      const envelope = (await response.json()) as { statusCode: number; content: { quoteId?: string } };
      if (envelope.statusCode !== BUSINESS_CODES.OK.code || !envelope.content.quoteId) {
        this.refused(envelope.statusCode);
        return null;
      }
      return envelope.content.quoteId;
    } catch (error) {
      this.clientError(`quote ${errorName(error)}`);
      return null;
    }
  }

  /** Send until answered (not a 5xx, not "in progress", not a dropped connection) or the timeout. */
  private async resolve(
    user: ClusterSoakUser,
    path: string,
    body: Record<string, unknown>,
    key: string,
  ): Promise<Answer> {
    const startedMs = performance.now();
    let answer: Answer = { isAnswered: false, reason: 'not sent' };
    for (let attempt = 0; performance.now() - startedMs < RESOLVE_TIMEOUT_MS; attempt += 1) {
      if (attempt > 0) {
        this.figures.retries += 1;
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
      answer = await this.send(user, path, body, key);
      if (answer.isAnswered) return answer;
      this.clientError(answer.reason);
    }
    return answer;
  }

  private async send(user: ClusterSoakUser, path: string, body: Record<string, unknown>, key: string): Promise<Answer> {
    this.figures.attempts += 1;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [HEADER_CSRF]: CSRF_HEADER_VALUE,
          [HEADER_IDEMPOTENCY_KEY]: key,
          cookie: user.cookie,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status >= 500) return { isAnswered: false, reason: `HTTP ${response.status}` };
      const envelope = JSON.parse(text) as { statusCode: number; content: Record<string, unknown> };
      if (envelope.statusCode === IN_PROGRESS_CODE) return { isAnswered: false, reason: 'in progress (409/290)' };
      return { isAnswered: true, statusCode: envelope.statusCode, content: envelope.content ?? {} };
    } catch (error) {
      return { isAnswered: false, reason: errorName(error) };
    }
  }

  private refused(statusCode: number): void {
    const name =
      Object.entries(BUSINESS_CODES).find(([, entry]) => entry.code === statusCode)?.[0] ?? String(statusCode);
    this.figures.refusals[name] = (this.figures.refusals[name] ?? 0) + 1;
  }

  private clientError(reason: string): void {
    this.figures.clientErrors[reason] = (this.figures.clientErrors[reason] ?? 0) + 1;
  }
}

/** A short name for a fetch failure: the cause's code (ECONNRESET, ECONNREFUSED …) or the error's name. */
function errorName(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? error.name;
}
