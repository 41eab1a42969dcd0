import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { toDecimalString } from '@meridian/contracts/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, type TestSession } from '../../../test/helpers.ts';
import { openDatabase } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import {
  balanceOf,
  createFundsKit,
  expectFundsConsistent,
  type FundsKit,
  fundSharesOf,
  minor,
} from './funds.test-kit.ts';

/**
 * The current fund end to end (exact amounts, bad input and faults; docs/funds.md "Tests"): every
 * amount below is written by hand. 10,000 USD at 3.65 % earns 10,000 × 0.0365 / 365 = 1.00 USD a
 * day; 60,000 USD on the tiers (3.65 % to 50,000, 2.00 % above) earns
 * (5,000,000 × 365 + 1,000,000 × 200) / 3,650,000 = 554.794520 cents: 5.54 credited the first day
 * and 0.00794520 USD carried, so 5.55 on most later days (decision 0008: sub-cent accrual).
 */

let kit: FundsKit;
let alice: TestSession;
let bob: TestSession;
const db = () => kit.t.database.db;
const usdt = (userId: string) => balanceOf(kit, userAccount(userId, 'USER_AVAILABLE', 'USDT'));

async function accrualsOf(userId: string): Promise<Record<string, string>> {
  const rows = await queryRows<{ day: string; amount: string }>(
    db(),
    sql`SELECT day::text AS day, amount_minor::text AS amount FROM fund_accruals WHERE user_id = ${userId} ORDER BY day`,
  );
  return Object.fromEntries(rows.map((row) => [row.day, row.amount]));
}

/** The sub-cent interest carried by the user's current holding, 10⁻⁸ USD. */
async function carryOf(userId: string): Promise<bigint> {
  const [row] = await queryRows<{ carry: string }>(
    db(),
    sql`SELECT interest_carry_e8::text AS carry FROM fund_holdings WHERE user_id = ${userId} AND kind = 'CURRENT'`,
  );
  return BigInt(row?.carry ?? '0');
}

async function ordersOf(userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`SELECT count(*)::int AS n FROM fund_orders WHERE user_id = ${userId}`,
  );
  return row?.n ?? 0;
}

beforeAll(async () => {
  kit = await createFundsKit('2026-01-30T10:00:00+08:00');
});
afterAll(async () => {
  await expectFundsConsistent(db());
  await kit.close();
});

