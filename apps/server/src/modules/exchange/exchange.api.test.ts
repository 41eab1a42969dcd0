import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  followTestClock,
  registerAndLogin,
  testDatabaseRegistry,
  type TestSession,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { AggregatedPrice, PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceDecimal, type PriceSymbol, PriceUnavailableError } from '../../platform/prices/types.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { accountBalance, platformBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { withdrawBodySchema } from '@meridian/contracts/wallet';
import { manualClock } from '../../platform/clock/clock.ts';

/**
 * Swaps through the real app: quote, execute exactly once through the ledger, and every refusal
 * (expired, another user's, used, insufficient balance, limits, pair off, KYC) with nothing moved.
 * Prices are fixed by a scripted oracle (BTC 50,000 USD, ETH 2,500 USD, stablecoins at the peg).
 */

const clock = manualClock('2026-11-20T12:00:00Z');
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
      observedAt: clock.now(),
      basis: 'median',
      sources: ['scripted'],
      excluded: [],
    };
  },
};

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let alice: TestSession;
let bob: TestSession;

const USDT = 'USDT' as const;
const available = (userId: string, coin: 'USDT' | 'BTC' | 'ETH' | 'USDE') =>
  accountBalance(database.db, userAccount(userId, 'USER_AVAILABLE', coin));
async function deposit(userId: string, coin: 'USDT' | 'BTC', amountMinor: bigint, key: string) {
  await postEntry(database.db, {
    kind: 'DEPOSIT',
    reference: `test:${key}`,
    idempotencyKey: key,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', coin),
      userAccount(userId, 'USER_AVAILABLE', coin),
      amountMinor,
    ),
  });
}
const quote = async (session: TestSession, query: string) =>
  (await app.inject({ method: 'GET', url: `/api/exchange/rate?${query}`, headers: { cookie: session.cookie } })).json();
const swap = async (session: TestSession, quoteId: string) =>
  app.inject({ method: 'POST', url: '/api/exchange/swap', headers: session.headers, payload: { quoteId } });

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
  alice = await registerAndLogin(app);
  bob = await registerAndLogin(app);
  await app.identity.setKycLevel(alice.userId, 1);
  await app.identity.setKycLevel(bob.userId, 1);
  await deposit(alice.userId, USDT, 5_000_000_000n, 'alice-usdt'); // 5,000 USDT
  await seedWallet(database.db); // coins and networks, for the withdrawals racing swaps
});

afterAll(async () => {
  const report = await checkLedgerInvariants(database.db);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
  expect(report.isHeld).toBe(true);
});

