import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  followTestClock,
  registerAndLogin,
  sensitiveCode,
  testDatabaseRegistry,
  type TestSession,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { eventMessages, messageCount } from '../notices/notices.test-kit.ts';
import { depositForTest, scriptedOracle } from './loans.test-kit.ts';
import { manualClock } from '../../platform/clock/clock.ts';

/**
 * The user's loan money events each write exactly one message in their transaction (docs/notices.md
 * "Money events"): borrow, repay (in part, in full), collateral added and withdrawn — read in en-US
 * and zh-HK with the amounts formatted; none for a refused request; none again for a replay.
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
/** A signed-in level-2 user holding `btcMinor` satoshi. */
async function borrower(btcMinor: bigint): Promise<TestSession> {
  const session = await registerAndLogin(app);
  await app.identity.setKycLevel(session.userId, 2);
  await deposit(session.userId, 'BTC', btcMinor);
  return session;
}

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

const messagesOf = (session: TestSession, key: string) => eventMessages(app, database.db, session, key);

describe('loan money events', () => {
  it('a loan taken writes one message; its replay writes none; a refused borrow writes none', async () => {
    const user = await borrower(50_000_000n);
    const body = { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10000' };
    const borrowed = await post(user, '/api/loan/borrow', body, 'LOAN_BORROW', 'borrow-1');
    expect(borrowed.statusCode).toBe(200);
    const replay = await post(user, '/api/loan/borrow', body, 'LOAN_BORROW', 'borrow-1');
    expect(replay.content.orderId).toBe(borrowed.content.orderId);
    const before = await messageCount(database.db, user.userId);
    const refused = await post(
      user,
      '/api/loan/borrow',
      { ...body, collateralAmount: '0.2', principal: '10000' },
      'LOAN_BORROW',
    );
    expect(refused.statusCode).not.toBe(200);
    expect(await messageCount(database.db, user.userId)).toBe(before);
    const messages = await messagesOf(user, 'loan.borrowed');
    expect(messages.count).toBe(1);
    const orderId = borrowed.content.orderId;
    expect(messages['en-US'][0]).toMatchObject({
      category: 'LOAN',
      title: `Loan ${orderId} taken`,
      body: '10,000.00 USDT was paid into your wallet against 0.30000000 BTC of collateral, for 30 days at 98.63 USDT interest. Repay by 2026-12-19.',
      link: '/my/order/loan/history',
    });
    expect(messages['zh-HK'][0]).toMatchObject({
      title: `借款 ${orderId} 已成功`,
      body: '10,000.00 USDT 已存入你的錢包，抵押品為 0.30000000 BTC，期限 30 日，利息 98.63 USDT。請於 2026-12-19 前還款。',
    });
  });

  it('collateral added and withdrawn write one message each; a refused withdrawal writes none', async () => {
    const user = await borrower(50_000_000n);
    const borrowed = await post(
      user,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10000' },
      'LOAN_BORROW',
    );
    const orderId = borrowed.content.orderId;
    const add = { orderId, direction: 'ADD', amount: '0.1' };
    expect((await post(user, '/api/loan/adjust', add, 'LOAN_ADJUST', 'add-1')).statusCode).toBe(200);
    expect((await post(user, '/api/loan/adjust', add, 'LOAN_ADJUST', 'add-1')).statusCode).toBe(200);
    const before = await messageCount(database.db, user.userId);
    const tooMuch = { orderId, direction: 'REMOVE', amount: '0.12' };
    expect((await post(user, '/api/loan/adjust', tooMuch, 'LOAN_ADJUST')).statusCode).toBe(184);
    expect(await messageCount(database.db, user.userId)).toBe(before);
    const remove = { orderId, direction: 'REMOVE', amount: '0.05' };
    expect((await post(user, '/api/loan/adjust', remove, 'LOAN_ADJUST')).statusCode).toBe(200);
    const added = await messagesOf(user, 'loan.collateral_added');
    expect(added.count).toBe(1);
    expect(added['en-US'][0]).toMatchObject({
      title: `Collateral added to loan ${orderId}`,
      body: `0.10000000 BTC moved from your wallet to the collateral of loan ${orderId}. Collateral now 0.40000000 BTC. LTV 67.33% → 50.50%.`,
      link: '/my/order/loan/adjust',
    });
    expect(added['zh-HK'][0]!.body).toBe(
      `0.10000000 BTC 已由你的錢包轉入借款 ${orderId} 的抵押品。現時抵押品為 0.40000000 BTC。貸款價值比率 67.33% → 50.50%。`,
    );
    const withdrawn = await messagesOf(user, 'loan.collateral_withdrawn');
    expect(withdrawn.count).toBe(1);
    expect(withdrawn['en-US'][0]!.body).toMatch(
      /^0\.05000000 BTC of the collateral of loan \d+ was returned to your wallet\. Collateral now 0\.35000000 BTC\./,
    );
    expect(withdrawn['zh-HK'][0]!.title).toBe(`借款 ${orderId} 已提取抵押品`);
  });

  it('a repayment in part and then in full write one message each; a refused repayment writes none', async () => {
    const user = await borrower(50_000_000n);
    const borrowed = await post(
      user,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10000' },
      'LOAN_BORROW',
    );
    const orderId = borrowed.content.orderId;
    const part = { orderId, repayType: 'WALLET', amount: '1000' };
    expect((await post(user, '/api/loan/repay', part, 'LOAN_REPAY', 'repay-1')).statusCode).toBe(200);
    expect((await post(user, '/api/loan/repay', part, 'LOAN_REPAY', 'repay-1')).statusCode).toBe(200);
    const partMessages = await messagesOf(user, 'loan.repaid');
    expect(partMessages.count).toBe(1);
    expect(partMessages['en-US'][0]).toMatchObject({
      title: `Repayment on loan ${orderId}`,
      link: '/my/order/loan/repay',
    });
    expect(partMessages['en-US'][0]!.body).toMatch(
      /^You repaid 1,000\.00 USDT from your wallet: interest 98\.63 USDT, principal /,
    );
    expect(partMessages['zh-HK'][0]!.body).toMatch(/^你已從錢包還款 1,000\.00 USDT：利息 98\.63 USDT，本金 /);
    // More than the wallet holds: refused, no message.
    const before = await messageCount(database.db, user.userId);
    const refused = await post(user, '/api/loan/repay', { orderId, repayType: 'WALLET' }, 'LOAN_REPAY');
    expect(refused.statusCode).toBe(130);
    expect(await messageCount(database.db, user.userId)).toBe(before);
    await deposit(user.userId, 'USDT', 2_000_000_000n);
    const full = await post(user, '/api/loan/repay', { orderId, repayType: 'WALLET' }, 'LOAN_REPAY');
    expect(full.statusCode).toBe(200);
    const closed = await messagesOf(user, 'loan.repaid_closed');
    expect(closed.count).toBe(1);
    expect(closed['en-US'][0]!.title).toBe(`Loan ${orderId} repaid`);
    expect(closed['en-US'][0]!.body).toContain(
      'The loan is closed and 0.30000000 BTC of collateral was returned to your wallet.',
    );
    expect(closed['zh-HK'][0]!.body).toContain('借款已結清，0.30000000 BTC 抵押品已退回你的錢包。');
  });
});