describe('10,000 USDT into the current fund on 2026-01-30', () => {
  it('subscribes 1:1: 10,000.000000 USDT leave the wallet, 10,000.00 shares arrive that earn from the next day', async () => {
    alice = await kit.investor();
    await kit.fundWallet(alice.userId, 'USDT', 20_000_000_000n);
    const response = await kit.subscribe(alice, {
      productId: CURRENT_PRODUCT_ID,
      amount: '10000',
      actionType: 'WALLET',
      coin: 'USDT',
    });
    expect(response.json()).toMatchObject({
      statusCode: 200,
      content: {
        productId: CURRENT_PRODUCT_ID,
        type: 'CURRENT',
        action: 'SUBSCRIBE',
        amount: '10000.00',
        status: 'SUCCESS',
        coin: 'USDT',
      },
    });
    expect(await usdt(alice.userId)).toBe(10_000_000_000n);
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_000n);
    const asset = (await kit.get(alice, '/api/fund/v2/asset')).json().content;
    expect(asset).toEqual({
      historyProfit: '0.00',
      totalValue: '10000.00',
      yesterdayProfit: '0.00',
      currentProduct: {
        usableShares: '10000.00',
        unusableShares: '0.00',
        unsettleProfit: '0.00',
        historyProfit: '0.00',
        interestShares: '0.00',
        unInterestShares: '10000.00',
      },
      fixedProduct: {
        historyProfit: '0.00',
        holdingProducts: 0,
        totalShares: '0.00',
        unInterestShares: '0.00',
        unsettleProfit: '0.00',
        interestShares: '0.00',
      },
    });

    bob = await kit.investor();
    await kit.fundWallet(bob.userId, 'USDC', 60_000_000_000n);
    const tiered = await kit.subscribe(bob, {
      productId: CURRENT_PRODUCT_ID,
      amount: '60000.00',
      actionType: 'WALLET',
      coin: 'USDC',
    });
    expect(tiered.json().statusCode).toBe(200);
  });

  it('accrues nothing for the day of the subscription, 1.00 for 2026-01-31 (and 5.54 across the 50,000 tier)', async () => {
    await kit.runDailyAt('2026-01-31T00:00:05+08:00');
    expect(await accrualsOf(alice.userId)).toEqual({});
    await kit.runDailyAt('2026-02-01T00:00:05+08:00');
    expect(await accrualsOf(alice.userId)).toEqual({ '2026-01-31': '100' });
    expect(await accrualsOf(bob.userId)).toEqual({ '2026-01-31': '554' });
    const asset = (await kit.get(alice, '/api/fund/v2/asset')).json().content;
    expect(asset).toMatchObject({
      yesterdayProfit: '1.00',
      totalValue: '10001.00',
      currentProduct: { unsettleProfit: '1.00', interestShares: '10000.00', unInterestShares: '0.00' },
    });
    const earnings = (await kit.get(alice, '/api/fund/v2/earnings?days=3')).json().content;
    expect(earnings).toEqual([
      { date: '2026-01-29', profit: '0.00', currentProfit: '0.00', fixedProfit: '0.00' },
      { date: '2026-01-30', profit: '0.00', currentProfit: '0.00', fixedProfit: '0.00' },
      { date: '2026-01-31', profit: '1.00', currentProfit: '1.00', fixedProfit: '0.00' },
    ]);
    // Sunday 1 February is no business day: no payout yet.
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_000n);
  });

  it('pays January’s interest on Monday 2026-02-02 as new shares: exactly the sum, 1.00 (and 5.54)', async () => {
    await kit.runDailyAt('2026-02-02T00:00:05+08:00');
    expect(await accrualsOf(alice.userId)).toEqual({ '2026-01-31': '100', '2026-02-01': '100' });
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_100n);
    expect(await fundSharesOf(kit, bob.userId)).toBe(6_000_554n);
    const asset = (await kit.get(alice, '/api/fund/v2/asset')).json().content;
    expect(asset).toMatchObject({
      historyProfit: '1.00',
      totalValue: '10002.00',
      currentProduct: {
        usableShares: '10001.00',
        unsettleProfit: '1.00',
        historyProfit: '1.00',
        unInterestShares: '1.00',
      },
    });
    const history = (await kit.get(alice, '/api/fund/v2/order?action=INTEREST')).json().content;
    expect(history).toMatchObject({
      totalCount: 1,
      list: [{ action: 'INTEREST', amount: '1.00', status: 'SUCCESS', type: 'CURRENT' }],
    });

    // A second run the same day, or the next hour's, pays nothing more.
    await kit.runDailyAt('2026-02-02T01:00:05+08:00');
    expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_100n);
  });

  it('counts the paid shares from the next day: 2026-02-02 earns on 10,000.00, 2026-02-03 on 10,001.00', async () => {
    await kit.runDailyAt('2026-02-04T00:00:05+08:00');
    // 1,000,100 × 365 / 3,650,000 = 100.01 cents: 100 credited, 0.01 cent (10,000 e8) carried.
    expect(await accrualsOf(alice.userId)).toMatchObject({ '2026-02-02': '100', '2026-02-03': '100' });
    expect(await carryOf(alice.userId)).toBe(10_000n);
    // bob earns 554.794520 cents a day (554,794,520 e8): carry 0.794520 after the 31st, 0.589040
    // after 1 February (555 credited), 0.383560 after the 2nd (555); on the 3rd 6,000,554 shares earn
    // (5,000,000 × 365 + 1,000,554 × 200) × 10⁶ / 3,650,000 = 554,824,876 e8: 555 and 0.208436 carried.
    expect(await accrualsOf(bob.userId)).toMatchObject({ '2026-02-02': '555', '2026-02-03': '555' });
    expect(await carryOf(bob.userId)).toBe(208_436n);
  });
});