describe('GET /api/exchange/rate', () => {
  it('asks guests to log in', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/exchange/rate?from=USDT&to=BTC&amount=100' });
    expect(response.json().statusCode).toBe(101);
  });

  it('quotes USDT → BTC through USD with the 0.5% spread, the received BTC rounded down, valid 10 s', async () => {
    const body = await quote(alice, 'from=USDT&to=BTC&amount=1000&side=from');
    expect(body.statusCode).toBe(200);
    // 1/50000 × 0.995 = 0.0000199; 1000 × 0.0000199 = 0.0199 BTC.
    expect(body.content).toMatchObject({
      from: 'USDT',
      to: 'BTC',
      side: 'from',
      rate: '0.0000199',
      spreadBps: 50,
      fromAmount: '1000.000000',
      toAmount: '0.01990000',
      expiresAt: '2026-11-20T12:00:10.000Z',
    });
  });

  it('quotes the amount to receive (side=to): the USDT paid is rounded up', async () => {
    const body = await quote(alice, 'from=USDT&to=ETH&amount=0.3&side=to');
    // rate 1/2500 × 0.995 = 0.000398; 0.3 / 0.000398 = 753.7688442… → 753.768845 USDT.
    expect(body.content).toMatchObject({ rate: '0.000398', fromAmount: '753.768845', toAmount: '0.30000000' });
  });

  it('prices stablecoin pairs at the tight 0.1% spread', async () => {
    const body = await quote(alice, 'from=USDT&to=USDE&amount=100');
    expect(body.content).toMatchObject({ rate: '0.999', spreadBps: 10, toAmount: '99.900000' });
  });

  it('refuses amounts below the minimum and above the maximum, too many decimals, and the same coin twice', async () => {
    expect(await quote(alice, 'from=USDT&to=BTC&amount=9.99')).toMatchObject({
      statusCode: 132,
      message: 'Minimum order amount 10.00 USDT',
    });
    expect(await quote(alice, 'from=BTC&to=USDT&amount=10.5')).toMatchObject({
      statusCode: 133,
      message: 'Maximum order amount 10.00000000 BTC',
    });
    expect((await quote(alice, 'from=USDT&to=BTC&amount=10.1234567')).statusCode).toBe(120);
    expect(await quote(alice, 'from=USDT&to=USDT&amount=10')).toMatchObject({
      statusCode: 120,
      message: 'to: Please select another currency',
    });
    const sameCoinZh = await app.inject({
      method: 'GET',
      url: '/api/exchange/rate?from=USDT&to=USDT&amount=10',
      headers: { cookie: alice.cookie, 'user-lang': 'zh-HK' },
    });
    expect(sameCoinZh.json().message).toContain('請選擇另一種幣種');
  });

  it('refuses with 134 when a price is unavailable', async () => {
    prices.delete('ETH');
    expect((await quote(alice, 'from=USDT&to=ETH&amount=100')).statusCode).toBe(134);
    prices.set('ETH', '2500');
  });
});

