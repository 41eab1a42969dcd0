import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSession } from '../../../test/helpers.ts';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { addDays, firstBusinessDay } from './funds.interest.ts';
import { balanceOf, createFundsKit, expectFundsConsistent, type FundsKit, fundSharesOf } from './funds.test-kit.ts';

/**
 * Sub-cent accrual (docs/decisions/0008-savings-accrual-precision.md), every amount by hand. A day's
 * interest is `shares × rate / 365` rounded down to 10⁻⁸ USD (e8; 1 cent = 1,000,000 e8); each
 * holding carries what is not yet a whole cent from day to day and across payouts; the ledger and
 * the payouts move whole cents. At 3.65 %: 99.00 earns 0.0099 a day (990,000 e8), 12,345.67 earns
 * 1.234567 (123,456,700 e8), 1.00 earns 0.0001 (10,000 e8); 60,000.00 on the tiers (3.65 % to
 * 50,000, 2.00 % above) 5.54794520 (554,794,520 e8). A 30-day fixed order of 5,000.00 at 6 % earns
 * 0.82191780 a day (82,191,780 e8): 24.65753400 over its 30 days (exactly 24.657534…).
 * All subscribed on Wednesday 31 December 2025, so they earn from 1 January 2026.
 */

const FIXED = 'FIXED_30D_PRECISION';
const CURRENT_TIERS = [
  { upToMinor: 5_000_000n, annualRateBps: 365 },
  { upToMinor: null, annualRateBps: 200 },
];
/** Cents × bps per cent of daily interest: 10,000 bps × 365 days. */
const DAILY_DIVISOR = 3_650_000n;

let kit: FundsKit;
const db = () => kit.t.database.db;
const users: Record<'penny' | 'quinn' | 'rita' | 'sam' | 'ursula', TestSession> = {} as never;
/** Current-fund shares each user subscribed (cents). */
const SUBSCRIBED: Record<'penny' | 'quinn' | 'rita' | 'sam', bigint> = {
  penny: 9_900n,
  quinn: 1_234_567n,
  rita: 6_000_000n,
  sam: 100n,
};

interface HoldingState {
  unsettled: bigint;
  paid: bigint;
  carry: bigint;
  shares: bigint;
}

async function currentHolding(userId: string): Promise<HoldingState> {
  const [row] = await queryRows<{ unsettled: string; paid: string; carry: string; shares: string }>(
    db(),
    sql`SELECT unsettled_minor::text AS unsettled, paid_minor::text AS paid, interest_carry_e8::text AS carry,
          shares_minor::text AS shares FROM fund_holdings WHERE user_id = ${userId} AND kind = 'CURRENT'`,
  );
  return {
    unsettled: BigInt(row!.unsettled),
    paid: BigInt(row!.paid),
    carry: BigInt(row!.carry),
    shares: BigInt(row!.shares),
  };
}

async function accrualOn(userId: string, day: string): Promise<{ e8: string; minor: string } | undefined> {
  const [row] = await queryRows<{ e8: string; minor: string }>(
    db(),
    sql`SELECT amount_e8::text AS e8, amount_minor::text AS minor FROM fund_accruals
        WHERE user_id = ${userId} AND day = ${day}::date AND kind = 'CURRENT'`,
  );
  return row;
}