describe('every refusal names its rule and changes nothing', () => {
  let carol: TestSession;
  const body = (overrides: object) => ({
    productId: CURRENT_PRODUCT_ID,
    amount: '10',
    actionType: 'WALLET',
    coin: 'USDT',
    ...overrides,
  });

  it('refuses each amount rule with its code and message, in both languages', async () => {
    carol = await kit.investor();
    await kit.fundWallet(carol.userId, 'USDT', 100_000_000n);
    const refusals: [object, number, string][] = [
      [{ amount: '0.50' }, 160, 'Below minimum purchase share: at least 1.00 USD'],
      [{ amount: '1000000.01' }, 161, 'Above maximum purchase share: at most 1000000.00 USD'],
      [{ amount: '100.01' }, 130, 'Insufficient Balance'],
      [{ actionType: 'FUND', coin: undefined }, 166, 'This fund does not accept FUND for this'],
      [{ productId: 'NO_SUCH_FUND' }, 104, 'Not found'],
    ];
    for (const [overrides, code, message] of refusals) {
      const answer = (await kit.subscribe(carol, body(overrides))).json();
      expect({ code: answer.statusCode, message: answer.message }).toEqual({ code, message });
    }
    const zh = await kit.subscribe(carol, body({ amount: '0.5' }), { 'user-lang': 'zh-HK' });
    expect(zh.json().message).toBe('低於最低認購份額：最少 1.00 USD');
  });

  it('refuses bad input with 120 naming the field: a third decimal, zero, text, a missing coin', async () => {
    const cases: [object, string][] = [
      [{ amount: '10.001' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ amount: 'ten' }, 'amount'],
      [{ coin: undefined }, 'coin'],
      [{ coin: 'BTC' }, 'coin'],
      [{ actionType: 'CARD' }, 'actionType'],
    ];
    for (const [overrides, field] of cases) {
      const answer = (await kit.subscribe(carol, body(overrides))).json();
      expect(answer.statusCode).toBe(120);
      expect(answer.content.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('refuses redeeming more than the usable shares (164) and a fixed fund before maturity (167)', async () => {
    const answer = (
      await kit.redeem(carol, { productId: CURRENT_PRODUCT_ID, amount: '1', actionType: 'WALLET', coin: 'USDT' })
    ).json();
    expect({ code: answer.statusCode, message: answer.message }).toEqual({
      code: 164,
      message: 'Above maximum withdrawable share: at most 0.00 USD',
    });
    const [fixed] = await queryRows<{ id: string }>(
      db(),
      sql`SELECT id FROM fund_products WHERE type = 'FIXED' LIMIT 1`,
    );
    const early = (
      await kit.redeem(carol, { productId: fixed!.id, amount: '1', actionType: 'WALLET', coin: 'USDT' })
    ).json();
    expect(early.statusCode).toBe(167);
    const wrong = (await kit.subscribe(carol, body({ productId: fixed!.id, amount: '100' }))).json();
    expect(wrong.statusCode).toBe(166);
  });

  it('left everything as it was', async () => {
    expect(await usdt(carol.userId)).toBe(100_000_000n);
    expect(await fundSharesOf(kit, carol.userId)).toBe(0n);
    expect(await ordersOf(carol.userId)).toBe(0);
  });

  it('refuses a user below investor level (143)', async () => {
    const basic = await kit.investor();
    await kit.t.app.identity.setKycLevel(basic.userId, 1);
    expect((await kit.get(basic, '/api/fund/v2/asset')).json().statusCode).toBe(143);
  });
});

describe('redemptions and replays', () => {
  it('redeems to the wallet at 1:1, instantly', async () => {
    const dave = await kit.investor();
    await kit.fundWallet(dave.userId, 'USDT', 1_000_000_000n);
    expect(
      (
        await kit.subscribe(dave, { productId: CURRENT_PRODUCT_ID, amount: '1000', actionType: 'WALLET', coin: 'USDT' })
      ).json().statusCode,
    ).toBe(200);
    const answer = (
      await kit.redeem(dave, { productId: CURRENT_PRODUCT_ID, amount: '250.25', actionType: 'WALLET', coin: 'USDE' })
    ).json();
    expect(answer).toMatchObject({
      statusCode: 200,
      content: { action: 'REDEEM', amount: '250.25', coin: 'USDE', status: 'SUCCESS' },
    });
    expect(await fundSharesOf(kit, dave.userId)).toBe(74_975n);
    expect(await balanceOf(kit, userAccount(dave.userId, 'USER_AVAILABLE', 'USDE'))).toBe(250_250_000n);
  });

  it('two concurrent redemptions of all the shares: one succeeds, the other is refused (164)', async () => {
    const erin = await kit.investor();
    await kit.fundWallet(erin.userId, 'USDT', 500_000_000n);
    await kit.t.app.funds.subscribe(
      erin.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(50_000n), actionType: 'WALLET', coin: 'USDT' },
      undefined,
    );
    const redeemAll = () =>
      kit.t.app.funds
        .redeem(
          erin.userId,
          { productId: CURRENT_PRODUCT_ID, amountMinor: minor(50_000n), actionType: 'WALLET', coin: 'USDT' },
          undefined,
        )
        .then(
          () => 'OK',
          (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
        );
    const outcomes = await Promise.all([redeemAll(), redeemAll()]);
    expect(outcomes.sort()).toEqual(['FUND_ABOVE_MAX_REDEEM', 'OK']);
    expect(await fundSharesOf(kit, erin.userId)).toBe(0n);
    expect(await usdt(erin.userId)).toBe(500_000_000n);
  });

  it('answers a retry with the same Idempotency-Key from the first order, and refuses the key with another body (121)', async () => {
    const frank = await kit.investor();
    await kit.fundWallet(frank.userId, 'USDT', 300_000_000n);
    const request = { productId: CURRENT_PRODUCT_ID, amount: '100', actionType: 'WALLET', coin: 'USDT' };
    const first = (await kit.subscribe(frank, request, { 'idempotency-key': 'fund-k1' })).json();
    const second = (await kit.subscribe(frank, request, { 'idempotency-key': 'fund-k1' })).json();
    expect(second.content.id).toBe(first.content.id);
    expect(await usdt(frank.userId)).toBe(200_000_000n);
    const other = (await kit.subscribe(frank, { ...request, amount: '101' }, { 'idempotency-key': 'fund-k1' })).json();
    expect(other.statusCode).toBe(121);
    expect(await usdt(frank.userId)).toBe(200_000_000n);
  });
});

describe('accrual exactly once per (holding, day)', () => {
  it('a run killed half-way and run again, then run twice more, accrues 2026-02-04 once (on PostgreSQL two batches at a time, as the funds.daily job)', async () => {
    // On PostgreSQL the funds.daily job accrues two batches at once on two pooled connections.
    const connections = testDatabaseKind === 'postgres' ? 2 : 1;
    kit.clock.set('2026-02-05T00:00:05+08:00');
    const partial = await kit.t.app.funds.accrueDay(db(), '2026-02-04', { batchSize: 1, batchesMax: 3, connections });
    expect(partial).toMatchObject({ isPartial: true, batchCount: 3 });
    const [recorded] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM fund_accrual_days WHERE day = '2026-02-04'`,
    );
    expect(recorded?.n).toBe(0); // the day is recorded only after its last batch
    // The rest as the job runs it: the accrual on the pool, maturities (and here the payout: none due) in `db`.
    await kit.t.app.funds.runDaily(db(), {
      batchSize: 1,
      ...(testDatabaseKind === 'postgres' ? { accrualPool: { db: db(), connections } } : {}),
    });
    expect(await kit.t.app.funds.runAccrual(db())).toEqual([]);
    const again = await kit.t.app.funds.accrueDay(db(), '2026-02-04', { batchSize: 1, connections });
    expect(again).toMatchObject({ holdingCount: 0, totalMinor: 0n });
    const [ledger] = await queryRows<{ entries: number; total: string; days: number; recordedTotal: string }>(
      db(),
      sql`SELECT count(*)::int AS entries, sum(p.amount_minor)::text AS total,
            (SELECT count(*)::int FROM fund_accrual_days WHERE day = '2026-02-04') AS days,
            (SELECT sum(amount_minor)::text FROM fund_accruals WHERE day = '2026-02-04') AS "recordedTotal"
          FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id AND p.amount_minor > 0
          WHERE e.reference = 'fund-accrual:2026-02-04'`,
    );
    // One entry per batch that accrued (alice's and bob's holdings), together exactly the accruals.
    expect(ledger).toEqual({ entries: 2, total: '655', days: 1, recordedTotal: '655' });
    const rows = await queryRows<{ holding_id: string; n: number; total: string }>(
      db(),
      sql`SELECT holding_id::text, count(*)::int AS n, sum(amount_minor)::text AS total FROM fund_accruals WHERE day = '2026-02-04' GROUP BY holding_id`,
    );
    expect(rows.every((row) => row.n === 1)).toBe(true);
    // alice 100 (carry 0.010000 + 1.000100 → 1.00, 0.020000 carried) + bob 555 (carry 0.208436 +
    // 5.548249 → 5.55); dave, erin and frank subscribed on 2026-02-04 itself, so they earn from the 5th.
    expect(rows.reduce((sum, row) => sum + BigInt(row.total), 0n)).toBe(655n);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('two server processes on one PostgreSQL', () => {
  it('pay March’s payout (February’s interest) once', async () => {
    const url = (kit.t.database as { url?: string }).url!;
    const second = await openDatabase({ kind: 'postgres', url, poolMax: 5 });
    try {
      const other = kit.serviceWith({ db: second.db });
      kit.clock.set('2026-03-02T00:00:05+08:00');
      await Promise.all([kit.t.app.funds.runDaily(), other.runDaily()]);
      await Promise.all([kit.t.app.funds.runDaily(), other.runDaily()]);
      // February for alice: 28 days × 1.00 (1,000,100 cents earn 100.01 → 100 a day).
      expect(await fundSharesOf(kit, alice.userId)).toBe(1_000_100n + 2_800n);
      const history = (await kit.get(alice, '/api/fund/v2/order?action=INTEREST')).json().content;
      expect(history).toMatchObject({
        totalCount: 2,
        list: [
          { id: 'payout:2026-03', amount: '28.00' },
          { id: 'payout:2026-02', amount: '1.00' },
        ],
      });
      const [days] = await queryRows<{ n: number; dup: number }>(
        db(),
        sql`SELECT count(DISTINCT day)::int AS n, (SELECT count(*)::int FROM (SELECT holding_id, day FROM fund_accruals GROUP BY 1, 2 HAVING count(*) > 1) d) AS dup FROM fund_accruals`,
      );
      expect(days?.dup).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('the monthly payout is set-based and pays once', () => {
  it('waits for the accrual of the month before, then a run killed half-way, a rerun and a forced third run pay April once (on PostgreSQL two batches at a time): Σ per holding = Σ batches = the ledger', async () => {
    // On PostgreSQL the funds.payout job pays two batches at once on two connections.
    const connections = testDatabaseKind === 'postgres' ? 2 : 1;
    kit.clock.set('2026-04-01T00:00:05+08:00'); // Wednesday 1 April 2026, a Hong Kong business day
    // 31 March is not accrued yet: no payout, nothing moves.
    expect(await kit.t.app.funds.runPayout(db())).toBeNull();
    await kit.t.app.funds.runAccrual(db());
    const accruedBefore = await balanceOf(kit, platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'));
    const sharesBefore = await fundSharesOf(kit, alice.userId);

    const partial = await kit.t.app.funds.runPayout(db(), { batchSize: 1, batchesMax: 2, connections });
    expect(partial?.isPartial).toBe(true);
    const rest = await kit.t.app.funds.runPayout(db(), { batchSize: 1, connections });
    expect(rest?.isPartial).toBe(false);
    expect(await kit.t.app.funds.runPayout(db(), { batchSize: 1 })).toBeNull(); // the month is recorded as paid
    // Even with the month's record gone, a run with other batches pays nobody again.
    await db().execute(sql`DELETE FROM fund_payouts WHERE month = '2026-04'`);
    const forced = await kit.t.app.funds.runPayout(db(), { batchSize: 1000, connections });
    expect(forced).toMatchObject({ holdingCount: 0, totalMinor: 0n });

    // Each holding was paid exactly its accruals since the previous payout's month, once.
    const holdings = await queryRows<{ id: string; paid: string; expected: string; month: string | null }>(
      db(),
      sql`SELECT h.id::text, h.last_payout_minor::text AS paid, h.last_payout_month AS month,
            (SELECT coalesce(sum(a.amount_minor), 0)::text FROM fund_accruals a WHERE a.holding_id = h.id
              AND a.day < '2026-04-01' AND a.day >= ((SELECT max(month) FROM fund_payouts WHERE month < '2026-04') || '-01')::date) AS expected
          FROM fund_holdings h WHERE h.kind = 'CURRENT' ORDER BY h.id`,
    );
    const payable = holdings.filter((h) => BigInt(h.expected) > 0n);
    expect(payable.length).toBeGreaterThan(1);
    for (const holding of payable) expect(holding).toMatchObject({ month: '2026-04', paid: holding.expected });
    const perHolding = payable.reduce((total, h) => total + BigInt(h.paid), 0n);
    expect(partial!.totalMinor + rest!.totalMinor).toBe(perHolding);
    expect(partial!.holdingCount + rest!.holdingCount).toBe(payable.length);
    const [batches] = await queryRows<{
      n: number;
      total: string;
      holdings: number;
      entries: number;
      credited: string;
    }>(
      db(),
      sql`SELECT count(*)::int AS n, sum(total_minor)::text AS total, sum(holding_count)::int AS holdings,
            (SELECT count(*)::int FROM ledger_entries WHERE reference = 'fund-payout:2026-04') AS entries,
            (SELECT sum(p.amount_minor)::text FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
              WHERE e.reference = 'fund-payout:2026-04' AND p.amount_minor > 0) AS credited
          FROM fund_payout_batches WHERE month = '2026-04'`,
    );
    expect(batches).toEqual({
      n: payable.length,
      total: perHolding.toString(),
      holdings: payable.length,
      entries: payable.length,
      credited: perHolding.toString(),
    });
    const accruedAfter = await balanceOf(kit, platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'));
    expect(accruedBefore - accruedAfter).toBe(perHolding);

    // alice's shares grew by her payout once, and her history shows it as one line per month.
    const aliceHolding = await queryRows<{ paid: string }>(
      db(),
      sql`SELECT last_payout_minor::text AS paid FROM fund_holdings WHERE user_id = ${alice.userId} AND kind = 'CURRENT'`,
    );
    const aliceMinor = BigInt(aliceHolding[0]!.paid);
    expect(aliceMinor).toBeGreaterThan(0n);
    expect(await fundSharesOf(kit, alice.userId)).toBe(sharesBefore + aliceMinor);
    const history = (await kit.get(alice, '/api/fund/v2/order?action=INTEREST')).json().content;
    expect(history.list[0]).toMatchObject({
      id: 'payout:2026-04',
      action: 'INTEREST',
      type: 'CURRENT',
      status: 'SUCCESS',
      amount: toDecimalString(aliceMinor, 'USD'),
    });
    expect(history.list.filter((line: { id: string }) => line.id === 'payout:2026-04')).toHaveLength(1);
    expect(history.list.at(-1)).toMatchObject({ id: 'payout:2026-02', amount: '1.00' });
  });
});
