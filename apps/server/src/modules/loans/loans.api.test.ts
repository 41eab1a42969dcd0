import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  followTestClock,
  registerAndLogin,
  sensitiveCode,
  testDatabaseKind,
  testDatabaseRegistry,
  type TestSession,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { accountBalance, platformBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { loanEngineAlarms, loans } from './loans.tables.ts';
import { depositForTest, scriptedOracle } from './loans.test-kit.ts';
import { manualClock } from '../../platform/clock/clock.ts';

/**
 * Loans through the real app on a scripted BTC price and a controlled clock. The
 * exact-amount scenarios' expected numbers are worked out by hand in the comments (BTC 50,000,
 * 10,000 USDT for 30 days at 12 %, 0.3 BTC collateral):
 *   interest  = 10,000 × 0.12 × 30 ÷ 365 = 98.630136986… → rounded up 98.630137 USDT
 *   debt      = 10,098.630137; collateral value 0.3 × 50,000 = 15,000 → LTV 67.3242… % → "67.33"
 *   liq price = 10,098.630137 ÷ (0.3 × 0.9) = 37,402.333840740… → rounded up 37,402.33384075
 *   margin    = 10,098.630137 ÷ (0.3 × 0.8) = 42,077.625570833… → 42,077.62557084
 * The ledger invariants are checked after the file.
 */
const clock = manualClock('2026-11-20T04:00:00Z'); // 12:00 in Hong Kong, 20 Nov
const market = { btc: '50000', isDown: false, ageMs: 0 };
const oracle = scriptedOracle(clock, market);

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let keyCount = 0;
const nextKey = () => `k-${(keyCount += 1)}`;

async function deposit(userId: string, coin: 'USDT' | 'BTC', amountMinor: bigint): Promise<void> {
  await depositForTest(database.db, userId, coin, amountMinor);
}
const wallet = (userId: string, coin: 'USDT' | 'BTC') =>
  accountBalance(database.db, userAccount(userId, 'USER_AVAILABLE', coin));
const collateral = (userId: string) => accountBalance(database.db, userAccount(userId, 'USER_LOAN_COLLATERAL', 'BTC'));

/** A signed-in level-2 user holding `btcMinor` satoshi. */
async function borrower(btcMinor: bigint): Promise<TestSession> {
  const session = await registerAndLogin(app);
  await app.identity.setKycLevel(session.userId, 2);
  await deposit(session.userId, 'BTC', btcMinor);
  return session;
}

const get = async (session: TestSession | null, url: string) =>
  (await app.inject({ method: 'GET', url, headers: session ? { cookie: session.cookie } : {} })).json();
const post = async (session: TestSession, url: string, payload: object, event: string, key = nextKey()) => {
  // The 59 s resend cooldown of email codes is identity's rule, not these tests': age the codes past it.
  await database.db.execute(
    sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
  );
  const emailCaptcha = await sensitiveCode(app, session, event);
  return (
    await app.inject({
      method: 'POST',
      url,
      headers: { ...session.headers, [HEADER_IDEMPOTENCY_KEY]: key },
      payload: { ...payload, emailCaptcha },
    })
  ).json();
};
/** The standard loan of the scenarios through the service (no security check): 0.3 BTC, 10,000 USDT, 30 days. */
const borrowStandard = (session: TestSession) =>
  app.loans.borrow(
    session.userId,
    { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
    nextKey(),
  );
const loanRow = async (orderId: string) =>
  (
    await database.db
      .select()
      .from(loans)
      .where(eq(loans.id, Number(orderId)))
  )[0]!;
/** The user's LOAN messages (read with SQL: tests of a module reach another only through its service). */
const loanMessages = async (userId: string): Promise<{ title: string }[]> => {
  const result = await database.db.execute(
    sql`SELECT title FROM notice_messages WHERE user_id = ${userId} AND category = 'LOAN' ORDER BY id`,
  );
  return (result as unknown as { rows: { title: string }[] }).rows;
};

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://' });
  app = await buildApp({
    config,
    database,
    sessionSecret: 'test-secret-'.padEnd(48, 'x'),
    logger: false,
    clock,
    prices: oracle,
  });
  await app.ready();
  followTestClock(app, database, clock);
});

afterAll(async () => {
  const report = await checkLedgerInvariants(database.db);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
  expect(report.isHeld).toBe(true);
});

