import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  mutationHeaders,
  registerAndLogin,
  TEST_SESSION_SECRET,
  testDatabaseRegistry,
  type TestSession,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { AggregatedPrice, PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceDecimal, type PriceSymbol, PriceUnavailableError } from '../../platform/prices/types.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { signCustodyBody } from '../wallet/wallet.routes.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * The back office's user calls (docs/back-office.md: users and the dashboard) through the API on a fresh
 * database: roles (support may not freeze, compliance may; support resets 2FA and writes notes),
 * a frozen account refused with 152 on every money-moving call with nothing changed, and working
 * again once unfrozen; the 2FA reset and its 24-hour hold; search; the user page; the dashboard.
 * Operators call with bearer tokens (`app.admin.createOperator`).
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

const prices = new Map<PriceSymbol, string>([
  ['BTC', '50000'],
  ['ETH', '2500'],
  ['USDT', '1'],
  ['USDC', '1'],
  ['USDE', '1'],
]);
const oracle: PriceOracle = {
  sourceNames: ['scripted'],
  pegStatuses: () => [],
  price: async (symbol): Promise<AggregatedPrice> => {
    const price = prices.get(symbol);
    if (price === undefined) throw new PriceUnavailableError(symbol, []);
    return {
      symbol,
      priceUsd: new PriceDecimal(price),
      observedAt: app.clock.now(),
      basis: 'median',
      sources: ['scripted'],
      excluded: [],
    };
  },
};

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let supportToken: string;
let complianceToken: string;
let adminToken: string;

function op(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? mutationHeaders() : {}) },
    ...(payload ? { payload } : {}),
  });
}

async function reportDeposit(userId: string, amount: string) {
  const { address } = await app.wallet.depositAddress(userId, 'USDT', 'TRC20');
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount,
      confirmations: 20,
    },
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(response.json().statusCode).toBe(200);
}

/** A verified (level 1) user holding `amount` USDT whose trade configuration asks no code. */
async function fundedUser(amount = '1000'): Promise<TestSession> {
  const session = await registerAndLogin(app);
  await app.identity.setKycLevel(session.userId, 1);
  await database.db.execute(sql`UPDATE users SET is_trade_email_on = false WHERE id = ${session.userId}`);
  await reportDeposit(session.userId, amount);
  return session;
}

function post(session: TestSession, url: string, payload: object) {
  return app.inject({ method: 'POST', url, headers: { ...session.headers, 'api-version': '2.0' }, payload });
}
const withdraw = (session: TestSession, amount: string) =>
  post(session, '/api/wallet/withdraw', { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount });
const checkWithdraw = (session: TestSession, amount: string) =>
  post(session, '/api/wallet/withdraw/check', { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount });
async function swapUsdtToBtc(session: TestSession, amount: string) {
  const quote = await app.inject({
    method: 'GET',
    url: `/api/exchange/rate?from=USDT&to=BTC&amount=${amount}&side=from`,
    headers: { cookie: session.cookie },
  });
  expect(quote.json().statusCode).toBe(200);
  return post(session, '/api/exchange/swap', { quoteId: quote.json().content.quoteId });
}
const flash = (session: TestSession, amount: string) =>
  post(session, '/api/exchange/flash', {
    from: 'USDT',
    to: 'BTC',
    amount,
    side: 'from',
    expectedRate: '0.0000199',
    requestId: randomUUID(),
  });

/** Everything of the user's money: every ledger balance, and the withdrawal rows. */
async function moneyOf(userId: string) {
  const balances = (await userBalances(database.db, userId)).map((b) => `${b.type}:${b.asset}:${b.balanceMinor}`);
  // The wallet's table, read by SQL (a module's tables are its own; docs/architecture.md "Layout").
  const result = await database.db.execute(sql`SELECT count(*)::int AS n FROM withdrawals WHERE user_id = ${userId}`);
  const [row] = (result as unknown as { rows: { n: number }[] }).rows;
  return { balances, withdrawalCount: Number(row?.n ?? 0) };
}

const messageTitles = async (userId: string) =>
  (await app.notices.list(userId, { pageID: 1, pageSize: 20 }, 'en-US')).list.map((message) => message.title);

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'memory://',
    CUSTODY_WEBHOOK_SECRET: SECRET,
    // The run's date (scripts/date-matrix.mjs), as createTestApp does.
    TEST_CLOCK_AT: process.env.TEST_CLOCK_AT,
  });
  app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false, prices: oracle });
  await app.ready();
  testDatabaseRegistry.open.add(database);
  await seedWallet(database.db);
  supportToken = (await app.admin.createOperator('support@example.com', 'support')).token;
  complianceToken = (await app.admin.createOperator('compliance@example.com', 'compliance')).token;
  adminToken = (await app.admin.createOperator('admin@example.com', 'admin')).token;
});

