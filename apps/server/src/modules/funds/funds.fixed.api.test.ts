import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSession } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { balanceOf, createFundsKit, expectFundsConsistent, type FundsKit, fundSharesOf } from './funds.test-kit.ts';

/**
 * A fixed fund end to end (a 90-day fixed order of 5,000 at 8 % maturing into the
 * current fund with its interest): raise window 2026-03-01 .. 2026-03-14, interest from
 * 2026-03-15, 90 days → matures 2026-06-13. 5,000.00 USD at 8 % earns
 * floor(500,000 × 800 × 10⁶ / 3,650,000) = 109,589,041 e8 (1.09589041 USD) a day, 90 days →
 * 98.63013690 USD: 98.63 paid at maturity (decision 0008).
 */

const FIXED = 'FIXED_90D_TEST';
let kit: FundsKit;
let grace: TestSession;
const db = () => kit.t.database.db;

beforeAll(async () => {
  kit = await createFundsKit('2026-03-02T09:00:00+08:00');
  await kit.t.app.funds.createProduct({
    id: FIXED,
    type: 'FIXED',
    nameEn: 'Fixed 90-day Test',
    nameZhHk: '90 日定期測試',
    periodDays: 90,
    raiseStartDate: '2026-03-01',
    raiseEndDate: '2026-03-14',
    interestDate: '2026-03-15',
    minMinor: 100_000n,
    maxMinor: 1_000_000n,
    limitMinor: 600_000n,
    tiers: [{ upToMinor: null, annualRateBps: 800 }],
  });
});
afterAll(async () => {
  await expectFundsConsistent(db());
  await kit.close();
});