describe('loan coins, config and calculator', () => {
  it('serves the seeded rules to guests: terms and APRs, daily rate APR ÷ 365, LTV levels, maximum, fees', async () => {
    const config = (await get(null, '/api/loan/config')).content;
    expect(config.terms).toEqual([
      { termDays: 30, annualRatePct: '12', dailyRatePct: '0.0328767123' },
      { termDays: 90, annualRatePct: '10', dailyRatePct: '0.0273972603' },
      { termDays: 180, annualRatePct: '9', dailyRatePct: '0.0246575342' },
      { termDays: 360, annualRatePct: '8', dailyRatePct: '0.0219178082' },
    ]);
    expect(config).toMatchObject({
      initialLtvPct: '70',
      marginCallLtvPct: '80',
      liquidationLtvPct: '90',
      alertLtvPcts: ['75', '80', '85'],
      maxOutstandingUsd: '1000000.00',
      liquidationFeePct: '2',
      earlyRepayFeePct: '2',
      overdueGraceDays: 3,
      overdueRateMultiplier: 3,
      cureWindowMinutes: 60,
      hardLiquidationLtvPct: '95',
    });
    const coins = (await get(null, '/api/loan/coins')).content;
    expect(coins.collateralCoins).toEqual([{ coin: 'BTC', isEnabled: true }]);
    expect(coins.loanCoins.map((coin: { coin: string }) => coin.coin)).toEqual(['USDT', 'USDC', 'USDE']);
    expect(coins.loanCoins[0].minPrincipal).toBe('100.000000');
  });

  it('calculates the scenario loan exactly, and the largest principal for a collateral', async () => {
    const calc = (await get(null, '/api/loan/calc?loanCoin=USDT&termDays=30&collateralAmount=0.3&principal=10000'))
      .content;
    expect(calc).toMatchObject({
      interest: '98.630137',
      totalRepay: '10098.630137',
      ltvPct: '67.33',
      liquidationPrice: '37402.33384075',
      marginCallPrice: '42077.62557084',
      price: '50000.00',
      repaymentDate: '2026-12-19',
    });
    // 0.3 BTC at 70 %: 10,500 = p × (1 + 0.12 × 30 ÷ 365) → p = 10,397.449810092…, rounded down;
    // its interest ⌈102.550189…⌉ = 102.550190, so p + interest = 10,500.000000 exactly.
    const max = (await get(null, '/api/loan/calc?loanCoin=USDT&termDays=30&collateralAmount=0.3')).content;
    expect(max.maxPrincipal).toBe('10397.449810');
    expect(Number(max.ltvPct)).toBeLessThanOrEqual(70);
  });

  it('refuses bad calculator input naming the field', async () => {
    const term = await get(null, '/api/loan/calc?loanCoin=USDT&termDays=45&principal=100');
    expect(term.statusCode).toBe(120);
    expect(term.content.fields[0].field).toBe('termDays');
    const coin = await get(null, '/api/loan/calc?loanCoin=DOGE&termDays=30&principal=100');
    expect(coin.content.fields[0].field).toBe('loanCoin');
    const precision = await get(null, '/api/loan/calc?loanCoin=USDT&termDays=30&principal=1.0000001');
    expect(precision.content.fields[0].field).toBe('principal');
  });
});