afterAll(async () => {
  await app.close();
  testDatabaseRegistry.open.delete(database);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await database.dispose();
});

describe('freeze and unfreeze', () => {
  it('support may not freeze (102); compliance may, once (121 the second time); an unknown user is 104 (not found)', async () => {
    const user = await registerAndLogin(app);
    const refused = await op(supportToken, 'POST', `/users/${user.userId}/freeze`, { reason: 'fraud report' });
    expect(refused.json().statusCode).toBe(102);
    const frozen = await op(complianceToken, 'POST', `/users/${user.userId}/freeze`, { reason: 'fraud report' });
    expect(frozen.json()).toMatchObject({
      statusCode: 200,
      content: { userId: user.userId, isFrozen: true, frozenReason: 'fraud report' },
    });
    expect(frozen.json().content.frozenAt).toEqual(expect.any(String));
    const again = await op(complianceToken, 'POST', `/users/${user.userId}/freeze`, { reason: 'again' });
    expect(again.json().statusCode).toBe(121);
    const unknown = await op(complianceToken, 'POST', `/users/${randomUUID()}/freeze`, { reason: 'x' });
    expect(unknown.json().statusCode).toBe(104);
    const noReason = await op(complianceToken, 'POST', `/users/${user.userId}/unfreeze`, { reason: ' ' });
    expect(noReason.json().statusCode).toBe(120);
    const support = await op(supportToken, 'POST', `/users/${user.userId}/unfreeze`, { reason: 'cleared' });
    expect(support.json().statusCode).toBe(102);
    const unfrozen = await op(complianceToken, 'POST', `/users/${user.userId}/unfreeze`, { reason: 'cleared' });
    expect(unfrozen.json()).toMatchObject({ statusCode: 200, content: { isFrozen: false, frozenReason: null } });
    expect((await op(adminToken, 'POST', `/users/${user.userId}/unfreeze`, { reason: 'x' })).json().statusCode).toBe(
      121,
    );
    expect(await messageTitles(user.userId)).toEqual(
      expect.arrayContaining(['Your account has been frozen', 'Your account is no longer frozen']),
    );
    const zh = await app.notices.list(user.userId, { pageID: 1, pageSize: 20 }, 'zh-HK');
    expect(zh.list.map((message) => message.title)).toEqual(expect.arrayContaining(['你的帳戶已被凍結']));
  });

  it('a frozen account signs in and reads, but withdrawals (and their dry run), swaps and flash exchanges answer 152 and nothing moves', async () => {
    const user = await fundedUser('1000');
    expect((await checkWithdraw(user, '10')).json().statusCode).toBe(200);
    expect(
      (await op(complianceToken, 'POST', `/users/${user.userId}/freeze`, { reason: 'AML review' })).json().statusCode,
    ).toBe(200);
    const before = await moneyOf(user.userId);

    const self = await app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: user.cookie } });
    expect(self.json().statusCode).toBe(200);
    const balance = await app.inject({ method: 'GET', url: '/api/account/balance', headers: { cookie: user.cookie } });
    expect(balance.json().statusCode).toBe(200);

    for (const response of [
      await withdraw(user, '10'),
      await checkWithdraw(user, '10'),
      await swapUsdtToBtc(user, '10'),
      await flash(user, '10'),
    ]) {
      expect(response.statusCode).toBe(423);
      expect(response.json().statusCode).toBe(152);
    }
    expect(await moneyOf(user.userId)).toEqual(before);

    expect(
      (await op(complianceToken, 'POST', `/users/${user.userId}/unfreeze`, { reason: 'cleared' })).json().statusCode,
    ).toBe(200);
    expect((await checkWithdraw(user, '10')).json().statusCode).toBe(200);
    expect((await withdraw(user, '10')).json().statusCode).toBe(200);
    expect((await swapUsdtToBtc(user, '10')).json().statusCode).toBe(200);
    expect((await flash(user, '10')).json().statusCode).toBe(200);
    const after = await moneyOf(user.userId);
    expect(after.withdrawalCount).toBe(1);
    expect(after.balances).not.toEqual(before.balances);
  });

  it('a frozen account may still cancel its waiting withdrawal: the coins come back, nothing leaves', async () => {
    const user = await fundedUser('100');
    const requested = await withdraw(user, '10');
    expect(requested.json().statusCode).toBe(200);
    await app.identity.freezeAccount(user.userId, 'test', { email: 'compliance@example.com', ip: null });
    const cancelled = await app.inject({
      method: 'POST',
      url: `/api/wallet/withdraw/${requested.json().content.id}/cancel`,
      headers: user.headers,
    });
    expect(cancelled.json()).toMatchObject({ statusCode: 200, content: { status: 4 } });
    expect((await userBalances(database.db, user.userId)).find((b) => b.type === 'USER_AVAILABLE')?.balanceMinor).toBe(
      100_000_000n,
    );
    await app.identity.unfreezeAccount(user.userId, 'test', { email: 'compliance@example.com', ip: null });
  });

  it('the service refuses a frozen account too, whoever calls it', async () => {
    const user = await fundedUser('100');
    await app.identity.freezeAccount(user.userId, 'test', { email: 'compliance@example.com', ip: null });
    await expect(
      app.wallet.requestWithdrawal(
        user.userId,
        {
          coin: 'USDT',
          network: 'TRC20',
          address: EXTERNAL_TRON,
          amount: '10',
          amountMinor: 10_000_000n,
        } as never,
        undefined,
      ),
    ).rejects.toMatchObject({ code: 'ACCOUNT_FROZEN' });
    await expect(
      app.exchange.flash(user.userId, {
        from: 'USDT',
        to: 'BTC',
        amount: '10',
        side: 'from',
        expectedRate: '0.0000199',
        maxSlippageBps: 50,
        requestId: randomUUID(),
      } as never),
    ).rejects.toMatchObject({ code: 'ACCOUNT_FROZEN' });
    await app.identity.unfreezeAccount(user.userId, 'test', { email: 'compliance@example.com', ip: null });
  });
});