async function accrualEntryCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'FUND_ACCRUAL'`,
  );
  return row?.n ?? 0;
}

beforeAll(async () => {
  kit = await createFundsKit('2025-12-31T10:00:00+08:00');
  await kit.t.app.funds.createProduct({
    id: FIXED,
    type: 'FIXED',
    nameEn: 'Fixed 30-day Precision',
    nameZhHk: '30 天定期精度測試',
    periodDays: 30,
    raiseStartDate: '2025-12-20',
    raiseEndDate: '2025-12-31',
    interestDate: '2026-01-01',
    minMinor: 100_000n,
    maxMinor: 1_000_000n,
    limitMinor: 1_000_000n,
    tiers: [{ upToMinor: null, annualRateBps: 600 }],
  });
  for (const [name, sharesMinor] of Object.entries(SUBSCRIBED) as [keyof typeof SUBSCRIBED, bigint][]) {
    users[name] = await kit.investor();
    await kit.fundWallet(users[name].userId, 'USDT', sharesMinor * 10_000n);
    const amount = `${sharesMinor / 100n}.${String(sharesMinor % 100n).padStart(2, '0')}`;
    const answer = await kit.subscribe(users[name], {
      productId: CURRENT_PRODUCT_ID,
      amount,
      actionType: 'WALLET',
      coin: 'USDT',
    });
    expect(answer.json().statusCode).toBe(200);
  }
  users.ursula = await kit.investor();
  await kit.fundWallet(users.ursula.userId, 'USDT', 5_000_000_000n);
  const current = await kit.subscribe(users.ursula, {
    productId: CURRENT_PRODUCT_ID,
    amount: '5000',
    actionType: 'WALLET',
    coin: 'USDT',
  });
  expect(current.json().statusCode).toBe(200);
  const fixed = await kit.subscribe(users.ursula, { productId: FIXED, amount: '5000', actionType: 'FUND' });
  expect(fixed.json()).toMatchObject({ statusCode: 200, content: { maturityDate: '2026-01-31' } });
});
afterAll(async () => {
  await expectFundsConsistent(db());
  expect((await checkLedgerInvariants(db())).isHeld).toBe(true);
  await kit.close();
});

describe('one day at 10⁻⁸ USD', () => {
  it('accrues 12,345.67 for 1 January as 1.234567: 1.23 credited, 0.004567 carried; 99.00 as 0.0099, all carried', async () => {
    await kit.runDailyAt('2026-01-02T00:00:05+08:00');
    expect(await accrualOn(users.quinn.userId, '2026-01-01')).toEqual({ e8: '123456700', minor: '123' });
    expect(await currentHolding(users.quinn.userId)).toMatchObject({ unsettled: 123n, carry: 456_700n });
    expect(await accrualOn(users.penny.userId, '2026-01-01')).toEqual({ e8: '990000', minor: '0' });
    expect(await currentHolding(users.penny.userId)).toMatchObject({ unsettled: 0n, carry: 990_000n });
    // The customer sees the whole cents credited.
    const asset = (await kit.get(users.quinn, '/api/fund/v2/asset')).json().content;
    expect(asset).toMatchObject({ yesterdayProfit: '1.23', currentProduct: { unsettleProfit: '1.23' } });
    // The ledger holds the whole cents: 1.23 + 0.00 + 5.54 + 0.00 (current) + 0.82 (the fixed order).
    const accrued = await balanceOf(kit, platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'));
    expect(accrued).toBe(123n + 554n + 82n);
  });

  it('a rerun of 1 January inserts nothing, posts nothing and moves no carry', async () => {
    const entries = await accrualEntryCount();
    const before = await currentHolding(users.penny.userId);
    const again = await kit.t.app.funds.accrueDay(db(), '2026-01-01');
    expect(again).toMatchObject({ holdingCount: 0, totalMinor: 0n, totalE8: 0n });
    expect(await accrualEntryCount()).toBe(entries);
    expect(await currentHolding(users.penny.userId)).toEqual(before);
  });
});

describe('the 30-day fixed order of 5,000.00 at 6 %', () => {
  it('matures on 31 January with 24.65 (24.65753400 accrued; the 0.00753400 below the cent is not paid)', async () => {
    await kit.runDailyAt('2026-01-31T00:00:05+08:00');
    const [order] = await queryRows<{ unsettled: string; paid: string; carry: string; status: string; days: number }>(
      db(),
      sql`SELECT h.unsettled_minor::text AS unsettled, h.paid_minor::text AS paid, h.interest_carry_e8::text AS carry,
            h.status, (SELECT count(*)::int FROM fund_accruals a WHERE a.holding_id = h.id) AS days
          FROM fund_holdings h WHERE h.user_id = ${users.ursula.userId} AND h.kind = 'FIXED'`,
    );
    // 30 × 82,191,780 = 2,465,753,400 e8 (24.60 when each day was rounded down to the cent).
    expect(order).toEqual({ unsettled: '0', paid: '2465', carry: '753400', status: 'MATURED', days: 30 });
    const maturity = (await kit.get(users.ursula, '/api/fund/v2/order?action=MATURITY')).json().content;
    expect(maturity.list[0]).toMatchObject({ amount: '5000.00', interest: '24.65' });
    expect(await fundSharesOf(kit, users.ursula.userId)).toBe(502_465n);
    expect(await balanceOf(kit, userAccount(users.ursula.userId, 'USER_FUND_FIXED', 'USD'))).toBe(0n);
  });
});

describe('a month, then the payout', () => {
  it('pays 99.00 its 31 January days as 0.30 on Monday 2 February and carries 0.0069 into February', async () => {
    await kit.runDailyAt('2026-02-02T00:00:05+08:00');
    // January: 31 × 990,000 = 30,690,000 e8 → 0.30 paid (0.00 when each day was rounded down), 0.0069
    // carried; 1 February adds 990,000: 1,680,000 → 1 cent credited in February (paid in March),
    // 680,000 carried.
    expect(await currentHolding(users.penny.userId)).toEqual({
      shares: 9_930n,
      paid: 30n,
      unsettled: 1n,
      carry: 680_000n,
    });
    // 12,345.67: 31 × 123,456,700 = 3,827,157,700 e8 → 38.27 (38.13 before), 0.001577 carried.
    expect(await currentHolding(users.quinn.userId)).toMatchObject({ paid: 3_827n, shares: 1_234_567n + 3_827n });
    // 60,000.00: 31 × 554,794,520 = 17,198,630,120 e8 → 171.98 (171.74 before).
    expect(await currentHolding(users.rita.userId)).toMatchObject({ paid: 17_198n });
    // 1.00: 31 × 10,000 e8 → nothing yet; 1 February brings the carry to 320,000 e8.
    expect(await currentHolding(users.sam.userId)).toEqual({ shares: 100n, paid: 0n, unsettled: 0n, carry: 320_000n });
    const history = (await kit.get(users.penny, '/api/fund/v2/order?action=INTEREST')).json().content;
    expect(history.list).toMatchObject([{ id: 'payout:2026-02', amount: '0.30' }]);
    const earnings = (await kit.get(users.penny, '/api/fund/v2/earnings?days=2')).json().content;
    // Per day the chart shows the whole cents credited that day: floor(31 × 0.99) − floor(30 × 0.99) =
    // 1 cent on 31 January, floor(32 × 0.99) − floor(31 × 0.99) = 1 cent on 1 February.
    expect(earnings.map((day: { profit: string }) => day.profit)).toEqual(['0.01', '0.01']);
  });
});

/**
 * The exact interest of a current holding over the days up to `lastDay`, in cents × bps / 365 ÷ 10,000
 * units (divide by 3,650,000 for cents): no rounding at all. Shares are those subscribed plus each
 * payout's cents from the day after it was paid (the payout's new shares earn from the next day).
 */
function exactNumerator(subscribedMinor: bigint, payouts: { day: string; minor: bigint }[], lastDay: string): bigint {
  let numerator = 0n;
  for (let day = '2026-01-01'; day <= lastDay; day = addDays(day, 1)) {
    const shares = payouts.filter((p) => p.day < day).reduce((total, p) => total + p.minor, subscribedMinor);
    let lower = 0n;
    for (const tier of CURRENT_TIERS) {
      const top = tier.upToMinor === null || shares < tier.upToMinor ? shares : tier.upToMinor;
      if (top > lower) numerator += (top - lower) * BigInt(tier.annualRateBps);
      lower = tier.upToMinor ?? lower;
    }
  }
  return numerator;
}

describe('a year of daily accruals and monthly payouts', () => {
  it('credits every holding its rate over 2026 to within one cent (on the shares it held, payouts included)', async () => {
    const calendar = getHongKongCalendar();
    const payouts: Record<keyof typeof SUBSCRIBED, { day: string; minor: bigint }[]> = {
      penny: [],
      quinn: [],
      rita: [],
      sam: [],
    };
    const paidSoFar = async (name: keyof typeof SUBSCRIBED) => (await currentHolding(users[name].userId)).paid;
    for (const name of Object.keys(SUBSCRIBED) as (keyof typeof SUBSCRIBED)[]) {
      payouts[name].push({ day: '2026-02-02', minor: await paidSoFar(name) });
    }
    // Each month's first business day at 00:00:05: the accrual catches up every day since the last
    // run (one accrueDay per day), then the payout of the days before the month.
    for (let month = 3; month <= 12; month += 1) {
      const payDay = firstBusinessDay(`2026-${String(month).padStart(2, '0')}`, calendar);
      const before = await Promise.all((Object.keys(SUBSCRIBED) as (keyof typeof SUBSCRIBED)[]).map(paidSoFar));
      await kit.runDailyAt(`${payDay}T00:00:05+08:00`);
      for (const [index, name] of (Object.keys(SUBSCRIBED) as (keyof typeof SUBSCRIBED)[]).entries()) {
        payouts[name].push({ day: payDay, minor: (await paidSoFar(name)) - before[index]! });
      }
    }
    kit.clock.set('2027-01-01T00:00:05+08:00');
    const caughtUp = await kit.t.app.funds.runAccrual(db());
    expect(caughtUp.at(-1)?.day).toBe('2026-12-31');

    const credited: Record<string, bigint> = {};
    for (const name of Object.keys(SUBSCRIBED) as (keyof typeof SUBSCRIBED)[]) {
      const holding = await currentHolding(users[name].userId);
      const exact = exactNumerator(SUBSCRIBED[name], payouts[name], '2026-12-31');
      const creditedMinor = holding.paid + holding.unsettled;
      // Never more than the exact interest, and short of it by less than one cent plus 10⁻⁸ USD a day
      // (3.65 numerator units a day, 1,333 over 365 days).
      const shortfall = exact - creditedMinor * DAILY_DIVISOR;
      expect(shortfall, name).toBeGreaterThanOrEqual(0n);
      expect(shortfall, name).toBeLessThan(DAILY_DIVISOR + 1_333n);
      credited[name] = creditedMinor;
    }
    // 99.00 at 3.65 % for a year is 3.6135 before compounding; its ten payouts' shares (0.30 or so
    // each) earn too: 3.67 credited (0.00 when each day was rounded down to the cent). 1.00: at least
    // its 0.0365 → 0.03. 12,345.67: at least its 450.617 → 450.61.
    expect(credited.penny).toBe(367n);
    expect(credited.sam! >= 3n).toBe(true);
    expect(credited.quinn! >= 45_061n).toBe(true);
  }, 180_000);
});