describe('borrow, repay early, records (HTTP)', () => {
  it('borrows 10,000 USDT against 0.3 BTC in one entry, repays on day 10 with full interest + 200 USDT', async () => {
    const user = await borrower(50_000_000n); // 0.5 BTC
    const borrowed = await post(
      user,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10000' },
      'LOAN_BORROW',
    );
    expect(borrowed.statusCode).toBe(200);
    const order = borrowed.content;
    expect(order).toMatchObject({
      status: 3,
      collateralAmount: '0.30000000',
      principal: '10000.000000',
      interest: '98.630137',
      debt: '10098.630137',
      ltvPct: '67.33',
      liquidationPrice: '37402.33384075',
      repaymentDate: '2026-12-19',
    });
    expect(await wallet(user.userId, 'BTC')).toBe(20_000_000n);
    expect(await collateral(user.userId)).toBe(30_000_000n);
    expect(await wallet(user.userId, 'USDT')).toBe(10_000_000_000n);
    expect(await platformBalance(database.db, 'PLATFORM_LOAN_POOL', 'USDT')).toBeLessThanOrEqual(-10_000_000_000n);

    // Day 10: early. 98.630137 interest + 10,000 principal + 2 % × 10,000 = 200 → 10,298.630137.
    clock.advance(10 * 86_400_000);
    await deposit(user.userId, 'USDT', 298_630_137n);
    const calc = (await get(user, `/api/loan/repay/calc?orderId=${order.orderId}`)).content;
    expect(calc).toMatchObject({
      amount: '10298.630137',
      interest: '98.630137',
      principal: '10000.000000',
      fee: '200.000000',
      isFull: true,
      statusAfter: 6,
      collateralReleased: '0.30000000',
    });
    const repaid = await post(user, '/api/loan/repay', { orderId: order.orderId }, 'LOAN_REPAY');
    expect(repaid.statusCode).toBe(200);
    expect(repaid.content).toMatchObject({ amount: '10298.630137', fee: '200.000000', statusAfter: 6 });
    expect(await wallet(user.userId, 'USDT')).toBe(0n);
    expect(await wallet(user.userId, 'BTC')).toBe(50_000_000n);
    expect(await collateral(user.userId)).toBe(0n);
    const list = (await get(user, '/api/loan/order/list')).content;
    expect(list.list[0]).toMatchObject({ status: 6, debt: '0.000000', closeTime: expect.any(String) });
    expect((await get(user, '/api/loan/order/list?isCurrent=true')).content.totalCount).toBe(0);
    const records = (await get(user, '/api/loan/repay/record')).content;
    expect(records.totalCount).toBe(1);
    expect(records.list[0]).toMatchObject({ orderId: order.orderId, repayType: 'WALLET', origin: 'USER' });
    // A second repayment of the closed loan is refused.
    const again = await post(user, '/api/loan/repay', { orderId: order.orderId }, 'LOAN_REPAY');
    expect(again.statusCode).toBe(189);
    clock.advance(-10 * 86_400_000);
  });

  it('refuses every bad borrow with its code and moves nothing', async () => {
    const user = await borrower(50_000_000n);
    const attempt = (payload: object) =>
      app.loans
        .borrow(user.userId, payload as Parameters<typeof app.loans.borrow>[1], nextKey())
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code);
    // (10,500 + 103.561644) ÷ 15,000 = 70.6904 % > 70 %.
    expect(
      await attempt({ loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_500_000_000n }),
    ).toBe('LOAN_LTV_TOO_HIGH');
    expect(
      await attempt({ loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 50_000_000n }),
    ).toBe('LOAN_BELOW_MIN');
    expect(
      await attempt({
        loanCoin: 'USDT',
        termDays: 30,
        collateralMinor: 4_000_000_000n,
        principalMinor: 1_000_001_000_000n,
      }),
    ).toBe('LOAN_ABOVE_MAX');
    expect(
      await attempt({ loanCoin: 'USDT', termDays: 30, collateralMinor: 60_000_000n, principalMinor: 1_000_000_000n }),
    ).toBe('INSUFFICIENT_BALANCE');
    const http = await post(
      user,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10500' },
      'LOAN_BORROW',
    );
    expect(http.statusCode).toBe(184);
    // 70.6904 %, shown rounded up (never lower than it is).
    expect(http.message).toContain('70.70');
    const badTerm = await post(
      user,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 31, collateralAmount: '0.3', principal: '100' },
      'LOAN_BORROW',
    );
    expect(badTerm.statusCode).toBe(120);
    expect(badTerm.content.fields[0].field).toBe('termDays');
    expect(await wallet(user.userId, 'BTC')).toBe(50_000_000n);
    expect(await collateral(user.userId)).toBe(0n);
  });

  it('adds collateral, refuses removing past 70 %, removes what keeps 70 %', async () => {
    const user = await borrower(50_000_000n);
    const order = await borrowStandard(user);
    const add = await post(
      user,
      '/api/loan/adjust',
      { orderId: order.orderId, direction: 'ADD', amount: '0.1' },
      'LOAN_ADJUST',
    );
    expect(add.statusCode).toBe(200);
    expect(add.content).toMatchObject({ collateralAfter: '0.40000000', ltvBeforePct: '67.33', ltvAfterPct: '50.50' });
    // 0.4 BTC − 0.12 = 0.28 → 10,098.630137 ÷ 14,000 = 72.13 % > 70 %.
    const calc = (await get(user, `/api/loan/adjust/calc?orderId=${order.orderId}&direction=REMOVE&amount=0.12`))
      .content;
    expect(calc.ltvAfterPct).toBe('72.14');
    // Most removable: 0.4 − ⌈10,098.630137 ÷ (0.7 × 50,000)⌉ = 0.4 − 0.28853229 = 0.11146771.
    expect(calc.maxRemovable).toBe('0.11146771');
    const refused = await post(
      user,
      '/api/loan/adjust',
      { orderId: order.orderId, direction: 'REMOVE', amount: '0.12' },
      'LOAN_ADJUST',
    );
    expect(refused.statusCode).toBe(184);
    const removed = await post(
      user,
      '/api/loan/adjust',
      { orderId: order.orderId, direction: 'REMOVE', amount: '0.11146771' },
      'LOAN_ADJUST',
    );
    expect(removed.statusCode).toBe(200);
    expect(Number(removed.content.ltvAfterPct)).toBeLessThanOrEqual(70);
    const records = (await get(user, '/api/loan/adjust/record')).content;
    expect(records.list.map((item: { direction: string }) => item.direction)).toEqual(['REMOVE', 'ADD']);
  });
});

