import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  mutationHeaders,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { signCustodyBody } from './wallet.routes.ts';
import { seedWallet } from './wallet.seed.ts';
import { withdrawBodySchema } from '@meridian/contracts/wallet';

/**
 * The wallet through the real app and the real identity module (sessions, security check, KYC
 * gate): coins and networks, deposit addresses, the signed custody webhook crediting exactly once,
 * withdrawals OUTER and INTERNAL with their state machine and operator API, idempotency, history,
 * the address book, and concurrent withdrawals that never overspend. Amounts are USDT on TRC20
 * (6 decimals; minimum 10, fee 1, 20 confirmations) unless said otherwise.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let t: TestApp;
let deliveries = 0;

function webhook(
  event: Record<string, unknown>,
  options: { deliveryId?: string; sentAt?: Date; secret?: string } = {},
) {
  deliveries += 1;
  const raw = JSON.stringify({
    deliveryId: options.deliveryId ?? `d-${deliveries}-${randomUUID()}`,
    sentAt: (options.sentAt ?? t.app.clock.now()).toISOString(),
    event,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: {
      'content-type': 'application/json',
      'x-custody-signature': signCustodyBody(options.secret ?? SECRET, raw),
    },
    payload: raw,
  });
}

async function depositUsdt(userId: string, amount: string, options: { txHash?: string; confirmations?: number } = {}) {
  const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
  return webhook({
    type: 'deposit',
    network: 'TRC20',
    coin: 'USDT',
    address,
    txHash: options.txHash ?? `tx-${randomUUID()}`,
    outputIndex: 0,
    amount,
    confirmations: options.confirmations ?? 20,
  });
}

const available = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'USDT'));
const frozen = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_FROZEN', 'USDT'));

async function verifiedUser(): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  return session;
}

async function withdraw(session: TestSession, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
  return t.app.inject({
    method: 'POST',
    url: '/api/wallet/withdraw',
    headers: { ...session.headers, 'api-version': '2.0', ...headers },
    payload: { emailCaptcha, ...body },
  });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
});
afterAll(async () => t.close());

describe('coins and networks', () => {
  it('lists the seeded coins with their networks and exact limits', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/coinlist' })).json().content;
    expect(list.map((c: { coinCode: string }) => c.coinCode)).toEqual(['USDE', 'USDT', 'USDC', 'BTC', 'ETH', 'EURE']);
    // EURE (Monerium's EUR token) on Ethereum and Gnosis Chain, 6 decimals.
    const eure = (await t.app.inject({ method: 'GET', url: '/api/wallet/network?coin=EURE' })).json().content;
    expect(eure.map((net: { network: string; withdrawMin: string }) => [net.network, net.withdrawMin])).toEqual([
      ['ERC20', '20.000000'],
      ['Gnosis', '5.000000'],
    ]);
    const usdt = (await t.app.inject({ method: 'GET', url: '/api/wallet/network?coin=USDT' })).json().content;
    expect(usdt).toEqual([
      {
        network: 'ERC20',
        withdrawMin: '20.000000',
        withdrawMax: '500000.000000',
        withdrawFee: '5.000000',
        confirmationsRequired: 12,
        isDepositEnabled: true,
        isWithdrawEnabled: true,
      },
      {
        network: 'TRC20',
        withdrawMin: '10.000000',
        withdrawMax: '500000.000000',
        withdrawFee: '1.000000',
        confirmationsRequired: 20,
        isDepositEnabled: true,
        isWithdrawEnabled: true,
      },
    ]);
    const config = (await t.app.inject({ method: 'GET', url: '/api/wallet/coin/config' })).json().content;
    expect(config.find((c: { coinCode: string }) => c.coinCode === 'BTC').nets[0]).toMatchObject({
      network: 'Bitcoin',
      withdrawFee: '0.00020000',
      confirmationsRequired: 2,
    });
  });
});

describe('deposit addresses', () => {
  it('gives each user one address per chain, stable, shared by ETH and ERC20 tokens, and needs a session', async () => {
    const alice = await registerAndLogin(t.app);
    const get = (session: TestSession | null, query: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/wallet/address?${query}`,
        headers: session ? { cookie: session.cookie } : {},
      });
    expect((await get(null, 'coin=USDT&net=TRC20&action=deposit')).json().statusCode).toBe(101);
    const first = (await get(alice, 'coin=USDT&net=TRC20&action=deposit')).json().content;
    expect(first).toMatchObject({ coinCode: 'USDT', network: 'TRC20', confirmationsRequired: 20 });
    expect(first.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect((await get(alice, 'coin=USDT&net=TRC20')).json().content.address).toBe(first.address);
    const erc20 = (await get(alice, 'coin=USDC&net=ERC20')).json().content.address;
    expect(erc20).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await get(alice, 'coin=ETH&net=Ethereum')).json().content.address).toBe(erc20);
    expect((await get(alice, 'coin=BTC&net=Bitcoin')).json().content.address).toMatch(/^bc1q/);
    const bob = await registerAndLogin(t.app);
    expect((await get(bob, 'coin=USDT&net=TRC20')).json().content.address).not.toBe(first.address);
    // A network the coin does not have is the client's mistake, naming the field.
    expect((await get(alice, 'coin=BTC&net=TRC20')).json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'net' }] },
    });
  });
});

describe('custody webhook', () => {
  it('refuses a bad signature, a stale timestamp, an unknown address, a bad amount and a disabled network, crediting nothing', async () => {
    const userId = randomUUID();
    const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
    const event = {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: 'tx-refused',
      outputIndex: 0,
      amount: '5',
      confirmations: 20,
    };
    expect((await webhook(event, { secret: 'wrong-secret-'.padEnd(40, 'y') })).json().statusCode).toBe(137);
    expect(
      (await webhook(event, { sentAt: new Date(t.app.clock.now().getTime() - 6 * 60_000) })).json().statusCode,
    ).toBe(137);
    expect((await webhook({ ...event, address: EXTERNAL_TRON })).json().statusCode).toBe(139);
    const precise = (await webhook({ ...event, amount: '5.0000001' })).json();
    expect(precise.statusCode).toBe(120);
    expect(precise.content.fields[0].field).toBe('event.amount');
    expect((await webhook({ ...event, amount: '0' })).json().statusCode).toBe(120);
    expect((await webhook({ ...event, coin: 'BTC' })).json().statusCode).toBe(136);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/custody/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ deliveryId: 'x', sentAt: t.app.clock.now().toISOString(), event }),
    });
    expect(unsigned.json().statusCode).toBe(137);
    expect(await available(userId)).toBe(0n);
  });

  it('keeps a deposit pending below the confirmations and credits it once when they are reached', async () => {
    const userId = randomUUID();
    const first = (await depositUsdt(userId, '250', { txHash: 'tx-conf', confirmations: 3 })).json();
    expect(first.content).toMatchObject({ isDuplicateDelivery: false, status: 'PENDING' });
    expect(await available(userId)).toBe(0n);
    const done = (await depositUsdt(userId, '250', { txHash: 'tx-conf', confirmations: 20 })).json();
    expect(done.content).toMatchObject({ status: 'CREDITED', depositId: first.content.depositId });
    const again = (await depositUsdt(userId, '250', { txHash: 'tx-conf', confirmations: 25 })).json();
    expect(again.content.status).toBe('CREDITED');
    expect(await available(userId)).toBe(250_000_000n);
    // The same output reported with another amount is refused, not merged.
    expect((await depositUsdt(userId, '251', { txHash: 'tx-conf' })).json().statusCode).toBe(121);
  });

  it('credits once when the same delivery arrives 10 times concurrently', async () => {
    const userId = randomUUID();
    const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
    const event = {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: 'tx-burst',
      outputIndex: 1,
      amount: '42.5',
      confirmations: 20,
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => webhook(event, { deliveryId: 'delivery-burst' })),
    );
    expect(answers.every((a) => a.json().statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.json().content.isDuplicateDelivery === false)).toHaveLength(1);
    expect(await available(userId)).toBe(42_500_000n);
  });
});

describe('withdrawals over HTTP', () => {
  it('needs basic KYC, validates address and amount naming the field, then freezes amount + fee (status 0)', async () => {
    const session = await registerAndLogin(t.app);
    await depositUsdt(session.userId, '100');
    const kycless = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw',
      headers: session.headers,
      payload: { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' },
    });
    expect(kycless.json().statusCode).toBe(143);
    expect(kycless.json().content).toMatchObject({ step: 'basic', route: '/identity/basic' });
    await t.app.identity.setKycLevel(session.userId, 1);

    const badAddress = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw',
      headers: session.headers,
      payload: {
        coin: 'USDT',
        network: 'TRC20',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        amount: '20',
        emailCaptcha: '000000',
      },
    });
    // The request is validated before the security check: the address is refused first and nothing moves.
    expect(badAddress.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'address' }] } });

    const refused = await withdraw(session, {
      coin: 'USDT',
      network: 'TRC20',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      amount: '20',
    });
    expect(refused.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'address', message: 'This is not a valid address on the TRC20 network' }] },
    });
    expect(await available(session.userId)).toBe(100_000_000n);
  });

  it('refuses over-precise, below-minimum and above-balance amounts', async () => {
    const userId = randomUUID();
    await depositUsdt(userId, '100');
    const body = { coin: 'USDT' as const, network: 'TRC20', address: EXTERNAL_TRON };
    // The contract reads the amount (format, precision, zero), the service checks the limits.
    const fieldOf = async (amount: string) => {
      const parsed = withdrawBodySchema.safeParse({ ...body, amount });
      if (!parsed.success)
        return parsed.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`).join(', ');
      try {
        await t.app.wallet.requestWithdrawal(userId, parsed.data, undefined);
        return 'OK';
      } catch (error) {
        return error instanceof FieldError ? `${error.field}:${error.messageKey}` : String(error);
      }
    };
    expect(await fieldOf('20.0000001')).toBe('amount:validation.amountPrecision');
    expect(await fieldOf('9.999999')).toBe('amount:validation.withdrawMin');
    expect(await fieldOf('0')).toBe('amount:validation.amountPositive');
    expect(await fieldOf('500000.000001')).toBe('amount:validation.withdrawMax');
    // The limits are named in the number format of docs/money-format.md ("Minimum withdrawal not lower than 10.00
    // USDT").
    const limitOf = (amount: string) =>
      t.app.wallet.requestWithdrawal(userId, withdrawBodySchema.parse({ ...body, amount }), undefined).then(
        () => null,
        (error: FieldError) => error.params,
      );
    expect(await limitOf('9.999999')).toEqual({ limit: '10.00', unit: 'USDT' });
    expect(await limitOf('500000.000001')).toEqual({ limit: '500,000.00', unit: 'USDT' });
    expect(
      await codeOf(
        t.app.wallet.requestWithdrawal(userId, withdrawBodySchema.parse({ ...body, amount: '99.5' }), undefined),
      ),
    ).toBe('INSUFFICIENT_BALANCE');
    expect(await available(userId)).toBe(100_000_000n);
  });

  it('replays the same Idempotency-Key, refuses it with another body, and lets the user cancel while waiting', async () => {
    const session = await verifiedUser();
    await depositUsdt(session.userId, '100');
    const body = { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '30' };
    const first = await withdraw(session, body, { 'idempotency-key': 'wd-1' });
    expect(first.json().content).toMatchObject({
      action: 'withdraw',
      amount: '30.000000',
      fee: '1.000000',
      type: 'OUTER',
      status: 0,
    });
    expect(await available(session.userId)).toBe(69_000_000n);
    expect(await frozen(session.userId)).toBe(31_000_000n);

    // The route layer's one store answers a retry (no fresh code needed) and refuses another body.
    const retry = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wallet/withdraw',
        headers: { ...session.headers, 'api-version': '2.0', 'idempotency-key': 'wd-1' },
        payload,
      });
    const replay = await retry(body);
    expect(replay.body).toBe(first.body);
    expect(await available(session.userId)).toBe(69_000_000n);
    const other = await retry({ ...body, amount: '31' });
    expect(other.statusCode).toBe(409);
    expect(other.json().statusCode).toBe(121);

    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/wallet/withdraw/${first.json().content.id}/cancel`,
      headers: session.headers,
    });
    expect(cancel.json().content.status).toBe(4);
    expect(await available(session.userId)).toBe(100_000_000n);
    expect(await frozen(session.userId)).toBe(0n);
    const twice = await t.app.inject({
      method: 'POST',
      url: `/api/wallet/withdraw/${first.json().content.id}/cancel`,
      headers: session.headers,
    });
    expect(twice.json().statusCode).toBe(138);
    expect(await available(session.userId)).toBe(100_000_000n);
  });

  it('settles an INTERNAL withdrawal at once without fee, with an INTERNAL deposit for the recipient', async () => {
    const sender = await verifiedUser();
    const recipientId = randomUUID();
    await depositUsdt(sender.userId, '100');
    const { address } = await t.app.wallet.depositAddress(recipientId, 'USDT', 'TRC20');
    const response = await withdraw(sender, { coin: 'USDT', network: 'TRC20', address, amount: '40' });
    expect(response.json().content).toMatchObject({
      type: 'INTERNAL',
      status: 2,
      fee: '0.000000',
      amount: '40.000000',
    });
    expect(await available(sender.userId)).toBe(60_000_000n);
    expect(await available(recipientId)).toBe(40_000_000n);
    const history = await t.app.wallet.records(recipientId, {
      action: 'deposit',
      pageID: 1,
      pageSize: 10,
      type: 'INTERNAL',
    });
    expect(history.list).toHaveLength(1);
    expect(history.list[0]).toMatchObject({ type: 'INTERNAL', amount: '40.000000', status: 2 });
    // Withdrawing to one's own deposit address is refused.
    const own = await t.app.wallet.depositAddress(sender.userId, 'USDT', 'TRC20');
    expect(
      await t.app.wallet
        .requestWithdrawal(
          sender.userId,
          withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: own.address, amount: '20' }),
          undefined,
        )
        .catch((e: { messageKey?: string }) => e.messageKey),
    ).toBe('validation.withdrawAddressOwn');
  });
});

/**
 * A registered user with basic identity verification (level 1), whose withdrawals the level-1 withdrawal limits allow.
 */
