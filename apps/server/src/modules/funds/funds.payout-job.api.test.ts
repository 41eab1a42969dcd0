import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, type TestSession } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { platformAccount } from '../ledger/ledger.types.ts';
import { balanceOf, createFundsKit, expectFundsConsistent, type FundsKit, fundSharesOf } from './funds.test-kit.ts';

/**
 * The monthly payout as the scheduler's leader runs it: the app's own scheduler ticks
 * once a Hong Kong day at 00:00:05 for a month — `funds.daily` accrues (and on PGlite pays, step
 * 3), on PostgreSQL the `funds.payout` job pays on its pooled connections after it in the same
 * tick. Amounts by hand: 10,000.00 at 3.65 % earns 1.00 a day; 60,000.00 on the tiers (3.65 % to
 * 50,000, 2.00 % above) 554.794520 cents a day, credited in whole cents with the rest carried
 * (decision 0008); after the first payout's cents 1,000,100 × 365 / 3,650,000 = 100.01 and
 * (5,000,000 × 365 + 1,000,554 × 200) / 3,650,000 = 554.824876 cents a day.
 */

let kit: FundsKit;
let alice: TestSession;
let bob: TestSession;
const db = () => kit.t.database.db;
const ACCRUED = platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD');

/** Set the clock and tick the app's scheduler once (every job whose hour has not run yet). */
async function tickAt(iso: string): Promise<Record<string, string>> {
  kit.clock.set(iso);
  return kit.t.app.scheduler.tick();
}

async function interestEntries(): Promise<{ reference: string; total: string; postings: number }[]> {
  return queryRows(
    db(),
    sql`SELECT e.reference, sum(p.amount_minor) FILTER (WHERE p.amount_minor > 0)::text AS total, count(p.id)::int AS postings
        FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id
        WHERE e.reference LIKE 'fund-payout:%' GROUP BY e.id, e.reference ORDER BY e.id`,
  );
}

beforeAll(async () => {
  kit = await createFundsKit('2026-02-27T10:00:00+08:00');
  alice = await kit.investor();
  bob = await kit.investor();
  await kit.fundWallet(alice.userId, 'USDT', 10_000_000_000n);
  await kit.fundWallet(bob.userId, 'USDC', 60_000_000_000n);
  for (const [session, amount, coin] of [
    [alice, '10000', 'USDT'],
    [bob, '60000', 'USDC'],
  ] as const) {
    const response = await kit.subscribe(session, {
      productId: CURRENT_PRODUCT_ID,
      amount,
      actionType: 'WALLET',
      coin,
    });
    expect(response.json().statusCode).toBe(200);
  }
});
afterAll(async () => {
  await expectFundsConsistent(db());
  expect((await checkLedgerInvariants(db())).isHeld).toBe(true);
  await kit.close();
});