describe('account overview', () => {
  it('shows the collateral and the debt of current loans as the LoanAccount (net of both)', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    await borrowStandard(user);
    const balance = (await get(user, '/api/wallet/balance')).content;
    const line = balance.wallet.accounts.find(
      (account: { accountType: string }) => account.accountType === 'LoanAccount',
    );
    // 0.3 BTC × 50,000 = 15,000.00 pledged; 10,098.630137 USDT owed → net 4,901.37 (each line rounded toward zero).
    expect(line).toEqual({
      accountType: 'LoanAccount',
      totalUsd: '4901.37',
      assets: [
        { coinCode: 'BTC', type: 'frozen', amount: '0.30000000', convert: '15000.00' },
        { coinCode: 'USDT', type: 'available', amount: '-10098.630137', convert: '-10098.63' },
      ],
    });
    const asset = (await get(user, '/api/loan/asset')).content;
    expect(asset).toMatchObject({
      collateralAmount: '0.30000000',
      collateralUsd: '15000.00',
      debtUsd: '10098.630137',
      currentCount: 1,
      ltvPct: '67.33',
      remainingLimitUsd: '990000.000000',
    });
  });
});

describe('overdue, concurrency', () => {
  it('overdue by 2 days: 3 × daily interest for 2 days, status 4 then 8', async () => {
    clock.set('2026-11-20T04:00:00Z');
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    // Borrowed 12:00 HKT on 20 Nov for 30 natural days (20 Nov … 19 Dec): due 2026-12-19 23:59 HKT;
    // now 2026-12-21 12:00 HK → 2 natural days overdue.
    clock.set('2026-12-21T04:00:00Z');
    await app.loans.tickOverdue();
    const row = await loanRow(order.orderId);
    expect(row.status).toBe(4);
    // 10,000 × 0.12 × 3 × 2 ÷ 365 = 19.726027397… → 19.726028.
    expect(row.overdueInterestMinor).toBe(19_726_028n);
    const calc = await app.loans.repayCalc(user.userId, {
      orderId: order.orderId,
      repayType: 'WALLET',
      amountMinor: undefined,
    });
    // 98.630137 + 19.726028 + 10,000, no early charge.
    expect(calc).toMatchObject({
      amount: '10118.356165',
      overdueInterest: '19.726028',
      fee: '0.000000',
      statusAfter: 8,
    });
    await deposit(user.userId, 'USDT', 118_356_165n);
    const record = await app.loans.repay(
      user.userId,
      { orderId: order.orderId, repayType: 'WALLET', amountMinor: undefined },
      nextKey(),
    );
    expect(record.statusAfter).toBe(8);
    expect(await wallet(user.userId, 'BTC')).toBe(30_000_000n);
    clock.set('2026-11-20T04:00:00Z');
  });

  it('two concurrent full repayments make one', async () => {
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    await deposit(user.userId, 'USDT', 10_000_000_000n);
    const repay = () =>
      app.loans
        .repay(user.userId, { orderId: order.orderId, repayType: 'WALLET', amountMinor: undefined }, nextKey())
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code);
    const outcomes = await Promise.all([repay(), repay()]);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(1);
    // The early charge was paid once: 20,000 − 10,298.630137.
    expect(await wallet(user.userId, 'USDT')).toBe(9_701_369_863n);
  });

  it('a partial repayment pays interest first, then principal with its early charge', async () => {
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    // 1,000 offered: 98.630137 interest; 901.369863 left → principal p with p + ⌈2 % p⌉ ≤ it: 883.695944 + 17.673919.
    const calc = await app.loans.repayCalc(user.userId, {
      orderId: order.orderId,
      repayType: 'WALLET',
      amountMinor: 1_000_000_000n,
    });
    expect(calc).toMatchObject({ interest: '98.630137', principal: '883.695944', fee: '17.673919', isFull: false });
    expect(calc.amount).toBe('1000.000000');
  });
});

/** The default cure window (docs/decisions/0005-margin-call-before-liquidation.md), in ms. */
const CURE_WINDOW_MS = 60 * 60_000;