describe('reset 2FA', () => {
  it('support removes the authenticator, withdrawals are held 24 h, the session stays; 121 without one', async () => {
    const user = await fundedUser('100');
    const none = await op(supportToken, 'POST', `/users/${user.userId}/reset-2fa`, { reason: 'lost phone' });
    expect(none.json().statusCode).toBe(121);
    // An authenticator bound (the seed's value does not matter to the reset).
    await database.db.execute(
      sql`UPDATE users SET mfa_secret = 'sealed-seed', is_login_mfa_on = true, is_trade_mfa_on = true WHERE id = ${user.userId}`,
    );
    const reset = await op(supportToken, 'POST', `/users/${user.userId}/reset-2fa`, { reason: 'lost phone' });
    expect(reset.json()).toMatchObject({ statusCode: 200, content: { hasTotp: false } });
    const holdUntil = Date.parse(reset.json().content.withdrawHoldUntil);
    expect(holdUntil).toBeGreaterThan(app.clock.now().getTime() + 23.9 * 3_600_000);
    expect(holdUntil).toBeLessThan(app.clock.now().getTime() + 24.1 * 3_600_000);
    const [row] = await database.db
      .execute(
        sql`SELECT mfa_secret, is_login_mfa_on, is_trade_mfa_on, password_hash IS NOT NULL AS has_password FROM users WHERE id = ${user.userId}`,
      )
      .then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
    expect(row).toMatchObject({ mfa_secret: null, is_login_mfa_on: false, is_trade_mfa_on: false, has_password: true });
    // Nothing else revoked: the session still works; the hold refuses withdrawals.
    const self = await app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: user.cookie } });
    expect(self.json().statusCode).toBe(200);
    expect((await withdraw(user, '10')).json().statusCode).toBe(106);
    expect(await messageTitles(user.userId)).toContain('Your authenticator was removed');
    const again = await op(supportToken, 'POST', `/users/${user.userId}/reset-2fa`, { reason: 'again' });
    expect(again.json().statusCode).toBe(121);
  });
});

