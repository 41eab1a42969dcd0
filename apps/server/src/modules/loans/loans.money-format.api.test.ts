import { formatMoney, MONEY_ROUNDING } from '@meridian/contracts/money-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, followTestClock, registerAndLogin, testDatabaseRegistry } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { manualClock } from '../../platform/clock/clock.ts';
import { moneyParam } from '../notices/notices.service.ts';
import { depositForTest, scriptedOracle } from './loans.test-kit.ts';

/**
 * One number format everywhere (docs/money-format.md): the margin-call message and the loan card
 * show the liquidation price as the same string. The standard loan (0.3 BTC, 10,000 USDT for 30
 * days at 12 %) owes 10,098.630137 USDT; its liquidation price is 10,098.630137 ÷ (0.3 × 0.9) =
 * 37,402.3338407… → 37,402.33384075 on the wire, shown rounded up to the cent (the safe side, it
 * warns earlier): "$37,402.34" (en-US), "US$37,402.34" (zh-HK). The loan card's own test
 * (apps/web/src/features/loans/components/loan-card.test.tsx) renders the same wire value.
 */
const clock = manualClock('2026-11-20T04:00:00Z');
const market = { btc: '50000', isDown: false, ageMs: 0 };
const oracle = scriptedOracle(clock, market);

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

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
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
});

describe('a liquidation price reads the same in the margin-call message and on the loan card', () => {
  it('renders "$37,402.34" in both, and "US$37,402.34" in zh-HK', async () => {
    const user = await registerAndLogin(app);
    await app.identity.setKycLevel(user.userId, 2);
    await depositForTest(database.db, user.userId, 'BTC', 35_000_000n);
    const order = await app.loans.borrow(
      user.userId,
      { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
      'format-borrow',
    );
    market.btc = '41000'; // 10,098.630137 ÷ (0.3 × 41,000) = 82.10 %: the 75 % warning and the margin call
    await app.loans.tickEngine();

    const read = async (url: string, locale: 'en-US' | 'zh-HK') =>
      (await app.inject({ method: 'GET', url, headers: { cookie: user.cookie, 'User-Lang': locale } })).json().content;
    const [loan] = (await read(`/api/loan/order/list?orderId=${order.orderId}`, 'en-US')).list;
    expect(loan.liquidationPrice).toBe('37402.33384075');

    for (const [locale, shown] of [
      ['en-US', '$37,402.34'],
      ['zh-HK', 'US$37,402.34'],
    ] as const) {
      // What the loan card shows for the API's value (apps/web/src/features/loans/components/loan-card.tsx).
      const onCard = formatMoney(loan.liquidationPrice, 'USD', { locale, rounding: MONEY_ROUNDING.liquidationPrice });
      expect(onCard).toBe(shown);
      const messages: { title: string; body: string }[] = (await read('/api/notice/message/list', locale)).list;
      const marginCall = messages.find((message) => /^(Margin call|追加保證金通知)/.test(message.title));
      expect(marginCall?.body).toContain(locale === 'en-US' ? `falls to ${shown} (LTV 90%)` : `跌至 ${shown}（`);
      // The market price in the same message: to the nearest cent, with the same symbol.
      expect(marginCall?.body).toContain(
        locale === 'en-US' ? 'at a BTC price of $41,000.00.' : 'BTC 價格 US$41,000.00 時',
      );
    }
  });

  it('formats amounts in messages in the reader’s language at read time', async () => {
    const user = await registerAndLogin(app);
    await app.notices.notify({
      userId: user.userId,
      category: 'DEPOSIT',
      title: { 'en-US': 'Deposit credited', 'zh-HK': '充值已到帳' },
      body: { 'en-US': '{amount} has been credited.', 'zh-HK': '{amount} 已存入你的錢包。' },
      params: { amount: moneyParam('1009.863014', 'USDT') },
    });
    for (const [locale, body] of [
      ['en-US', '1,009.86 USDT has been credited.'],
      ['zh-HK', '1,009.86 USDT 已存入你的錢包。'],
    ] as const) {
      const list = (
        await app.inject({
          method: 'GET',
          url: '/api/notice/message/list',
          headers: { cookie: user.cookie, 'User-Lang': locale },
        })
      ).json().content.list as { body: string }[];
      expect(list.map((message) => message.body)).toContain(body);
    }
  });
});