describe('a 90-day fixed order of 5,000 at 8 %', () => {
  it('is subscribed from current shares inside the raise window', async () => {
    grace = await kit.investor();
    await kit.fundWallet(grace.userId, 'USDT', 7_000_000_000n);
    expect(
      (
        await kit.subscribe(grace, {
          productId: CURRENT_PRODUCT_ID,
          amount: '7000',
          actionType: 'WALLET',
          coin: 'USDT',
        })
      ).json().statusCode,
    ).toBe(200);
    kit.clock.set('2026-03-03T09:00:00+08:00');
    const order = (await kit.subscribe(grace, { productId: FIXED, amount: '5000', actionType: 'FUND' })).json();
    expect(order).toMatchObject({
      statusCode: 200,
      content: {
        type: 'FIXED',
        action: 'SUBSCRIBE',
        actionType: 'FUND',
        amount: '5000.00',
        status: 'HOLDING',
        interestDate: '2026-03-15',
        maturityDate: '2026-06-13',
      },
    });
    expect(await fundSharesOf(kit, grace.userId)).toBe(200_000n);
    expect(await balanceOf(kit, userAccount(grace.userId, 'USER_FUND_FIXED', 'USD'))).toBe(500_000n);
    const asset = (await kit.get(grace, '/api/fund/v2/asset')).json().content;
    expect(asset.fixedProduct).toEqual({
      historyProfit: '0.00',
      holdingProducts: 1,
      totalShares: '5000.00',
      unInterestShares: '5000.00',
      unsettleProfit: '0.00',
      interestShares: '0.00',
    });
    // The account overview counts the fund: 2,000.00 current + 5,000.00 fixed.
    const balance = (await kit.get(grace, '/api/account/balance')).json().content;
    expect(balance.overview.accounts).toContainEqual({ accountType: 'FundAccount', totalUsd: '7000.00' });
  });

  it('refuses the per-user limit (162), subscribing after the window (165) and redeeming early (167), changing nothing', async () => {
    const overLimit = (await kit.subscribe(grace, { productId: FIXED, amount: '1000.01', actionType: 'FUND' })).json();
    expect({ code: overLimit.statusCode, message: overLimit.message }).toEqual({
      code: 162,
      message: 'Exceeded Current Limit: you can subscribe at most 1000.00 USD more',
    });
    const tooMuch = (await kit.subscribe(grace, { productId: FIXED, amount: '2000.01', actionType: 'FUND' })).json();
    expect(tooMuch.statusCode).toBe(162);
    kit.clock.set('2026-03-15T09:00:00+08:00');
    const late = (await kit.subscribe(grace, { productId: FIXED, amount: '1000', actionType: 'FUND' })).json();
    expect({ code: late.statusCode, message: late.message }).toEqual({
      code: 165,
      message: 'This fund is not open for subscription (raise window 2026-03-01 to 2026-03-14)',
    });
    const early = (
      await kit.redeem(grace, { productId: FIXED, amount: '100', actionType: 'WALLET', coin: 'USDT' })
    ).json();
    expect({ code: early.statusCode, message: early.message }).toEqual({
      code: 167,
      message: 'A fixed fund cannot be redeemed before maturity; it moves to the current fund on 2026-06-13',
    });
    expect(await fundSharesOf(kit, grace.userId)).toBe(200_000n);
  });

  it('earns 1.09589041 a day from 2026-03-15 and matures on 2026-06-13 into the current fund with 98.63 interest, once', async () => {
    await kit.runDailyAt('2026-06-12T00:00:05+08:00');
    const beforeMaturity = (await kit.get(grace, '/api/fund/v2/asset')).json().content;
    // 2026-03-15 .. 2026-06-11: 89 days × 109,589,041 e8 (500,000 × 800 × 10⁶ / 3,650,000 rounded
    // down) = 9,753,424,649 e8 → 97.53 credited (97.01 when each day was rounded down to the cent).
    expect(beforeMaturity.fixedProduct).toMatchObject({
      unsettleProfit: '97.53',
      interestShares: '5000.00',
      unInterestShares: '0.00',
    });
    const sharesBefore = await fundSharesOf(kit, grace.userId);
    await kit.runDailyAt('2026-06-13T00:00:05+08:00');
    await kit.runDailyAt('2026-06-13T01:00:05+08:00');
    const [fixedDays] = await queryRows<{ n: number; total: string; first: string; last: string }>(
      db(),
      sql`SELECT count(*)::int AS n, sum(amount_minor)::text AS total, min(day)::text AS first, max(day)::text AS last
          FROM fund_accruals WHERE user_id = ${grace.userId} AND kind = 'FIXED'`,
    );
    // 90 days: 9,863,013,690 e8 = 98.63013690 (exactly 5,000 × 8 % × 90 / 365 = 98.630137): 98.63 paid,
    // the 0.00013690 below the cent stays on the matured order, unpaid (decision 0008).
    expect(fixedDays).toEqual({ n: 90, total: '9863', first: '2026-03-15', last: '2026-06-12' });
    expect(await balanceOf(kit, userAccount(grace.userId, 'USER_FUND_FIXED', 'USD'))).toBe(0n);
    // 2,000.00 left in the current fund plus its own interest, then 5,000.00 + 98.63.
    const asset = (await kit.get(grace, '/api/fund/v2/asset')).json().content;
    expect(asset.fixedProduct).toEqual({
      historyProfit: '98.63',
      holdingProducts: 0,
      totalShares: '0.00',
      unInterestShares: '0.00',
      unsettleProfit: '0.00',
      interestShares: '0.00',
    });
    const maturity = (await kit.get(grace, '/api/fund/v2/order?action=MATURITY')).json().content;
    expect(maturity).toMatchObject({
      totalCount: 1,
      list: [
        {
          productId: FIXED,
          type: 'FIXED',
          action: 'MATURITY',
          amount: '5000.00',
          interest: '98.63',
          status: 'SUCCESS',
        },
      ],
    });
    // The June payout was made on the 12th, so the maturity alone moved the current shares: 5,000.00 + 98.63.
    expect((await fundSharesOf(kit, grace.userId)) - sharesBefore).toBe(509_863n);
    const messages = (await kit.get(grace, '/api/notice/message/list?pageID=1&pageSize=10')).json().content;
    expect(messages.list[0]).toMatchObject({ category: 'FUND', title: 'Fixed fund matured' });
  });
});

describe('a leap-year February', () => {
  it('accrues 29 days of 1.00 on 10,000.00 and pays exactly 29.00 on Wednesday 2028-03-01', async () => {
    const henry = await kit.investor();
    await kit.fundWallet(henry.userId, 'USDE', 10_000_000_000n);
    kit.clock.set('2028-01-31T15:00:00+08:00');
    expect(
      (
        await kit.subscribe(henry, {
          productId: CURRENT_PRODUCT_ID,
          amount: '10000',
          actionType: 'WALLET',
          coin: 'USDE',
        })
      ).json().statusCode,
    ).toBe(200);
    await kit.runDailyAt('2028-02-01T00:00:05+08:00');
    await kit.runDailyAt('2028-03-01T00:00:05+08:00');
    const [february] = await queryRows<{ n: number; total: string }>(
      db(),
      sql`SELECT count(*)::int AS n, sum(amount_minor)::text AS total FROM fund_accruals
          WHERE user_id = ${henry.userId} AND day BETWEEN '2028-02-01' AND '2028-02-29'`,
    );
    expect(february).toEqual({ n: 29, total: '2900' });
    expect(await fundSharesOf(kit, henry.userId)).toBe(1_002_900n);
    const interest = (await kit.get(henry, '/api/fund/v2/order?action=INTEREST')).json().content;
    expect(interest.list.map((line: { amount: string }) => line.amount)).toEqual(['29.00']);
  });
});
