import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  depositThroughCustody,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from './wallet.seed.ts';
import { coinNetworks, withdrawals } from './wallet.tables.ts';
import { withdrawBodySchema } from '@meridian/contracts/wallet';

/**
 * The withdrawal checks of the server: an unknown network is a field error on every wallet
 * call taking coin + network; burn and contract destinations are refused; the dry run
 * `POST wallet/withdraw/check` runs the withdrawal's checks and changes nothing; one-time codes are
 * checked last, are not used up by refusals that are not about them, and a replay of a stored
 * idempotent answer needs no fresh code.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let t: TestApp;

const depositUsdt = (userId: string, amount: string) => depositThroughCustody(t.app, SECRET, userId, amount);

async function fundedUser(amount = '100'): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  await depositUsdt(session.userId, amount);
  return session;
}

const available = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'USDT'));
const withdrawalCount = async (userId: string) =>
  (await t.database.db.select().from(withdrawals).where(eq(withdrawals.userId, userId))).length;

function post(
  session: TestSession,
  url: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...session.headers, 'api-version': '2.0', ...headers },
    payload,
  });
}

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
});
afterAll(async () => t.close());

describe('unknown network (item 2)', () => {
  it('answers 422/120 naming the field on withdraw, check, deposit address and address book; 135 only for a network switched off', async () => {
    const session = await fundedUser();
    for (const network of ['FOO', 'trc20', 'ERC20 ', 'Bitcoin']) {
      for (const url of ['/api/wallet/withdraw', '/api/wallet/withdraw/check']) {
        const response = await post(session, url, {
          coin: 'USDT',
          network,
          address: EXTERNAL_TRON,
          amount: '20',
          emailCaptcha: '000000',
        });
        expect(response.statusCode, `${url} ${network}`).toBe(422);
        expect(response.json()).toMatchObject({
          statusCode: 120,
          content: { fields: [{ field: 'network', message: 'Select a network' }] },
        });
      }
      const deposit = await t.app.inject({
        method: 'GET',
        url: `/api/wallet/address?coin=USDT&net=${encodeURIComponent(network)}`,
        headers: { cookie: session.cookie },
      });
      expect(deposit.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'net' }] } });
    }
    const book = await post(session, '/api/wallet/addressbook', {
      label: 'mine',
      network: 'FOO',
      address: EXTERNAL_TRON,
      emailCaptcha: '000000',
    });
    expect(book.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'network' }] } });
    const zh = await post(
      session,
      '/api/wallet/withdraw/check',
      { coin: 'USDT', network: 'FOO', address: EXTERNAL_TRON, amount: '20' },
      { 'user-lang': 'zh-HK' },
    );
    expect(zh.json().content.fields[0]).toMatchObject({ field: 'network', message: '請選擇網絡' });

    await t.database.db
      .update(coinNetworks)
      .set({ isWithdrawEnabled: false })
      .where(and(eq(coinNetworks.coinCode, 'USDT'), eq(coinNetworks.network, 'ERC20')));
    try {
      const off = await post(session, '/api/wallet/withdraw/check', {
        coin: 'USDT',
        network: 'ERC20',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        amount: '20',
      });
      expect(off.json().statusCode).toBe(135);
    } finally {
      await t.database.db
        .update(coinNetworks)
        .set({ isWithdrawEnabled: true })
        .where(and(eq(coinNetworks.coinCode, 'USDT'), eq(coinNetworks.network, 'ERC20')));
    }
  });
});

describe('burn and contract destinations (item 7)', () => {
  it('refuses them with a field error on address on the check, the withdrawal and the address book, and keeps every valid address type', async () => {
    const session = await fundedUser();
    const blocked: [string, string, string][] = [
      ['ETH', 'Ethereum', '0x0000000000000000000000000000000000000000'],
      ['USDT', 'ERC20', '0x0000000000000000000000000000000000000000'],
      ['USDC', 'ERC20', '0x000000000000000000000000000000000000dead'],
      ['USDT', 'ERC20', '0xdac17f958d2ee523a2206206994597c13d831ec7'],
      ['USDC', 'ERC20', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      ['USDT', 'TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['USDT', 'TRC20', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
      ['BTC', 'Bitcoin', '1111111111111111111114oLvT2'],
    ];
    for (const [coin, network, address] of blocked) {
      for (const url of ['/api/wallet/withdraw/check', '/api/wallet/withdraw']) {
        const response = await post(session, url, { coin, network, address, amount: '20', emailCaptcha: '000000' });
        expect(response.statusCode, `${url} ${network} ${address}`).toBe(422);
        expect(response.json().content.fields[0]).toMatchObject({
          field: 'address',
          message: expect.stringContaining('burns or loses funds'),
        });
      }
      const book = await post(session, '/api/wallet/addressbook', {
        label: 'burn',
        network,
        address,
        emailCaptcha: '000000',
      });
      expect(book.json().content.fields[0].field).toBe('address');
    }
    const zh = await post(
      session,
      '/api/wallet/withdraw/check',
      { coin: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '20' },
      { 'user-lang': 'zh-HK' },
    );
    expect(zh.json().content.fields[0].message).toContain('代幣合約地址');
    // Valid Bitcoin types (P2PKH, P2SH, P2WPKH, P2TR) pass the address checks: the user holds no BTC, so 130.
    for (const address of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
    ]) {
      expect(
        (
          await post(session, '/api/wallet/withdraw/check', {
            coin: 'BTC',
            network: 'Bitcoin',
            address,
            amount: '0.01',
          })
        ).json().statusCode,
        address,
      ).toBe(130);
    }
    expect(await available(session.userId)).toBe(100_000_000n);
    expect(await withdrawalCount(session.userId)).toBe(0);
  });
});

describe('POST wallet/withdraw/check (item 10)', () => {
  it('answers the withdrawal as it would be made, refuses what the withdrawal refuses, needs KYC and changes nothing', async () => {
    const session = await fundedUser('100');
    const body = { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' };
    const ok = await post(session, '/api/wallet/withdraw/check', body);
    expect(ok.json()).toMatchObject({
      statusCode: 200,
      content: {
        coinCode: 'USDT',
        network: 'TRC20',
        address: EXTERNAL_TRON,
        type: 'OUTER',
        amount: '20.000000',
        fee: '1.000000',
        totalDebited: '21.000000',
      },
    });
    // amount + fee above the available balance: the withdrawal's own refusal.
    expect((await post(session, '/api/wallet/withdraw/check', { ...body, amount: '99.5' })).json().statusCode).toBe(
      130,
    );
    expect(
      (await post(session, '/api/wallet/withdraw/check', { ...body, amount: '0' })).json().content.fields[0].field,
    ).toBe('amount');
    expect(
      (await post(session, '/api/wallet/withdraw/check', { ...body, address: 'not-an-address' })).json().content
        .fields[0].field,
    ).toBe('address');
    expect(await available(session.userId)).toBe(100_000_000n);
    expect(await withdrawalCount(session.userId)).toBe(0);
    const kycless = await registerAndLogin(t.app);
    expect((await post(kycless, '/api/wallet/withdraw/check', body)).json().statusCode).toBe(143);
  });
});

describe('one-time codes checked last (items 4, 5)', () => {
  it('does not use up the email code on a refused amount; the same code then works', async () => {
    const session = await fundedUser();
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const zero = await post(session, '/api/wallet/withdraw', {
      coin: 'USDT',
      network: 'TRC20',
      address: EXTERNAL_TRON,
      amount: '0',
      emailCaptcha,
    });
    expect(zero.statusCode).toBe(422);
    expect(zero.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'amount' }] } });
    const good = await post(session, '/api/wallet/withdraw', {
      coin: 'USDT',
      network: 'TRC20',
      address: EXTERNAL_TRON,
      amount: '20',
      emailCaptcha,
    });
    expect(good.json().statusCode).toBe(200);
    expect(await available(session.userId)).toBe(79_000_000n);
  });

  it('replays a stored idempotent answer with the email code already used: identical 200, one withdrawal, balance moved once; another body stays 121', async () => {
    const session = await fundedUser();
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const body = { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20', emailCaptcha };
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    const first = await post(session, '/api/wallet/withdraw', body, key);
    expect(first.json().statusCode).toBe(200);
    const again = await post(session, '/api/wallet/withdraw', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().content).toEqual(first.json().content);
    expect(await withdrawalCount(session.userId)).toBe(1);
    expect(await available(session.userId)).toBe(79_000_000n);
    expect((await post(session, '/api/wallet/withdraw', { ...body, amount: '21' }, key)).json().statusCode).toBe(121);
    expect(await withdrawalCount(session.userId)).toBe(1);
  });

  it('lets exactly one of two concurrent withdrawals with one email code succeed', async () => {
    const session = await fundedUser();
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const body = { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20', emailCaptcha };
    const answers = await Promise.all([
      post(session, '/api/wallet/withdraw', body),
      post(session, '/api/wallet/withdraw', body),
    ]);
    expect(answers.map((a) => a.json().statusCode).sort()).toEqual([119, 200]);
    expect(await withdrawalCount(session.userId)).toBe(1);
    expect(await available(session.userId)).toBe(79_000_000n);
  });

  it("uses the email code up in the withdrawal's own transaction: a withdrawal that rolls back leaves the code usable", async () => {
    const session = await fundedUser();
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const meta = { ip: null, userAgent: null, locale: 'en-US' as const, deviceId: null };
    const consumeCode = await t.app.identity.verifySensitiveAction(session.userId, 'WITHDRAW', { emailCaptcha }, meta);
    // Between the factor check and the transaction, another withdrawal drains the balance: the
    // ledger refuses this one inside its transaction, which must take the code's use with it.
    const draining = {
      check: async () =>
        void (await t.app.wallet.requestWithdrawal(
          session.userId,
          withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '90' }),
          undefined,
        )),
      consume: consumeCode,
      answeredByReplay: () => {},
    };
    await expect(
      t.app.wallet.requestWithdrawal(
        session.userId,
        withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' }),
        undefined,
        draining,
      ),
    ).rejects.toThrow();
    expect(await withdrawalCount(session.userId)).toBe(1);
    await depositUsdt(session.userId, '50');
    const retry = await post(session, '/api/wallet/withdraw', {
      coin: 'USDT',
      network: 'TRC20',
      address: EXTERNAL_TRON,
      amount: '20',
      emailCaptcha,
    });
    expect(retry.json().statusCode).toBe(200);
    expect(await withdrawalCount(session.userId)).toBe(2);
  });

  it('does not use up the code of an address-book entry refused for its address', async () => {
    const session = await fundedUser();
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW_ADDRESS_ADD');
    const bad = await post(session, '/api/wallet/addressbook', {
      label: 'cold wallet',
      network: 'TRC20',
      address: 'not-an-address',
      emailCaptcha,
    });
    expect(bad.json().content.fields[0].field).toBe('address');
    const good = await post(session, '/api/wallet/addressbook', {
      label: 'cold wallet',
      network: 'TRC20',
      address: EXTERNAL_TRON,
      emailCaptcha,
    });
    expect(good.json().statusCode).toBe(200);
  });
});
