import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseRegistry } from '../../../test/helpers.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { noticeBeforeLiquidation, parseBook, parseHourlyCloses, runReplay } from './loans.replay.ts';

/**
 * The margin-call rules of docs/decisions/0005-margin-call-before-liquidation.md on a book of 40
 * loans (LTV 45–70 % at borrowing, 4 terms, 3 coins; `data/loans/crash-book-*.csv`) driven through
 * the real engine over the real Bitstamp hourly closes of the March 2020 and June 2022 crashes
 * (`data/prices/`, one price event per hour). On every price liquidation: a margin call at least
 * the cure window (60 minutes) earlier, unless the LTV had reached the hard level (95 %); the
 * levels 75, 80 and 85 % all announced before it, in ascending order. The ledger invariants hold
 * after each crash.
 */
const DATA_DIR = join(import.meta.dirname, '..', '..', '..', 'data');
const CURE_WINDOW_MINUTES = 60;
const HARD_LTV_PCT = 95;

const crashes = [
  {
    name: 'March 2020',
    book: 'loans/crash-book-2020-03.csv',
    prices: 'prices/btc_usd_hourly_bitstamp_2020-03.csv',
    from: '2020-03-09T00:00Z',
    to: '2020-03-14T00:00Z',
  },
  {
    name: 'June 2022',
    book: 'loans/crash-book-2022-06.csv',
    prices: 'prices/btc_usd_hourly_bitstamp_2022-06.csv',
    from: '2022-06-09T00:00Z',
    to: '2022-06-19T00:00Z',
  },
];

describe('margin calls before liquidation over two crashes (real hourly closes)', () => {
  for (const crash of crashes)
    it(`${crash.name}: every liquidation had its margin call a cure window earlier, or the hard level; every level announced in order`, async () => {
      const database = await createTestDatabase();
      try {
        const book = parseBook(readFileSync(join(DATA_DIR, crash.book), 'utf8'), crash.book);
        const closes = parseHourlyCloses(readFileSync(join(DATA_DIR, crash.prices), 'utf8'));
        const { events } = await runReplay({
          db: database.db,
          book,
          closes,
          fromMs: Date.parse(crash.from),
          toMs: Date.parse(crash.to),
        });
        expect(events.filter((event) => event.event === 'BORROW')).toHaveLength(20);
        const notices = noticeBeforeLiquidation(events);
        // The crash liquidates part of the book (otherwise this test would prove nothing).
        expect(notices.length).toBeGreaterThan(3);
        for (const notice of notices) {
          const isHard = Number(notice.ltvBeforePct) >= HARD_LTV_PCT;
          if (!isHard)
            expect(notice.minutesToAct, `${notice.loanId} ${notice.kind}`).toBeGreaterThanOrEqual(CURE_WINDOW_MINUTES);
          // Every level was announced before (or in the same event as) the liquidation, lowest first.
          const firsts = notice.levelsAnnounced.filter((level, index, all) => all.indexOf(level) === index);
          expect(firsts, `${notice.loanId} at ${new Date(notice.timeMs).toISOString()}`).toEqual(['75', '80', '85']);
        }
        // Alerts sent in one event come lowest level first.
        const byEvent = new Map<string, number[]>();
        for (const event of events)
          if (event.event === 'WARNING' || event.event === 'MARGIN_CALL') {
            const key = `${event.loanId}@${event.timeMs}`;
            byEvent.set(key, [...(byEvent.get(key) ?? []), Number(event.levelPct)]);
          }
        for (const levels of byEvent.values()) expect(levels).toEqual([...levels].sort((a, b) => a - b));
        // A margin call's message names its deadline, Hong Kong time.
        const marginCall = events.find((event) => event.event === 'MARGIN_CALL')!;
        expect(marginCall.detail).toMatch(/deadline \d{4}-\d{2}-\d{2} \d{2}:\d{2} HKT/);
        const report = await checkLedgerInvariants(database.db);
        expect(report.isHeld).toBe(true);
      } finally {
        for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
        await database.dispose();
      }
    }, 600_000);
});
