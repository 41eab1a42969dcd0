import { createHash } from 'node:crypto';
import { LOAN_COINS, type LoanCoin } from '@meridian/contracts/loans';
import { parseAmountMinor } from '@meridian/contracts/money';
import { gt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { ltvWarningMessage, marginCallMessage } from './loans.messages.ts';
import { createLoansService } from './loans.service.ts';
import { loanLiquidations, loans } from './loans.tables.ts';

/**
 * The loan replay (`npm run loans:replay`, docs/loans.md "Replay"): the real loans service and engine
 * over historical hourly BTC closes on a fresh database. Shared by the CLI
 * (`scripts/loans-replay.ts`, which prints the events) and the crash-book test
 * (`loans.replay.api.test.ts`, which asserts the margin-call rules on them).
 */

const HOUR_MS = 3_600_000;

/** One loan of a replay book (CSV `loanId,borrowedAt,collateralBtc,principal,loanCoin,termDays`). */
export interface BookLoan {
  loanId: string;
  /** Instant (ms since epoch) of borrowing: the close of that hour is the borrow price. */
  borrowedAt: number;
  collateralMinor: bigint;
  principalMinor: bigint;
  loanCoin: LoanCoin;
  termDays: number;
}

/** The book: one loan per line after the header. @throws Error naming the line of a bad row. */
export function parseBook(text: string, name: string): BookLoan[] {
  const lines = text.trim().split('\n');
  return lines.slice(1).map((line, index) => {
    const [loanId, borrowedAt, collateralBtc, principal, loanCoin, termDays] = line
      .split(',')
      .map((cell) => cell.trim());
    if (!loanId || !LOAN_COINS.includes(loanCoin as LoanCoin) || Number.isNaN(Date.parse(borrowedAt ?? '')))
      throw new Error(`${name}:${index + 2}: bad book row ${line}`);
    return {
      loanId,
      borrowedAt: Date.parse(borrowedAt!),
      collateralMinor: parseAmountMinor(collateralBtc!, 'BTC'),
      principalMinor: parseAmountMinor(principal!, loanCoin as LoanCoin),
      loanCoin: loanCoin as LoanCoin,
      termDays: Number(termDays),
    };
  });
}

/**
 * Hourly closes by the hour's start (ms) from CryptoDataDownload's Bitstamp hourly CSV (a URL line,
 * a header `unix,date,symbol,open,high,low,close,…`, rows newest first); other lines are skipped.
 */
export function parseHourlyCloses(text: string, into = new Map<number, string>()): Map<number, string> {
  for (const line of text.split('\n')) {
    const cells = line.split(',');
    if (!/^\d{9,}$/.test(cells[0] ?? '')) continue;
    into.set(Number(cells[0]) * 1000, cells[6]!.trim());
  }
  return into;
}

/** One event of a replay, in time order. */
export interface ReplayEvent {
  /** Instant of the event (ms). */
  timeMs: number;
  loanId: string;
  /** WARNING: an LTV alert under the margin-call level; MARGIN_CALL: at or above it; then receipts. */
  event: 'BORROW' | 'REFUSED' | 'WARNING' | 'MARGIN_CALL' | 'PARTIAL' | 'FULL' | 'OVERDUE' | 'FINAL';
  price: string;
  /** Alert level in percent (WARNING, MARGIN_CALL). */
  levelPct?: string;
  ltvBeforePct?: string;
  ltvAfterPct?: string;
  collateralSoldMinor?: bigint;
  feeMinor?: bigint;
  debtRepaidMinor?: bigint;
  collateralReturnedMinor?: bigint;
  shortfallMinor?: bigint;
  principalLossMinor?: bigint | null;
  status?: number;
  detail?: string;
}

/** A stable user id per book loan (one borrower per loan). */
function userIdOf(loanId: string): string {
  const hex = createHash('md5').update(`replay:${loanId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Replay `book` over the hours [fromMs, toMs) of `closes` on `db` (migrated, empty loans tables):
 * each loan is borrowed at the close of its hour; each hour is one overdue run and one price event.
 * Returns every event in time order (alerts as the engine sent them, receipts, FINAL per loan).
 * @throws Error when an hour needed has no close.
 */
export async function runReplay(input: {
  db: Db;
  book: BookLoan[];
  closes: Map<number, string>;
  fromMs: number;
  toMs: number;
}): Promise<{ events: ReplayEvent[]; hours: number }> {
  const { db, closes } = input;
  const book = [...input.book].sort((a, b) => a.borrowedAt - b.borrowedAt || a.loanId.localeCompare(b.loanId));
  const events: ReplayEvent[] = [];
  let nowMs = Math.floor(input.fromMs / HOUR_MS) * HOUR_MS;
  let price = '0';
  const loanByUser = new Map<string, string>();
  const orderToLoan = new Map<number, string>();
  const service = createLoansService({
    db,
    btcPrice: async () => ({ priceUsd: new PriceDecimal(price), observedAt: new Date(nowMs), sources: ['replay-csv'] }),
    assertNotFrozen: async () => {},
    notifyMany: async (inputs) => {
      for (const notice of inputs) {
        const kind =
          notice.title === marginCallMessage.title
            ? 'MARGIN_CALL'
            : notice.title === ltvWarningMessage.title
              ? 'WARNING'
              : null;
        if (kind)
          events.push({
            timeMs: nowMs,
            loanId: loanByUser.get(notice.userId) ?? '?',
            event: kind,
            price,
            levelPct: String(notice.params?.level ?? ''),
            ltvBeforePct: String(notice.params?.ltv ?? ''),
            detail: `liquidation at ${notice.params?.liquidationPrice}; deadline ${notice.params?.deadline} HKT`,
          });
      }
      return [];
    },
    now: () => new Date(nowMs),
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  await service.seed();
  const closeAt = (ms: number) => {
    const close = closes.get(Math.floor(ms / HOUR_MS) * HOUR_MS);
    if (!close) throw new Error(`no price for the hour of ${new Date(ms).toISOString()}`);
    return close;
  };
  const borrowDue = async (untilMs: number) => {
    while (book.length > 0 && book[0]!.borrowedAt <= untilMs) {
      const loan = book.shift()!;
      nowMs = loan.borrowedAt;
      price = closeAt(loan.borrowedAt);
      const userId = userIdOf(loan.loanId);
      loanByUser.set(userId, loan.loanId);
      await postEntry(db, {
        kind: 'DEPOSIT',
        reference: `replay:${loan.loanId}`,
        idempotencyKey: `replay:${loan.loanId}`,
        postings: transfer(
          platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
          userAccount(userId, 'USER_AVAILABLE', 'BTC'),
          loan.collateralMinor,
        ),
      });
      try {
        const order = await service.borrow(userId, loan, `replay:${loan.loanId}`);
        orderToLoan.set(Number(order.orderId), loan.loanId);
        events.push({
          timeMs: nowMs,
          loanId: loan.loanId,
          event: 'BORROW',
          price,
          ltvBeforePct: order.ltvPct ?? '',
          status: order.status,
          detail: `liquidation at ${order.liquidationPrice}`,
        });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        events.push({ timeMs: nowMs, loanId: loan.loanId, event: 'REFUSED', price, detail });
      }
    }
  };
  const startMs = nowMs;
  await borrowDue(startMs - 1);
  let lastReceipt = 0;
  let hours = 0;
  for (let hourMs = startMs; hourMs < input.toMs; hourMs += HOUR_MS) {
    await borrowDue(hourMs);
    nowMs = hourMs;
    price = closeAt(hourMs);
    await service.tickOverdue();
    await service.tickEngine();
    hours += 1;
    const receipts = await db
      .select()
      .from(loanLiquidations)
      .where(gt(loanLiquidations.id, lastReceipt))
      .orderBy(loanLiquidations.id);
    for (const receipt of receipts) {
      lastReceipt = receipt.id;
      events.push({
        timeMs: nowMs,
        loanId: orderToLoan.get(receipt.loanId) ?? '?',
        event: receipt.kind as 'PARTIAL' | 'FULL' | 'OVERDUE',
        price: receipt.price,
        ltvBeforePct: receipt.ltvBefore,
        ltvAfterPct: receipt.ltvAfter ?? '',
        collateralSoldMinor: receipt.collateralSoldMinor,
        feeMinor: receipt.feeMinor,
        debtRepaidMinor: receipt.debtRepaidMinor,
        collateralReturnedMinor: receipt.collateralReturnedMinor,
        shortfallMinor: receipt.shortfallMinor,
        principalLossMinor: receipt.principalLossMinor,
        status: receipt.statusAfter,
      });
    }
  }
  for (const loan of await db.select().from(loans).orderBy(loans.id))
    events.push({
      timeMs: nowMs,
      loanId: orderToLoan.get(loan.id) ?? '?',
      event: 'FINAL',
      price,
      status: loan.status,
      detail: `collateral ${loan.collateralMinor} sat; outstanding principal ${loan.outstandingPrincipalMinor}; liquidation price ${loan.liquidationPrice ?? '-'}`,
    });
  return { events, hours };
}

/**
 * For each price liquidation (PARTIAL, FULL) of `events`: the loan's margin call before it (the
 * latest alert at `marginCallPct` since the loan's previous liquidation: a margin call cleared by a
 * fall 2 points below is sent again on the next crossing) and the minutes between them, the levels
 * announced since the previous liquidation in the order sent, and the LTV of the receipt. The CLI
 * prints it; the test asserts on it.
 */
export function noticeBeforeLiquidation(
  events: ReplayEvent[],
  marginCallPct = '80',
): {
  loanId: string;
  timeMs: number;
  kind: string;
  ltvBeforePct: string;
  marginCallMs: number | null;
  minutesToAct: number | null;
  levelsAnnounced: string[];
}[] {
  const since = new Map<string, ReplayEvent[]>();
  const result: ReturnType<typeof noticeBeforeLiquidation> = [];
  for (const event of events) {
    const list = since.get(event.loanId) ?? [];
    if (event.event === 'WARNING' || event.event === 'MARGIN_CALL') list.push(event);
    since.set(event.loanId, list);
    if (event.event !== 'PARTIAL' && event.event !== 'FULL') continue;
    const marginCall = list.findLast((notice) => notice.levelPct === marginCallPct) ?? null;
    result.push({
      loanId: event.loanId,
      timeMs: event.timeMs,
      kind: event.event,
      ltvBeforePct: event.ltvBeforePct ?? '',
      marginCallMs: marginCall?.timeMs ?? null,
      minutesToAct: marginCall ? (event.timeMs - marginCall.timeMs) / 60_000 : null,
      levelsAnnounced: list.map((notice) => notice.levelPct ?? ''),
    });
    since.set(event.loanId, []);
  }
  return result;
}