describe('notes, search and the user page', () => {
  it('any operator adds a note; it shows on the user page; 104 for an unknown user', async () => {
    const user = await registerAndLogin(app);
    const note = await op(supportToken, 'POST', `/users/${user.userId}/notes`, { text: 'Called about a deposit' });
    expect(note.json()).toMatchObject({
      statusCode: 200,
      content: { operatorEmail: 'support@example.com', text: 'Called about a deposit' },
    });
    const page = await op(supportToken, 'GET', `/users/${user.userId}`);
    expect(page.json().content.notes).toEqual([expect.objectContaining({ text: 'Called about a deposit' })]);
    expect((await op(supportToken, 'POST', `/users/${randomUUID()}/notes`, { text: 'x' })).json().statusCode).toBe(104);
    expect((await op(supportToken, 'GET', '/users/not-a-user')).json().statusCode).toBe(104);
  });

  it('searches by email, exact uid, name and phone, paged', async () => {
    const user = await registerAndLogin(app);
    // A basic-KYC draft with a name (the KYC module's table, seeded by SQL).
    const draft = JSON.stringify({ firstName: 'Zebedee', lastName: 'Quill' });
    await database.db.execute(sql`INSERT INTO kyc_basic (user_id, draft) VALUES (${user.userId}, ${draft}::jsonb)`);
    await database.db.execute(sql`UPDATE users SET mobile = '85291234567' WHERE id = ${user.userId}`);
    const search = async (q: string) =>
      (await op(supportToken, 'GET', `/users?q=${encodeURIComponent(q)}&pageSize=5`)).json().content;
    for (const q of [user.email.toUpperCase(), user.userId, 'zebedee q', '9123456']) {
      const page = await search(q);
      expect(
        page.list.map((row: { userId: string }) => row.userId),
        q,
      ).toContain(user.userId);
    }
    const byId = await search(user.userId);
    expect(byId.list[0]).toMatchObject({
      userId: user.userId,
      name: 'Zebedee Quill',
      phone: '85291234567',
      isFrozen: false,
    });
    expect((await search('%')).totalCount).toBe(0);
    const all = (await op(supportToken, 'GET', '/users?pageSize=2')).json().content;
    expect(all).toMatchObject({ pageID: 1, pageSize: 2 });
    expect(all.list).toHaveLength(2);
    expect(all.totalCount).toBeGreaterThan(2);
  });

  it('shows profile, verification, balances as decimal strings, sessions, history across modules and messages', async () => {
    const user = await fundedUser('250');
    expect((await swapUsdtToBtc(user, '50')).json().statusCode).toBe(200);
    const page = (await op(supportToken, 'GET', `/users/${user.userId}`)).json();
    expect(page.statusCode).toBe(200);
    const content = page.content;
    expect(content).toMatchObject({
      userId: user.userId,
      email: user.email,
      kycLevel: 1,
      isFrozen: false,
      hasTotp: false,
    });
    expect(content.verification.map((step: { step: string }) => step.step)).toEqual([
      'basic',
      'investor',
      'aml',
      'qualified',
    ]);
    expect(content.verification[0]).toMatchObject({ status: 'verified' });
    expect(content.balances).toEqual(
      expect.arrayContaining([
        { asset: 'USDT', available: '200.000000', frozen: '0.000000' },
        expect.objectContaining({ asset: 'BTC', frozen: '0.00000000' }),
      ]),
    );
    expect(content.sessions.length).toBeGreaterThan(0);
    expect(content.history.map((item: { module: string; kind: string }) => `${item.module}:${item.kind}`)).toEqual([
      'exchange:swap',
      'wallet:deposit',
    ]);
    expect(content.history[1]).toMatchObject({ asset: 'USDT', amount: '250.000000', status: 'credited' });
    expect(content.messages.length).toBeGreaterThan(0);
  });
});

describe('dashboard', () => {
  it('shows the queues against their SLA, today’s flows, the ledger check and liabilities against holdings', async () => {
    const response = await op(supportToken, 'GET', '/dashboard');
    expect(response.json().statusCode).toBe(200);
    const dashboard = response.json().content;
    expect(dashboard.queues.map((queue: { queue: string }) => queue.queue)).toEqual([
      'kyc',
      'withdrawals',
      'largeWithdrawals',
      'screeningAlerts',
      'adjustments',
    ]);
    expect(dashboard.queues[0]).toMatchObject({ slaHours: 24 });
    // One OUTER withdrawal waits (the unfrozen user's).
    expect(dashboard.queues[1]).toMatchObject({ size: 1, isOverdue: false });
    expect(dashboard.queues[4]).toMatchObject({ size: 0, oldestAt: null });
    const kinds = dashboard.today.map((flow: { kind: string; asset: string }) => `${flow.kind}:${flow.asset}`);
    expect(kinds).toEqual(expect.arrayContaining(['deposits:USDT', 'withdrawals:USDT', 'swaps:USDT']));
    const deposits = dashboard.today.find((flow: { kind: string }) => flow.kind === 'deposits');
    expect(deposits.amount).toMatch(/^\d+\.\d{6}$/);
    expect(dashboard.ledgerCheck).toMatchObject({ isOk: true, problems: [] });
    const usdt = dashboard.liabilities.find((line: { asset: string }) => line.asset === 'USDT');
    // Every USDT came in by deposit (hot wallet → users); swaps moved some to the exchange desk and
    // the withdrawal fee is frozen with the user, so users hold less than custody.
    expect(BigInt(usdt.holdings.replace('.', ''))).toBeGreaterThanOrEqual(BigInt(usdt.liabilities.replace('.', '')));
  });
});
