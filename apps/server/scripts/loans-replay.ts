/**
 * `npm run loans:replay`: the real loan engine over historical hourly BTC prices on a fresh
 * throw-away database (issue 18 "Replay"). The book (CSV `loanId,borrowedAt,collateralBtc,principal,
 * loanCoin,termDays`) is borrowed at the close of each loan's `borrowedAt` hour; then each hour of
 * [from, to) is fed as the price: the overdue run and one price event of the engine (protection,
 * liquidation, alerts) per hour. Prints, in time order, one CSV line per event (BORROW, ALERT,
 * PARTIAL, FULL, OVERDUE, FINAL) and a summary; `--out` writes the same CSV to a file, so runs can
 * be compared.
 *
 *   npm run loans:replay -- --book apps/server/data/loans/replay-book.csv \
 *     --prices apps/server/data/prices/btc_usd_hourly_bitstamp_2020-03.csv \
 *     --from 2020-03-12T00:00Z --to 2020-03-14T00:00Z [--out replay.csv]
 *
 * Price files: CryptoDataDownload's Bitstamp hourly CSV (a URL line, a header `unix,date,symbol,
 * open,high,low,close,…`, rows newest first); the close is used.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LOAN_COINS, type LoanCoin } from '@meridian/contracts/loans';
import { parseAmountMinor } from '@meridian/contracts/money';
import { gt, sql } from 'drizzle-orm';
import { postEntry } from '../src/modules/ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../src/modules/ledger/ledger.types.ts';
import { marginCallMessage } from '../src/modules/loans/loans.messages.ts';
import { createLoansService } from '../src/modules/loans/loans.service.ts';
import { loanLiquidations, loans } from '../src/modules/loans/loans.tables.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';
import { PriceDecimal } from '../src/platform/prices/types.ts';

const HOUR_MS = 3_600_000;
/** The server's bundled data (the default book and March 2020 prices). */
const DATA_DIR = join(import.meta.dirname, '..', 'data');
/** Paths on the command line are relative to where `npm run` was started (npm runs the script in apps/server). */
const fromCaller = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
const { values: args } = parseArgs({
  options: {
    book: { type: 'string', default: join(DATA_DIR, 'loans/replay-book.csv') },
    prices: { type: 'string', default: join(DATA_DIR, 'prices/btc_usd_hourly_bitstamp_2020-03.csv') },
    from: { type: 'string', default: '2020-03-12T00:00Z' },
    to: { type: 'string', default: '2020-03-14T00:00Z' },
    out: { type: 'string' },
  },
});

interface BookLoan {
  loanId: string;
  borrowedAt: number;
  collateralMinor: bigint;
  principalMinor: bigint;
  loanCoin: LoanCoin;
  termDays: number;
}