describe('the funds.payout job (on PGlite: funds.daily step 3) as the scheduler runs it', () => {
  it('pays February’s 28th on Monday 2 March and March’s 31 days on Wednesday 1 April, exactly', async () => {
    const payoutJob = testDatabaseKind === 'postgres' ? 'funds.payout' : 'funds.daily';
    // Friday 27 February: subscribed; the shares earn from the 28th. Sunday 1 March: no business day.
    for (const day of ['2026-02-28', '2026-03-01']) await tickAt(`${day}T00:00:05+08:00`);
    expect(await interestEntries()).toEqual([]);
    const march = await tickAt('2026-03-02T00:00:05+08:00');
    expect(march[payoutJob]).toBe('ran');
    // The days before March: only the 28th (1 March stays unpaid until April).
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_100n);
    expect(await fundSharesOf(kit, bob.userId)).toBe(6_000_554n);
    expect(await interestEntries()).toEqual([{ reference: 'fund-payout:2026-03', total: '654', postings: 3 }]);

    for (let day = 3; day <= 31; day += 1) await tickAt(`2026-03-${String(day).padStart(2, '0')}T00:00:05+08:00`);
    const accruedBefore = await balanceOf(kit, ACCRUED);
    const april = await tickAt('2026-04-01T00:00:05+08:00');
    expect(april[payoutJob]).toBe('ran');
    // 1–31 March: alice 31 × 1.00 (10,001.00 earns 1.000100 from the 3rd: 0.0029 carried by the
    // 31st). bob, carried sub-cent (decision 0008): 28 February to 31 March 3 × 554,794,520 e8 on
    // 60,000.00 and 29 × 554,824,876 e8 on 60,005.54 = 17,754,304,964 e8 → 177.54 credited, less
    // the 5.54 paid in March = 172.00 (171.74 when each day was rounded down to the cent).
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_000n + 100n + 3_100n);
    expect(await fundSharesOf(kit, bob.userId)).toBe(6_000_000n + 554n + 17_200n);
    // The same tick accrued 31 March (+1.00 and +5.55) before paying 203.00.
    expect(accruedBefore - (await balanceOf(kit, ACCRUED))).toBe(20_300n - 655n);
    expect(await interestEntries()).toEqual([
      { reference: 'fund-payout:2026-03', total: '654', postings: 3 },
      { reference: 'fund-payout:2026-04', total: '20300', postings: 3 },
    ]);
    const [batches] = await queryRows<{ n: number; holdings: number; total: string }>(
      db(),
      sql`SELECT count(*)::int AS n, sum(holding_count)::int AS holdings, sum(total_minor)::text AS total
          FROM fund_payout_batches WHERE month = '2026-04'`,
    );
    expect(batches).toEqual({ n: 1, holdings: 2, total: '20300' });
    // Each holding keeps its account's id for the next payout's fanout.
    const holdings = await queryRows<{ user_id: string; paid: string; account: string | null; expected: string }>(
      db(),
      sql`SELECT h.user_id, h.last_payout_minor::text AS paid, h.ledger_account_id::text AS account, a.id::text AS expected
          FROM fund_holdings h JOIN ledger_accounts a ON a.owner_kind = 'user' AND a.owner_id = h.user_id
            AND a.type = 'USER_FUND' AND a.asset = 'USD'
          WHERE h.kind = 'CURRENT' ORDER BY h.last_payout_minor`,
    );
    expect(holdings.map(({ paid, account, expected }) => ({ paid, isOwnAccount: account === expected }))).toEqual([
      { paid: '3100', isOwnAccount: true },
      { paid: '17200', isOwnAccount: true },
    ]);
  });

  it('pays nothing on the next runs of the day, nor with the month’s record gone', async () => {
    const before = [
      await fundSharesOf(kit, alice.userId),
      await fundSharesOf(kit, bob.userId),
      await balanceOf(kit, ACCRUED),
    ];
    const again = await tickAt('2026-04-01T01:00:05+08:00');
    expect(again['funds.daily']).toBe('ran');
    if (testDatabaseKind === 'postgres') expect(again['funds.payout']).toBe('ran');
    // A second run that finds the month unrecorded (as after a crash before its last write) pays nobody twice.
    await db().execute(sql`DELETE FROM fund_payouts WHERE month = '2026-04'`);
    await tickAt('2026-04-01T02:00:05+08:00');
    expect([
      await fundSharesOf(kit, alice.userId),
      await fundSharesOf(kit, bob.userId),
      await balanceOf(kit, ACCRUED),
    ]).toEqual(before);
    expect((await interestEntries()).map((entry) => entry.reference)).toEqual([
      'fund-payout:2026-03',
      'fund-payout:2026-04',
    ]);
    const [recorded] = await queryRows<{ holdings: number; total: string }>(
      db(),
      sql`SELECT holding_count AS holdings, total_minor::text AS total FROM fund_payouts WHERE month = '2026-04'`,
    );
    expect(recorded).toEqual({ holdings: 0, total: '0' });
  });
});