async function verifiedUserId(): Promise<string> {
  const { userId } = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(userId, 1);
  return userId;
}

describe('operators and custody results', () => {
  it('moves OUTER withdrawals 0 → 1 → 2 with the fee earned, or to 3 with the funds returned, each once, by role', async () => {
    const userId = await verifiedUserId();
    await depositUsdt(userId, '200');
    const { token } = await t.app.admin.createOperator('ops@example.com', 'finance');
    const viewer = await t.app.admin.createOperator('viewer@example.com', 'support');
    const ops = (url: string, payload?: object, bearer = token) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/withdrawals/${url}`,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: payload ?? {},
      });

    const a = await t.app.wallet.requestWithdrawal(
      userId,
      withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '50' }),
      undefined,
    );
    const b = await t.app.wallet.requestWithdrawal(
      userId,
      withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '60' }),
      undefined,
    );
    expect(await available(userId)).toBe(88_000_000n);
    expect(await frozen(userId)).toBe(112_000_000n);

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/withdrawals/${a.id}/process`,
          headers: mutationHeaders(),
          payload: {},
        })
      ).json().statusCode,
    ).toBe(101);
    expect((await ops(`${a.id}/process`, {}, viewer.token)).json().statusCode).toBe(102);
    expect((await ops(`${a.id}/complete`, { txHash: '0xabc' })).json().statusCode).toBe(138);
    expect((await ops(`${a.id}/process`)).json().content).toMatchObject({
      status: 1,
      operatorEmail: 'ops@example.com',
    });
    const hotBefore = await accountBalance(t.database.db, platformAccount('PLATFORM_HOT_WALLET', 'USDT'));
    const feesBefore = await accountBalance(t.database.db, platformAccount('PLATFORM_FEES', 'USDT'));
    expect((await ops(`${a.id}/complete`, { txHash: 'chain-tx-a' })).json().content).toMatchObject({
      status: 2,
      txHash: 'chain-tx-a',
    });
    expect((await ops(`${a.id}/complete`, { txHash: 'chain-tx-a' })).json().statusCode).toBe(138);
    expect(await frozen(userId)).toBe(61_000_000n);
    expect((await accountBalance(t.database.db, platformAccount('PLATFORM_HOT_WALLET', 'USDT'))) - hotBefore).toBe(
      50_000_000n,
    );
    expect((await accountBalance(t.database.db, platformAccount('PLATFORM_FEES', 'USDT'))) - feesBefore).toBe(
      1_000_000n,
    );

    // The custody webhook reports b failed: funds return once; a repeat with a new delivery is refused.
    expect(
      (await webhook({ type: 'withdrawal', withdrawalId: b.id, result: 'failure', reason: 'rejected by chain' })).json()
        .content.status,
    ).toBe('3');
    expect((await webhook({ type: 'withdrawal', withdrawalId: b.id, result: 'failure' })).json().statusCode).toBe(138);
    expect(await frozen(userId)).toBe(0n);
    expect(await available(userId)).toBe(149_000_000n);

    const listed = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/withdrawals?status=2',
        headers: { authorization: `Bearer ${viewer.token}` },
      })
    ).json().content;
    expect(listed.list.map((w: { id: string }) => w.id)).toContain(a.id);
  });
});