/** The book: one loan per line after the header. @throws Error naming the line of a bad row. */
function readBook(path: string): BookLoan[] {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  return lines.slice(1).map((line, index) => {
    const [loanId, borrowedAt, collateralBtc, principal, loanCoin, termDays] = line
      .split(',')
      .map((cell) => cell.trim());
    if (!loanId || !LOAN_COINS.includes(loanCoin as LoanCoin) || Number.isNaN(Date.parse(borrowedAt ?? '')))
      throw new Error(`${path}:${index + 2}: bad book row ${line}`);
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

/** Hourly closes by the hour's start (ms). */
function readPrices(path: string): Map<number, string> {
  const closes = new Map<number, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const cells = line.split(',');
    if (!/^\d{9,}$/.test(cells[0] ?? '')) continue;
    closes.set(Number(cells[0]) * 1000, cells[6]!.trim());
  }
  return closes;
}

/** A stable user id per book loan (one borrower per loan). */
function userIdOf(loanId: string): string {
  const hex = createHash('md5').update(`replay:${loanId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function main(): Promise<void> {
  const book = readBook(fromCaller(args.book!)).sort(
    (a, b) => a.borrowedAt - b.borrowedAt || a.loanId.localeCompare(b.loanId),
  );
  const closes = readPrices(fromCaller(args.prices!));
  const fromMs = Math.floor(Date.parse(args.from!) / HOUR_MS) * HOUR_MS;
  const toMs = Date.parse(args.to!);
  const database = await openDatabase({ kind: 'memory' });
  await database.migrate(findMigrationsDir());
  let nowMs = fromMs;
  let price = '0';
  const loanByUser = new Map<string, string>();
  const orderToLoan = new Map<number, string>();
  const rows: string[] = [
    'time,loanId,event,price,ltvBeforePct,ltvAfterPct,collateralSold,fee,debtRepaid,collateralReturned,shortfall,status,detail',
  ];
  const emit = (loanId: string, event: string, cells: Partial<Record<string, string>>) =>
    rows.push(
      [
        new Date(nowMs).toISOString(),
        loanId,
        event,
        cells.price ?? price,
        cells.ltvBefore ?? '',
        cells.ltvAfter ?? '',
        cells.collateralSold ?? '',
        cells.fee ?? '',
        cells.debtRepaid ?? '',
        cells.collateralReturned ?? '',
        cells.shortfall ?? '',
        cells.status ?? '',
        cells.detail ?? '',
      ].join(','),
    );
  const service = createLoansService({
    db: database.db,
    btcPrice: async () => ({ priceUsd: new PriceDecimal(price), observedAt: new Date(nowMs), sources: ['replay-csv'] }),
    assertNotFrozen: async () => {},
    notifyMany: async (inputs) => {
      for (const input of inputs)
        if (input.title === marginCallMessage.title)
          emit(loanByUser.get(input.userId) ?? '?', 'ALERT', {
            ltvBefore: String(input.params?.ltv ?? ''),
            detail: `level ${input.params?.level}% liquidation at ${input.params?.liquidationPrice}`,
          });
      return [];
    },
    now: () => new Date(nowMs),
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  await service.seed();
  const closeAt = (ms: number) => {
    const close = closes.get(Math.floor(ms / HOUR_MS) * HOUR_MS);
    if (!close) throw new Error(`no price for the hour of ${new Date(ms).toISOString()} in ${args.prices}`);
    return close;
  };
  let lastReceipt = 0;
  let pending = [...book];
  const borrowDue = async (untilMs: number) => {
    while (pending.length > 0 && pending[0]!.borrowedAt <= untilMs) {
      const loan = pending.shift()!;
      nowMs = loan.borrowedAt;
      price = closeAt(loan.borrowedAt);
      const userId = userIdOf(loan.loanId);
      loanByUser.set(userId, loan.loanId);
      await postEntry(database.db, {
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
        emit(loan.loanId, 'BORROW', {
          ltvBefore: order.ltvPct ?? '',
          status: String(order.status),
          detail: `liquidation at ${order.liquidationPrice}`,
        });
      } catch (error) {
        emit(loan.loanId, 'REFUSED', { detail: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await borrowDue(fromMs - 1);
  let hours = 0;
  for (let hourMs = fromMs; hourMs < toMs; hourMs += HOUR_MS) {
    await borrowDue(hourMs);
    nowMs = hourMs;
    price = closeAt(hourMs);
    await service.tickOverdue();
    await service.tickEngine();
    hours += 1;
    const receipts = await database.db
      .select()
      .from(loanLiquidations)
      .where(gt(loanLiquidations.id, lastReceipt))
      .orderBy(loanLiquidations.id);
    for (const receipt of receipts) {
      lastReceipt = receipt.id;
      emit(orderToLoan.get(receipt.loanId) ?? '?', receipt.kind, {
        price: receipt.price,
        ltvBefore: receipt.ltvBefore,
        ltvAfter: receipt.ltvAfter ?? '',
        collateralSold: String(receipt.collateralSoldMinor),
        fee: String(receipt.feeMinor),
        debtRepaid: String(receipt.debtRepaidMinor),
        collateralReturned: String(receipt.collateralReturnedMinor),
        shortfall: String(receipt.shortfallMinor),
        status: String(receipt.statusAfter),
      });
    }
  }
  pending = [];
  const finals = await database.db.select().from(loans).orderBy(loans.id);
  const summary = new Map<number, number>();
  for (const loan of finals) {
    summary.set(loan.status, (summary.get(loan.status) ?? 0) + 1);
    emit(orderToLoan.get(loan.id) ?? '?', 'FINAL', {
      status: String(loan.status),
      detail: `collateral ${loan.collateralMinor} sat; outstanding principal ${loan.outstandingPrincipalMinor}; liquidation price ${loan.liquidationPrice ?? '-'}`,
    });
  }
  const [alarms] = (
    (await database.db.execute(sql`SELECT count(*)::int AS n FROM loan_engine_alarms`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  const csv = `${rows.join('\n')}\n`;
  process.stdout.write(csv);
  if (args.out) writeFileSync(fromCaller(args.out), csv);
  const count = (event: string) => rows.filter((row) => row.split(',')[2] === event).length;
  console.error(
    `replay: ${book.length} loans, ${hours} hours ${args.from} → ${args.to}; alerts ${count('ALERT')}, partial ${count('PARTIAL')}, full ${count('FULL')}, overdue ${count('OVERDUE')}, refused ${count('REFUSED')}, alarms ${alarms?.n ?? 0}; final statuses ${[...summary].map(([status, n]) => `${status}×${n}`).join(' ')}`,
  );
  await database.close();
}

await main();
