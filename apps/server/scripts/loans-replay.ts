/**
 * `npm run loans:replay`: the real loan engine over historical hourly BTC prices on a fresh
 * throw-away database (docs/loans.md "Replay"; the work is `src/modules/loans/loans.replay.ts`).
 * The book (CSV `loanId,borrowedAt,collateralBtc,principal,loanCoin,termDays`) is borrowed at the
 * close of each loan's `borrowedAt` hour; then each hour of [from, to) is fed as the price: the
 * overdue run and one price event of the engine (protection, alerts, liquidation) per hour. Prints,
 * in time order, one CSV line per event (BORROW, WARNING, MARGIN_CALL, PARTIAL, FULL, OVERDUE,
 * FINAL), then one NOTICE line per price liquidation (when the margin call went out and the minutes
 * the customer had to act, the levels announced in order) and a summary; `--out` writes the same
 * CSV to a file, so runs can be compared.
 *
 *   npm run loans:replay -- --book apps/server/data/loans/replay-book.csv \
 *     --prices apps/server/data/prices/btc_usd_hourly_bitstamp_2020-03.csv \
 *     --from 2020-03-12T00:00Z --to 2020-03-14T00:00Z [--out replay.csv]
 *
 * `--prices` may name several files, comma-separated (a book over two crashes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import {
  noticeBeforeLiquidation,
  parseBook,
  parseHourlyCloses,
  type ReplayEvent,
  runReplay,
} from '../src/modules/loans/loans.replay.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';

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

const text = (value: bigint | null | undefined) => (value === undefined || value === null ? '' : String(value));

function csvLine(event: ReplayEvent): string {
  return [
    new Date(event.timeMs).toISOString(),
    event.loanId,
    event.event,
    event.price,
    event.ltvBeforePct ?? '',
    event.ltvAfterPct ?? '',
    text(event.collateralSoldMinor),
    text(event.feeMinor),
    text(event.debtRepaidMinor),
    text(event.collateralReturnedMinor),
    text(event.shortfallMinor),
    text(event.principalLossMinor),
    event.status ?? '',
    event.levelPct ? `level ${event.levelPct}% ${event.detail ?? ''}` : (event.detail ?? ''),
  ].join(',');
}

async function main(): Promise<void> {
  const bookPath = fromCaller(args.book!);
  const book = parseBook(readFileSync(bookPath, 'utf8'), bookPath);
  const closes = new Map<number, string>();
  for (const path of args.prices!.split(',')) parseHourlyCloses(readFileSync(fromCaller(path), 'utf8'), closes);
  const database = await openDatabase({ kind: 'memory' });
  await database.migrate(findMigrationsDir());
  const { events, hours } = await runReplay({
    db: database.db,
    book,
    closes,
    fromMs: Date.parse(args.from!),
    toMs: Date.parse(args.to!),
  });
  const rows = [
    'time,loanId,event,price,ltvBeforePct,ltvAfterPct,collateralSold,fee,debtRepaid,collateralReturned,shortfall,principalLoss,status,detail',
    ...events.map(csvLine),
  ];
  const notices = noticeBeforeLiquidation(events);
  for (const notice of notices)
    rows.push(
      [
        new Date(notice.timeMs).toISOString(),
        notice.loanId,
        'NOTICE',
        '',
        notice.ltvBeforePct,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        `${notice.kind}; margin call ${notice.marginCallMs === null ? 'none' : new Date(notice.marginCallMs).toISOString()}; minutes to act ${notice.minutesToAct ?? '-'}; levels announced ${notice.levelsAnnounced.join(' ') || 'none'}`,
      ].join(','),
    );
  const [alarms] = (
    (await database.db.execute(sql`SELECT count(*)::int AS n FROM loan_engine_alarms`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  const csv = `${rows.join('\n')}\n`;
  process.stdout.write(csv);
  if (args.out) writeFileSync(fromCaller(args.out), csv);
  const count = (kind: ReplayEvent['event']) => events.filter((event) => event.event === kind).length;
  const finals = new Map<number, number>();
  for (const event of events)
    if (event.event === 'FINAL') finals.set(event.status!, (finals.get(event.status!) ?? 0) + 1);
  const noTime = notices.filter((notice) => (notice.minutesToAct ?? 0) < 60).length;
  console.error(
    `replay: ${book.length} loans, ${hours} hours ${args.from} → ${args.to}; warnings ${count('WARNING')}, margin calls ${count('MARGIN_CALL')}, partial ${count('PARTIAL')}, full ${count('FULL')}, overdue ${count('OVERDUE')}, refused ${count('REFUSED')}, alarms ${alarms?.n ?? 0}; liquidations with under 60 minutes since the margin call (hard level) ${noTime}; final statuses ${[...finals].map(([status, n]) => `${status}×${n}`).join(' ')}`,
  );
  await database.close();
}

await main();