describe('POST /api/exchange/swap', () => {
  it('executes a quote through the ledger: USDT to the inventory, BTC to the user', async () => {
    const { content } = await quote(alice, 'from=USDT&to=BTC&amount=1000');
    const response = await swap(alice, content.quoteId);
    expect(response.json()).toMatchObject({
      statusCode: 200,
      content: {
        swapId: content.quoteId,
        kind: 'SWAP',
        fromAmount: '1000.000000',
        toAmount: '0.01990000',
        rate: '0.0000199',
      },
    });
    expect(await available(alice.userId, 'USDT')).toBe(4_000_000_000n);
    expect(await available(alice.userId, 'BTC')).toBe(1_990_000n);
    // Both inventory legs land in one shard (the swap batch's); the desk's inventory is the sum of its shards.
    const legs = (
      (await database.db.execute(sql`
        SELECT a.owner_id AS "ownerId", a.asset, p.amount_minor::text AS "amountMinor"
        FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id JOIN ledger_entries e ON e.id = p.entry_id
        WHERE e.idempotency_key = ${`swap:${content.quoteId}`} AND a.type = 'EXCHANGE_INVENTORY' ORDER BY p.id`)) as unknown as {
        rows: { ownerId: string; asset: string; amountMinor: string }[];
      }
    ).rows;
    expect(legs.map((leg) => [leg.asset, leg.amountMinor])).toEqual([
      ['USDT', '1000000000'],
      ['BTC', '-1990000'],
    ]);
    expect(new Set(legs.map((leg) => leg.ownerId)).size).toBe(1);
    expect(await platformBalance(database.db, 'EXCHANGE_INVENTORY', 'USDT')).toBe(1_000_000_000n);
    expect(await platformBalance(database.db, 'EXCHANGE_INVENTORY', 'BTC')).toBe(-1_990_000n);
    // Both legs appear in the wallet record (coin actions exchange_out / exchange_in), filterable by coin.
    const record = async (query: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/wallet/record?pageID=1&pageSize=10&${query}`,
          headers: { cookie: alice.cookie },
        })
      ).json().content;
    expect((await record('action=exchange_out')).list).toEqual([
      expect.objectContaining({
        action: 'exchange_out',
        coinCode: 'USDT',
        amount: '1000.000000',
        fee: '0.000000',
        status: 2,
        type: 'INTERNAL',
        network: '',
        txHash: null,
      }),
    ]);
    expect(await record('action=exchange_in&coin=BTC')).toMatchObject({
      totalCount: 1,
      list: [{ action: 'exchange_in', coinCode: 'BTC', amount: '0.01990000' }],
    });
    expect((await record('action=exchange_in&coin=USDT')).totalCount).toBe(0);
    expect((await record('action=exchange_out&status=0')).totalCount).toBe(0);
    // The user is told (swap done), in the language she last used (zh-HK, in the quote test
    // above), with amounts as the screens show them.
    const messages = (
      await app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(messages.list[0]).toMatchObject({
      category: 'EXCHANGE',
      title: '兌換已完成',
      body: '你已將 1,000.00 USDT 兌換為 0.01990000 BTC。',
    });
  });

  it('refuses a used quote, another user’s quote and an expired one, moving nothing', async () => {
    const used = (await quote(alice, 'from=USDT&to=USDE&amount=10')).content.quoteId;
    expect((await swap(alice, used)).json().statusCode).toBe(200);
    expect((await swap(alice, used)).json().statusCode).toBe(121);

    const others = (await quote(alice, 'from=USDT&to=USDE&amount=10')).content.quoteId;
    expect((await swap(bob, others)).json().statusCode).toBe(104);

    const before = await available(alice.userId, 'USDT');
    const late = (await quote(alice, 'from=USDT&to=USDE&amount=10')).content.quoteId;
    clock.advance(10_000);
    const expired = await swap(alice, late);
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toEqual({
      statusCode: 131,
      content: null,
      message: 'This quote has expired, please get a new quote',
    });
    expect(await available(alice.userId, 'USDT')).toBe(before);
  });

  it('refuses on insufficient balance with nothing moved, and the quote stays usable after a deposit', async () => {
    const quoteId = (await quote(bob, 'from=USDT&to=USDE&amount=50')).content.quoteId;
    expect((await swap(bob, quoteId)).json().statusCode).toBe(130);
    expect(await available(bob.userId, 'USDE')).toBe(0n);
    await deposit(bob.userId, USDT, 50_000_000n, 'bob-usdt');
    expect((await swap(bob, quoteId)).json().statusCode).toBe(200);
    expect(await available(bob.userId, 'USDT')).toBe(0n);
    expect(await available(bob.userId, 'USDE')).toBe(49_950_000n);
  });

  it('refuses a switched-off pair, also for a quote made before it was switched off', async () => {
    const quoteId = (await quote(alice, 'from=USDT&to=ETH&amount=100')).content.quoteId;
    await app.exchange.configurePair('USDT', 'ETH', { isEnabled: false });
    expect((await quote(alice, 'from=USDT&to=ETH&amount=100')).statusCode).toBe(107);
    expect((await swap(alice, quoteId)).json().statusCode).toBe(107);
    await app.exchange.configurePair('USDT', 'ETH', { isEnabled: true });
  });

  it('requires basic identity verification to execute', async () => {
    await app.identity.setKycLevel(bob.userId, 0);
    const quoteId = (await quote(bob, 'from=USDT&to=USDE&amount=10')).content.quoteId;
    expect((await swap(bob, quoteId)).json().statusCode).toBe(143);
    await app.identity.setKycLevel(bob.userId, 1);
  });

  it('executes one quote sent 20 times at once exactly once', async () => {
    const before = await available(alice.userId, 'USDT');
    const quoteId = (await quote(alice, 'from=USDT&to=BTC&amount=100')).content.quoteId;
    const answers = await Promise.all(Array.from({ length: 20 }, () => swap(alice, quoteId)));
    const codes = answers.map((answer) => answer.json().statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code !== 200).every((code) => code === 121)).toBe(true);
    expect(await available(alice.userId, 'USDT')).toBe(before - 100_000_000n);
  });
});

describe('POST /api/exchange/swap in batches (group commit)', () => {
  it('answers each swap of a shared batch on its own: an unfunded one alone is refused and keeps its quote, a stolen quote id finds nothing', async () => {
    // Users of their own, so the other tests' histories stay as they expect.
    const [dave, erin, carol] = [await registerAndLogin(app), await registerAndLogin(app), await registerAndLogin(app)];
    await app.identity.setKycLevel(dave.userId, 1);
    await app.identity.setKycLevel(erin.userId, 1);
    await app.identity.setKycLevel(carol.userId, 1);
    await deposit(dave.userId, USDT, 500_000_000n, 'batch-dave');
    await deposit(erin.userId, USDT, 50_000_000n, 'batch-erin'); // 50 USDT: not enough for 100
    await deposit(carol.userId, USDT, 200_000_000n, 'batch-carol');
    const [forDave, forErin, forCarol] = await Promise.all(
      [dave, erin, carol].map(
        async (session) => (await quote(session, 'from=USDT&to=USDE&amount=100')).content.quoteId as string,
      ),
    );
    // Sent at once, they are written together (one transaction, one ledger batch).
    const answers = await Promise.all([
      swap(dave, forDave!),
      swap(erin, forErin!),
      swap(carol, forCarol!),
      swap(erin, forDave!),
    ]);
    expect(answers.map((answer) => answer.json().statusCode)).toEqual([200, 130, 200, 104]);
    expect(await available(dave.userId, 'USDT')).toBe(400_000_000n);
    expect(await available(erin.userId, 'USDT')).toBe(50_000_000n);
    expect(await available(carol.userId, 'USDT')).toBe(100_000_000n);
    expect(await available(carol.userId, 'USDE')).toBe(99_900_000n);
    // Erin's refused quote was put back: funded now, it executes while it lasts.
    await deposit(erin.userId, USDT, 50_000_000n, 'batch-erin-more');
    expect((await swap(erin, forErin!)).json()).toMatchObject({
      statusCode: 200,
      content: { swapId: forErin, fromAmount: '100.000000' },
    });
    expect(await available(erin.userId, 'USDT')).toBe(0n);
    // Each executed swap wrote exactly one message, in the same transaction.
    const messages = (
      await app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: carol.cookie } })
    ).json().content;
    expect(messages.list.filter((message: { category: string }) => message.category === 'EXCHANGE')).toHaveLength(1);
  });
});

describe('POST /api/exchange/swap of a frozen account', () => {
  it('is refused with 152 by the claim itself, alone or in a shared batch, nothing moved and the quote kept', async () => {
    const [gina, hank] = [await registerAndLogin(app), await registerAndLogin(app)];
    await app.identity.setKycLevel(gina.userId, 1);
    await app.identity.setKycLevel(hank.userId, 1);
    await deposit(gina.userId, USDT, 200_000_000n, 'frozen-gina');
    await deposit(hank.userId, USDT, 200_000_000n, 'frozen-hank');
    const [forGina, forHank] = await Promise.all(
      [gina, hank].map(
        async (session) => (await quote(session, 'from=USDT&to=USDE&amount=100')).content.quoteId as string,
      ),
    );
    // Frozen after quoting, with its session still live: only the claim's read of the freeze stops it.
    const setFrozen = (at: string | null) =>
      database.db.execute(sql`UPDATE users SET frozen_at = ${at}::timestamptz WHERE id = ${hank.userId}::uuid`);
    await setFrozen(clock.now().toISOString());
    const answers = await Promise.all([swap(gina, forGina!), swap(hank, forHank!)]);
    expect(answers.map((answer) => answer.json().statusCode)).toEqual([200, 152]);
    expect((await swap(hank, forHank!)).json().statusCode).toBe(152);
    expect(await available(hank.userId, 'USDT')).toBe(200_000_000n);
    expect(await available(hank.userId, 'USDE')).toBe(0n);
    // The quote stayed open: unfrozen, it executes while it lasts.
    await setFrozen(null);
    expect((await swap(hank, forHank!)).json()).toMatchObject({ statusCode: 200, content: { swapId: forHank } });
    expect(await available(hank.userId, 'USDT')).toBe(100_000_000n);
  });
});

describe('swaps racing withdrawals on one balance', () => {
  it('never takes the balance below zero, and refuses only what the balance could not cover', async () => {
    const dana = await registerAndLogin(app);
    await app.identity.setKycLevel(dana.userId, 1);
    await deposit(dana.userId, USDT, 1_000_000_000n, 'race-dana'); // 1,000 USDT
    const quoteIds = await Promise.all(
      Array.from(
        { length: 16 },
        async () => (await quote(dana, 'from=USDT&to=USDE&amount=50')).content.quoteId as string,
      ),
    );
    // 16 swaps of 50 USDT and 16 withdrawals of 30 USDT + 1 fee (TRC20) at once: 1,296 USDT asked of 1,000.
    const withdrawal = () =>
      app.wallet.requestWithdrawal(
        dana.userId,
        withdrawBodySchema.parse({
          coin: 'USDT',
          network: 'TRC20',
          address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
          amount: '30',
        }),
        undefined,
      );
    const [swapCodes, withdrawalCodes] = await Promise.all([
      Promise.all(quoteIds.map(async (quoteId) => (await swap(dana, quoteId)).json().statusCode as number)),
      Promise.all(
        Array.from({ length: 16 }, () =>
          withdrawal().then(
            () => 'OK',
            (error: { code?: string }) => error.code ?? String(error),
          ),
        ),
      ),
    ]);
    expect(swapCodes.every((code) => code === 200 || code === 130)).toBe(true);
    expect(withdrawalCodes.every((code) => code === 'OK' || code === 'INSUFFICIENT_BALANCE')).toBe(true);
    const swapsDone = BigInt(swapCodes.filter((code) => code === 200).length);
    const withdrawalsDone = BigInt(withdrawalCodes.filter((code) => code === 'OK').length);
    const left = await available(dana.userId, USDT);
    // Exactly what succeeded moved, to the unit; the rest was refused with nothing moved.
    expect(left).toBe(1_000_000_000n - swapsDone * 50_000_000n - withdrawalsDone * 31_000_000n);
    expect(left).toBeGreaterThanOrEqual(0n);
    expect(await accountBalance(database.db, userAccount(dana.userId, 'USER_FROZEN', USDT))).toBe(
      withdrawalsDone * 31_000_000n,
    );
    expect(await available(dana.userId, 'USDE')).toBe(swapsDone * 49_950_000n);
    // Balances only fall during the race, so a refusal means the rest could not cover it then nor now.
    expect(swapsDone + withdrawalsDone).toBeLessThan(32n);
    if (swapsDone < 16n) expect(left).toBeLessThan(50_000_000n);
    if (withdrawalsDone < 16n) expect(left).toBeLessThan(31_000_000n);
  });
});

describe('POST /api/exchange/flash', () => {
  const flash = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/exchange/flash', headers: alice.headers, payload });

  it('converts at the live rate within the slippage, and a retry with the same requestId moves nothing more', async () => {
    clock.advance(1_000); // the newest swap of the history below
    const before = await available(alice.userId, 'USDT');
    const payload = {
      from: 'USDT',
      to: 'BTC',
      amount: '500',
      side: 'from',
      expectedRate: '0.0000199',
      requestId: '4f1c2f39-77c4-4a8e-9d43-6f1f5e2a7b10',
    };
    prices.set('BTC', '50200'); // −0.4%: inside the default 0.5%
    const first = (await flash(payload)).json();
    expect(first).toMatchObject({ statusCode: 200, content: { kind: 'FLASH', fromAmount: '500.000000' } });
    const again = (await flash(payload)).json();
    expect(again.content).toEqual(first.content);
    // The same amount written differently is the same request: replayed.
    expect((await flash({ ...payload, amount: '500.00' })).json().content).toEqual(first.content);
    // Any other field changed under the same requestId is refused with 121, not replayed.
    for (const changed of [{ amount: '400' }, { expectedRate: '0.0000198' }, { maxSlippageBps: 100 }]) {
      const conflict = await flash({ ...payload, ...changed });
      expect(conflict.statusCode, JSON.stringify(changed)).toBe(409);
      expect(conflict.json()).toMatchObject({ statusCode: 121 });
    }
    expect(await available(alice.userId, 'USDT')).toBe(before - 500_000_000n);
  });

  it('refuses when the executable rate is further than the slippage from the expected one', async () => {
    prices.set('BTC', '50300'); // −0.6%
    const response = await flash({
      from: 'USDT',
      to: 'BTC',
      amount: '500',
      expectedRate: '0.0000199',
      requestId: 'a3d0c1e2-5b6f-4c7d-8e9f-0a1b2c3d4e5f',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ statusCode: 140, content: { rate: '0.0000197813121272' } });
    expect(response.json().message).toBe(
      'The price moved beyond your maximum slippage, please check the new rate and try again',
    );
    prices.set('BTC', '50000');
  });
});

describe('GET /api/exchange/swap/list', () => {
  it('lists the user’s swaps newest first, filtered by coin and paged', async () => {
    const all = (
      await app.inject({ method: 'GET', url: '/api/exchange/swap/list?pageSize=2', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(all.totalCount).toBe(4); // 1000 and 100 USDT → BTC, 10 USDT → USDE, the flash
    expect(all.list).toHaveLength(2);
    expect(all.list[0].kind).toBe('FLASH');
    const btc = (
      await app.inject({ method: 'GET', url: '/api/exchange/swap/list?coin=BTC', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(btc.list.map((record: { to: string }) => record.to)).toEqual(['BTC', 'BTC', 'BTC']);
    // The date filter: executed between 12:00:00 and 12:00:10 — the swaps before the expiry test moved the clock.
    const window = (from: string, to: string) =>
      `createTime=${encodeURIComponent(from)}&createTime=${encodeURIComponent(to)}`;
    const early = (
      await app.inject({
        method: 'GET',
        url: `/api/exchange/swap/list?${window('2026-11-20T12:00:00Z', '2026-11-20T12:00:09Z')}`,
        headers: { cookie: alice.cookie },
      })
    ).json().content;
    // Both at the same instant of the fake clock: their order is by id, so compare as a set.
    expect(early.list.map((record: { fromAmount: string }) => record.fromAmount).sort()).toEqual([
      '10.000000',
      '1000.000000',
    ]);
    const none = (
      await app.inject({
        method: 'GET',
        url: `/api/exchange/swap/list?${window('2026-11-19T00:00:00Z', '2026-11-19T23:59:59Z')}`,
        headers: { cookie: alice.cookie },
      })
    ).json().content;
    expect(none.totalCount).toBe(0);
    const bobs = (
      await app.inject({ method: 'GET', url: '/api/exchange/swap/list', headers: { cookie: bob.cookie } })
    ).json().content;
    expect(bobs.totalCount).toBe(1);
  });
});

describe('quote retention', () => {
  it('deletes quotes a day after they expired unused, keeping executed swaps (the history)', async () => {
    clock.advance(86_400_000 + 60_000);
    const deleted = await app.exchange.pruneUnusedQuotes(database.db, clock.now());
    expect(deleted).toBeGreaterThan(0);
    expect(await app.exchange.pruneUnusedQuotes(database.db, clock.now())).toBe(0);
    const history = (
      await app.inject({ method: 'GET', url: '/api/exchange/swap/list', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(history.totalCount).toBe(4);
  });
});