describe('concurrency', () => {
  it('lets 50 concurrent withdrawals of 30 USDT (+1 fee) on 1,000 USDT take exactly 32, never below zero', async () => {
    const userId = await verifiedUserId();
    await depositUsdt(userId, '1000');
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        codeOf(
          t.app.wallet.requestWithdrawal(
            userId,
            withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '30' }),
            undefined,
          ),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(32);
    expect(outcomes.filter((o) => o === 'INSUFFICIENT_BALANCE')).toHaveLength(18);
    expect(await available(userId)).toBe(8_000_000n);
    expect(await frozen(userId)).toBe(992_000_000n);
    const page = await t.app.wallet.records(userId, { action: 'withdraw', pageID: 1, pageSize: 100 });
    expect(page.totalCount).toBe(32);
  });

  it('lets exactly one of 1,000 concurrent withdrawals of the full balance succeed', async () => {
    const userId = await verifiedUserId();
    await depositUsdt(userId, '101');
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, () =>
        codeOf(
          t.app.wallet.requestWithdrawal(
            userId,
            withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '100' }),
            undefined,
          ),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
    expect(await available(userId)).toBe(0n);
    expect(await frozen(userId)).toBe(101_000_000n);
  }, 120_000);
});

describe('history, balances and the address book', () => {
  it('filters the history by coin, status, type and time, pages it, and values balances in USD', async () => {
    const session = await verifiedUser();
    await depositUsdt(session.userId, '300');
    const w1 = await t.app.wallet.requestWithdrawal(
      session.userId,
      withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '10' }),
      undefined,
    );
    await t.app.wallet.requestWithdrawal(
      session.userId,
      withdrawBodySchema.parse({ coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' }),
      undefined,
    );
    await t.app.wallet.cancelWithdrawal(session.userId, Number(w1.id));
    const get = async (query: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/api/wallet/record?${query}`, headers: { cookie: session.cookie } })
      ).json();
    const all = await get('action=withdraw&pageSize=1');
    expect(all.content).toMatchObject({ totalCount: 2, totalPage: 2, pageID: 1, pageSize: 1 });
    expect(all.content.list[0].amount).toBe('20.000000');
    expect((await get('action=withdraw&status=4')).content.list.map((r: { id: string }) => r.id)).toEqual([w1.id]);
    expect((await get('action=withdraw&coin=BTC')).content.totalCount).toBe(0);
    expect((await get('action=withdraw&type=INTERNAL')).content.totalCount).toBe(0);
    const from = new Date(t.app.clock.now().getTime() - 60_000).toISOString();
    const to = new Date(t.app.clock.now().getTime() + 60_000).toISOString();
    expect(
      (await get(`action=deposit&createTime=${encodeURIComponent(from)}&createTime=${encodeURIComponent(to)}`)).content
        .list[0],
    ).toMatchObject({ action: 'deposit', amount: '300.000000', status: 2 });
    expect((await get('action=withdraw&status=9')).statusCode).toBe(120);

    const balance = (
      await t.app.inject({ method: 'GET', url: '/api/wallet/balance', headers: { cookie: session.cookie } })
    ).json().content;
    const main = balance.wallet.accounts[0];
    expect(main.accountType).toBe('MainAccount');
    expect(main.assets.filter((a: { coinCode: string }) => a.coinCode === 'USDT')).toEqual([
      { coinCode: 'USDT', type: 'available', amount: '279.000000', convert: '279.00' },
      { coinCode: 'USDT', type: 'frozen', amount: '21.000000', convert: '21.00' },
    ]);
    expect(balance.overview.accounts.map((a: { accountType: string }) => a.accountType)).toEqual([
      'MainAccount',
      'FundAccount',
      'CardAccount',
      'TrustAccount',
      'LoanAccount',
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/account/balance', headers: { cookie: session.cookie } })).json()
        .content.wallet.accounts[0].assets.length,
    ).toBe(12); // six coins (USDE, USDT, USDC, BTC, ETH, EURE) × available and frozen
  });

  it('adds an address behind the security check, validates label and address, lists and deletes only the owner’s', async () => {
    const session = await registerAndLogin(t.app);
    const add = async (body: Record<string, unknown>) => {
      const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW_ADDRESS_ADD');
      return t.app.inject({
        method: 'POST',
        url: '/api/wallet/addressbook',
        headers: session.headers,
        payload: { emailCaptcha, ...body },
      });
    };
    const shortLabel = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/addressbook',
      headers: session.headers,
      payload: { label: 'abc', network: 'TRC20', address: EXTERNAL_TRON },
    });
    expect(shortLabel.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'label', message: 'The label must be 4 to 50 characters' }] },
    });
    const added = (await add({ label: 'My Tron wallet', network: 'TRC20', address: EXTERNAL_TRON })).json();
    expect(added.content).toMatchObject({ label: 'My Tron wallet', network: 'TRC20', address: EXTERNAL_TRON });
    expect(Date.parse(added.content.usableAt) - Date.parse(added.content.createTime)).toBe(24 * 3600 * 1000);
    const messages = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notice/message/list?pageID=1&pageSize=10',
        headers: { cookie: session.cookie },
      })
    ).json().content;
    expect(messages.list.map((m: { title: string }) => m.title)).toContain('Withdrawal address added');
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/wallet/addressbook', headers: { cookie: session.cookie } })
    ).json().content;
    expect(list).toHaveLength(1);
    const other = await registerAndLogin(t.app);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/wallet/addressbook/${added.content.id}`,
          headers: mutationHeaders({ cookie: other.cookie }),
        })
      ).json().statusCode,
    ).toBe(104);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/wallet/addressbook/${added.content.id}`,
          headers: session.headers,
        })
      ).json().statusCode,
    ).toBe(200);
    expect(
      await t.app.wallet
        .addAddress(session.userId, {
          label: 'broken',
          network: 'ERC20',
          address: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        })
        .catch((e: { field?: string }) => e.field),
    ).toBe('address');
  });
});

describe('whitelist mode and security holds (service with its own clock and identity)', () => {
  it('withdraws only to address-book entries at least 24 hours old, and refuses during a security hold', async () => {
    const { createWalletService } = await import('./wallet.service.ts');
    const { generateDemoXpubs, parseAccountXpub } = await import('./wallet.addresses.ts');
    const xpubs = generateDemoXpubs();
    let nowMs = t.app.clock.now().getTime();
    let holdUntil: Date | null = null;
    const wallet = createWalletService(t.database.db, {
      xpubs: {
        bitcoin: parseAccountXpub(xpubs.bitcoin),
        evm: parseAccountXpub(xpubs.evm),
        tron: parseAccountXpub(xpubs.tron),
      },
      identity: {
        withdrawalHoldUntil: async () => holdUntil,
        findUserIdByEmail: async () => null,
        kycLevelOf: async () => 1,
        assertNotFrozen: async () => {},
      },
      prices: { usdPerCoin: async () => null },
      isWhitelistMode: true,
      log: { warn: () => {}, info: () => {} },
      clock: () => new Date(nowMs),
    });
    const userId = randomUUID();
    await depositUsdt(userId, '100');
    const body = { coin: 'USDT' as const, network: 'TRC20', address: EXTERNAL_TRON, amount: '20' };
    const keyOf = (promise: Promise<unknown>) =>
      promise.then(() => 'OK').catch((error: { messageKey?: string; code?: string }) => error.messageKey ?? error.code);
    expect(await keyOf(wallet.requestWithdrawal(userId, withdrawBodySchema.parse(body), undefined))).toBe(
      'validation.withdrawAddressNotWhitelisted',
    );
    await wallet.addAddress(userId, { label: 'cold storage', network: 'TRC20', address: EXTERNAL_TRON });
    expect(await keyOf(wallet.requestWithdrawal(userId, withdrawBodySchema.parse(body), undefined))).toBe(
      'validation.withdrawAddressNotWhitelisted',
    );
    nowMs += 24 * 3600 * 1000 + 1000;
    holdUntil = new Date(nowMs + 3600_000);
    expect(await keyOf(wallet.requestWithdrawal(userId, withdrawBodySchema.parse(body), undefined))).toBe(
      'SECURITY_HOLD',
    );
    holdUntil = null;
    expect(await keyOf(wallet.requestWithdrawal(userId, withdrawBodySchema.parse(body), undefined))).toBe('OK');
    expect(await available(userId)).toBe(79_000_000n);
  });
});