describe('liquidation engine', () => {
  it('a price at the liquidation price liquidates partially back to 70 % with the fee, once per price event', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    market.btc = '37402.33384075';
    // LTV 90.00 % (under the hard 95 %): this event sends the margin call and liquidates nothing of
    // this loan; the cure window's end does (docs/decisions/0005-margin-call-before-liquidation.md).
    await app.loans.tickEngine();
    expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
    expect(
      (await app.loans.listOrders(user.userId, { pageID: 1, pageSize: 10, isCurrent: true })).list[0],
    ).toMatchObject({
      marginCallDeadline: new Date(clock.now().getTime() + CURE_WINDOW_MS).toISOString(),
    });
    clock.advance(CURE_WINDOW_MS - 1);
    await app.loans.tickEngine();
    expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
    clock.advance(1);
    const report = await app.loans.tickEngine();
    // Every open loan of this file at 37,402.33 or above is a candidate; this user's is one of them.
    expect(report!.partial).toBeGreaterThanOrEqual(1);
    expect(report!.alarm).toBeNull();
    // S = (10,098.630137 − 0.7 × 11,220.700152225) ÷ 0.28 = 8,014.7858…; ⌈S ÷ P⌉ = 0.21428572 BTC;
    // proceeds ⌊0.21428572 × P⌋ = 8,014.786036; fee ⌈2 %⌉ = 160.295721; repaid 7,854.490315
    // (98.630137 interest + 7,755.860178 principal); debt after 2,244.139822 on 0.08571428 BTC.
    const receipts = (await get(null, '/api/loan/liquidation/record')).statusCode;
    expect(receipts).toBe(101);
    const [receipt] = (await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(receipt).toMatchObject({
      kind: 'PARTIAL',
      price: '37402.33384075',
      priceSources: ['scripted-a', 'scripted-b', 'scripted-c'],
      collateralSold: '0.21428572',
      fee: '160.295721',
      debtRepaid: '7854.490315',
      collateralReturned: '0.00000000',
      shortfall: '0.000000',
      ltvBeforePct: '90.00',
      ltvAfterPct: '70.00',
      statusAfter: 3,
    });
    const row = await loanRow(order.orderId);
    expect(row.status).toBe(3);
    expect(row.collateralMinor).toBe(8_571_428n);
    expect(row.outstandingPrincipalMinor).toBe(2_244_139_822n);
    expect(row.liquidationPrice).toBe('29090.70333568');
    // The same price event again: nothing more.
    expect(await app.loans.tickEngine()).toMatchObject({ partial: 0, full: 0 });
    const messages = await loanMessages(user.userId);
    expect(messages.some((message) => message.title.includes('liquidated'))).toBe(true);
    market.btc = '50000';
  });

  it('adding collateral under the margin-call level cures the margin call; the next crossing starts a new window', async () => {
    market.btc = '50000';
    const user = await borrower(35_000_000n);
    const order = await borrowStandard(user);
    const marginCalls = async () =>
      (await loanMessages(user.userId)).filter((message) => message.title.startsWith('Margin call')).length;
    const deadline = async () =>
      (await app.loans.listOrders(user.userId, { pageID: 1, pageSize: 10, isCurrent: true })).list[0]!
        .marginCallDeadline;
    market.btc = '41000'; // 10,098.630137 ÷ (0.3 × 41,000) = 82.10 %: 75 % warning and the margin call
    await app.loans.tickEngine();
    expect(await marginCalls()).toBe(1);
    expect(await deadline()).toBe(new Date(clock.now().getTime() + CURE_WINDOW_MS).toISOString());
    // + 0.05 BTC: 10,098.630137 ÷ (0.35 × 41,000) = 70.37 % < 80 %: cured, no deadline.
    await app.loans.adjust(
      user.userId,
      { orderId: order.orderId, direction: 'ADD', amountMinor: 5_000_000n },
      nextKey(),
    );
    expect(await deadline()).toBeNull();
    clock.advance(CURE_WINDOW_MS);
    market.btc = '36000'; // ÷ (0.35 × 36,000) = 80.15 %: a new margin call, a new window from now
    await app.loans.tickEngine();
    expect(await marginCalls()).toBe(2);
    expect(await deadline()).toBe(new Date(clock.now().getTime() + CURE_WINDOW_MS).toISOString());
    market.btc = '32000'; // ÷ (0.35 × 32,000) = 90.17 %: the 85 % message; not liquidated inside the new window
    await app.loans.tickEngine();
    expect(await marginCalls()).toBe(3);
    expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
    clock.advance(CURE_WINDOW_MS);
    await app.loans.tickEngine();
    const [receipt] = (await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(receipt).toMatchObject({ kind: 'PARTIAL', ltvBeforePct: '90.17', ltvAfterPct: '70.00' });
    expect(await deadline()).toBeNull(); // back at 70 %: the margin call is over
    market.btc = '50000';
  });

  it('a crash below the debt liquidates fully and books the shortfall to the platform', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    market.btc = '30000';
    const report = await app.loans.tickEngine();
    expect(report!.full).toBeGreaterThanOrEqual(1);
    // LTV 10,098.630137 ÷ 9,000 = 112.21 % ≥ the hard 95 %: liquidated at once, the margin call
    // announced in the same event before the receipt (docs/decisions/0006-shortfall-income.md):
    // 0.3 × 30,000 = 9,000 proceeds, all of it principal (principal first); interest 0; fee 0;
    // shortfall 10,098.630137 − 9,000 = 1,098.630137 = 1,000 principal paid by PLATFORM_LOAN_LOSS
    // + 98.630137 interest written off (never booked as income).
    const [receipt] = (await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(receipt).toMatchObject({
      kind: 'FULL',
      collateralSold: '0.30000000',
      fee: '0.000000',
      debtRepaid: '9000.000000',
      principalRepaid: '9000.000000',
      interestRepaid: '0.000000',
      principalLoss: '1000.000000',
      shortfall: '1098.630137',
      collateralReturned: '0.00000000',
      statusAfter: 5,
      ltvAfterPct: null,
    });
    expect((await loanRow(order.orderId)).status).toBe(5);
    expect(await collateral(user.userId)).toBe(0n);
    expect(await wallet(user.userId, 'USDT')).toBe(10_000_000_000n); // the borrowed coins stay the user's
    // Income is only what was collected: this entry credits neither interest nor fees.
    const [{ postings } = { postings: [] }] = (
      (await database.db.execute(
        sql`SELECT coalesce(json_agg(json_build_object('type', a.type, 'amount', p.amount_minor::text)), '[]') AS postings
            FROM loan_liquidations l JOIN ledger_postings p ON p.entry_id = l.entry_id
            JOIN ledger_accounts a ON a.id = p.account_id WHERE l.id = ${Number(receipt!.id)}`,
      )) as unknown as { rows: { postings: { type: string; amount: string }[] }[] }
    ).rows;
    expect(postings.map((posting) => `${posting.type} ${posting.amount}`).sort()).toEqual([
      'PLATFORM_LOAN_LIQUIDATION -9000000000',
      'PLATFORM_LOAN_LIQUIDATION 30000000',
      'PLATFORM_LOAN_LOSS -1000000000',
      'PLATFORM_LOAN_POOL 10000000000',
      'USER_LOAN_COLLATERAL -30000000',
    ]);
    // The loan taken, then every level crossed, in order, before the receipt's message (75 % a
    // warning; 80 % and 85 % margin calls).
    const messages = (await loanMessages(user.userId)).map((message) => message.title.split(':')[0]);
    expect(messages).toEqual([
      `Loan ${order.orderId} taken`,
      'LTV warning',
      'Margin call',
      'Margin call',
      `Loan ${order.orderId} liquidated`,
    ]);
    market.btc = '50000';
  });

  it('an engine run killed in the middle of a batch changes nothing; the rerun liquidates each loan once', async () => {
    market.btc = '50000';
    const first = await borrower(30_000_000n);
    const second = await borrower(30_000_000n);
    const firstOrder = await borrowStandard(first);
    await borrowStandard(second);
    market.btc = '36000';
    const event = { price: { priceUsd: new PriceDecimal('36000'), observedAt: clock.now(), sources: ['scripted-a'] } };
    await expect(
      database.db.transaction(async (tx) => {
        await app.loans.runPriceEvent(tx, event, clock.now());
        throw new Error('killed mid-batch');
      }),
    ).rejects.toThrow('killed mid-batch');
    const receipts = async (session: TestSession) =>
      (await app.loans.liquidationRecords(session.userId, { pageID: 1, pageSize: 10 })).totalCount;
    expect([await receipts(first), await receipts(second)]).toEqual([0, 0]);
    expect((await loanRow(firstOrder.orderId)).collateralMinor).toBe(30_000_000n);
    expect(await collateral(first.userId)).toBe(30_000_000n);
    // LTV 93.5 %: the first event sends the margin calls, the first after the cure window liquidates.
    await app.loans.tickEngine();
    clock.advance(CURE_WINDOW_MS);
    await app.loans.tickEngine();
    await app.loans.tickEngine();
    expect([await receipts(first), await receipts(second)]).toEqual([1, 1]);
    market.btc = '50000';
  });

  it('no price, or a stale one → no liquidation and an alarm', async () => {
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    market.btc = '20000';
    market.isDown = true; // the pipeline refuses (e.g. one source's outlier left too few agreeing sources)
    expect(await app.loans.tickEngine()).toMatchObject({ alarm: 'PRICE_UNAVAILABLE', partial: 0, full: 0 });
    market.isDown = false;
    market.ageMs = 120_000;
    expect(await app.loans.tickEngine()).toMatchObject({ alarm: 'PRICE_STALE', partial: 0, full: 0 });
    market.ageMs = 0;
    expect((await loanRow(order.orderId)).status).toBe(3);
    const [alarms] = await database.db.select({ n: sql<number>`count(*)::int` }).from(loanEngineAlarms);
    expect(alarms!.n).toBeGreaterThanOrEqual(2);
    // Close it out at a sane price so later tests start clean.
    market.btc = '50000';
    await deposit(user.userId, 'USDT', 298_630_137n);
    await app.loans.repay(
      user.userId,
      { orderId: order.orderId, repayType: 'WALLET', amountMinor: undefined },
      nextKey(),
    );
  });

  it('margin-call alerts fire once per crossing and re-arm 2 points below', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    await borrowStandard(user);
    const alerts = async () =>
      (await loanMessages(user.userId)).filter(
        (message) => message.title.startsWith('Margin call') || message.title.startsWith('LTV warning'),
      ).length;
    market.btc = '44000'; // 76.51 % → 75 % crossed
    await app.loans.tickEngine();
    expect(await alerts()).toBe(1);
    market.btc = '43000'; // 78.29 %: no new level
    await app.loans.tickEngine();
    expect(await alerts()).toBe(1);
    market.btc = '41000'; // 82.11 %: 80 % crossed
    await app.loans.tickEngine();
    expect(await alerts()).toBe(2);
    market.btc = '50000'; // 67.33 %: both re-armed
    await app.loans.tickEngine();
    market.btc = '44000';
    await app.loans.tickEngine();
    expect(await alerts()).toBe(3);
    market.btc = '50000';
    await app.loans.tickEngine();
  });

  it('a protection rule adds collateral from the wallet before liquidation', async () => {
    market.btc = '50000';
    const user = await borrower(60_000_000n);
    const order = await borrowStandard(user);
    await app.loans.setProtection(user.userId, {
      orderId: order.orderId,
      isEnabled: true,
      action: 'ADD_COLLATERAL',
      triggerLtvPct: 80,
      targetLtvPct: 60,
      maxAmountMinor: 30_000_000n,
    });
    market.btc = '37000'; // LTV 90.98 % → the rule acts first: collateral for 60 % = ⌈10,098.630137 ÷ (0.6 × 37,000)⌉
    const report = await app.loans.tickEngine();
    expect(report!.protections).toBeGreaterThanOrEqual(1);
    const row = await loanRow(order.orderId);
    expect(row.collateralMinor).toBe(45_489_325n);
    expect(row.status).toBe(3);
    // Back at 60 %: not liquidated at this price.
    expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
    const adjustments = (await app.loans.adjustRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(adjustments[0]).toMatchObject({
      origin: 'PROTECTION',
      direction: 'ADD',
      amount: '0.15489325',
      ltvAfterPct: '60.00',
    });
    market.btc = '50000';
  });

  it('a REPAY protection rule repays from the wallet back to its target, early charge included', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    const rule = await post(
      user,
      '/api/loan/protection',
      {
        orderId: order.orderId,
        isEnabled: true,
        action: 'REPAY',
        triggerLtvPct: 80,
        targetLtvPct: 60,
        maxAmount: '5000',
      },
      'LOAN_ADJUST',
    );
    expect(rule.statusCode).toBe(200);
    expect((await get(user, `/api/loan/protection?orderId=${order.orderId}`)).content).toMatchObject({
      action: 'REPAY',
      triggerLtvPct: 80,
      targetLtvPct: 60,
      maxAmount: '5000.000000',
      lastRunTime: null,
    });
    market.btc = '41000'; // 10,098.630137 ÷ 12,300 = 82.10 % ≥ 80 %
    await app.loans.tickEngine();
    // Debt must fall to 60 % × 12,300 = 7,380: by 2,718.630137 = 98.630137 interest + 2,620 principal,
    // plus the early charge 2 % × 2,620 = 52.40 → 2,771.030137 from the wallet.
    const [record] = (await app.loans.repayRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(record).toMatchObject({
      origin: 'PROTECTION',
      amount: '2771.030137',
      interest: '98.630137',
      principal: '2620.000000',
      fee: '52.400000',
      statusAfter: 3,
    });
    expect((await loanRow(order.orderId)).outstandingPrincipalMinor).toBe(7_380_000_000n);
    const [listed] = (await get(user, `/api/loan/order/list?orderId=${order.orderId}`)).content.list;
    expect(listed).toMatchObject({ ltvPct: '60.00', hasProtection: true });
    market.btc = '50000';
  });

  it('a REPAY protection rule funded from the current fund redeems shares (whole cents, rounded up) and repays', async () => {
    market.btc = '50000';
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user); // 10,000 USDT into the wallet
    const subscribed = await post(
      user,
      '/api/fund/v2/subscribe',
      { productId: 'EXW_CURRENT_PRODUCT', amount: '3000', actionType: 'WALLET', coin: 'USDT' },
      'PURCHASE',
    );
    expect(subscribed.statusCode).toBe(200);
    const rule = await post(
      user,
      '/api/loan/protection',
      {
        orderId: order.orderId,
        isEnabled: true,
        action: 'REPAY',
        triggerLtvPct: 80,
        targetLtvPct: 60,
        maxAmount: '5000',
        repaySource: 'FUND',
      },
      'LOAN_ADJUST',
    );
    expect(rule.content).toMatchObject({ action: 'REPAY', repaySource: 'FUND' });
    market.btc = '41000';
    await app.loans.tickEngine();
    // The same 2,771.030137 USDT as from the wallet (previous test): 2,771.04 USD of shares are
    // redeemed (a whole cent up), so 0.009863 USDT stays in the wallet beside the 7,000 left there.
    const [record] = (await app.loans.repayRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(record).toMatchObject({ origin: 'PROTECTION', amount: '2771.030137', statusAfter: 3 });
    expect(await wallet(user.userId, 'USDT')).toBe(7_000_009_863n);
    expect(await accountBalance(database.db, userAccount(user.userId, 'USER_FUND', 'USD'))).toBe(22_896n);
    const history = (await get(user, '/api/fund/v2/order?pageID=1&pageSize=10')).content.list;
    expect(history[0]).toMatchObject({ action: 'REDEEM', actionType: 'WALLET', coin: 'USDT', amount: '2771.04' });
    // A second price event at the same LTV (60 %) does not act again.
    market.btc = '41001';
    await app.loans.tickEngine();
    expect((await app.loans.repayRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(1);
    // ADD_COLLATERAL always takes the wallet's BTC: a FUND source is not kept for it.
    const addRule = await post(
      user,
      '/api/loan/protection',
      {
        orderId: order.orderId,
        isEnabled: true,
        action: 'ADD_COLLATERAL',
        triggerLtvPct: 80,
        targetLtvPct: 60,
        maxAmount: '0.1',
        repaySource: 'FUND',
      },
      'LOAN_ADJUST',
    );
    expect(addRule.content).toMatchObject({ action: 'ADD_COLLATERAL', repaySource: 'WALLET' });
    market.btc = '50000';
  });

  it('the dev price route (never in production) sets the BTC price and runs one price event', async () => {
    const user = await borrower(30_000_000n);
    const order = await borrowStandard(user);
    const set = async (price: string | null) =>
      (
        await app.inject({ method: 'POST', url: '/api/dev/loan/price', headers: user.headers, payload: { price } })
      ).json();
    expect((await set('37402.33384075')).statusCode).toBe(200); // the margin call; the cure window runs
    expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
    clock.advance(CURE_WINDOW_MS);
    const answer = await set('37402.33384075');
    expect(answer.statusCode).toBe(200);
    expect(answer.content.partial).toBeGreaterThanOrEqual(1);
    const [receipt] = (await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).list;
    expect(receipt).toMatchObject({ orderId: order.orderId, kind: 'PARTIAL', priceSources: ['dev-price'] });
    expect((await set(null)).statusCode).toBe(200);
    const bad = await set('-1');
    expect(bad.statusCode).toBe(120);
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'while the leader holds the engine lock, another process does not act',
    async () => {
      const user = await borrower(30_000_000n);
      await borrowStandard(user);
      market.btc = '30000';
      let inner: unknown = 'not run';
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${0x4a0b}, hashtext('loans.engine'))`);
        inner = await app.loans.tickEngine({ asLeader: true });
      });
      expect(inner).toBeNull();
      market.btc = '50000';
      expect((await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount).toBe(0);
      await deposit(user.userId, 'USDT', 298_630_137n);
      const [open] = (await app.loans.listOrders(user.userId, { pageID: 1, pageSize: 10, isCurrent: true })).list;
      await app.loans.repay(
        user.userId,
        { orderId: open!.orderId, repayType: 'WALLET', amountMinor: undefined },
        nextKey(),
      );
    },
  );
});

describe('races', () => {
  it('a borrow and a collateral removal racing never leave a loan above 70 %', async () => {
    market.btc = '50000';
    const user = await borrower(60_000_000n);
    const first = await borrowStandard(user);
    const outcomes = await Promise.all([
      app.loans
        .borrow(
          user.userId,
          { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
          nextKey(),
        )
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code),
      app.loans
        .adjust(user.userId, { orderId: first.orderId, direction: 'REMOVE', amountMinor: 1_500_000n }, nextKey())
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code),
    ]);
    expect(outcomes).toContain('ok');
    const current = await app.loans.listOrders(user.userId, { pageID: 1, pageSize: 10, isCurrent: true });
    for (const order of current.list) expect(Number(order.ltvPct)).toBeLessThanOrEqual(70);
    expect(await wallet(user.userId, 'BTC')).toBeGreaterThanOrEqual(0n);
  });
});
