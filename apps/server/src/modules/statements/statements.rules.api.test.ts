import type { AssetCode } from '@meridian/contracts/money';
import { parseAmountMinor } from '@meridian/contracts/money';
import type { Statement } from '@meridian/contracts/statements';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { manualClock } from '../../platform/clock/clock.ts';
import { loadConfig } from '../../config.ts';
import type { AggregatedPrice, PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceDecimal, PriceUnavailableError } from '../../platform/prices/types.ts';
import { createTestDatabase, followTestClock, registerAndLogin, type TestSession } from '../../../test/helpers.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * The statement rules an outside check of statements and tax exports against the ledger asked for
 * (docs/statements.md): every asset valued by the account overview's rule on that day (EURE, USDT,
 * BTC, ETH; a card-rate change inside the range), an asset without a price named instead of dropped,
 * every platform fee in the tax exports' fee columns (early repayment, liquidation, card and trust
 * fees), each loan's debt, interest and fees chaining from one period to the next, and impossible
 * ranges refused on the contract in both languages. Numbers are worked by hand in the comments.
 */
const clock = manualClock('2026-11-02T04:00:00Z');
const oracle: PriceOracle = {
  sourceNames: ['scripted-a', 'scripted-b', 'scripted-c'],
  pegStatuses: () => [],
  price: async (symbol): Promise<AggregatedPrice> => {
    if (symbol !== 'BTC' && symbol !== 'ETH' && symbol !== 'USDT' && symbol !== 'USDC' && symbol !== 'USDE')
      throw new PriceUnavailableError(symbol, []);
    const price = symbol === 'BTC' ? '50000' : symbol === 'ETH' ? '2500' : '1';
    return {
      symbol,
      priceUsd: new PriceDecimal(price),
      observedAt: clock.now(),
      basis: symbol === 'BTC' || symbol === 'ETH' ? 'median' : 'peg',
      sources: ['scripted-a', 'scripted-b', 'scripted-c'],
      excluded: [],
    };
  },
};

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let keyCount = 0;
const nextKey = () => `stmt-rules-${(keyCount += 1)}`;
const minor = (amount: string, asset: AssetCode) => parseAmountMinor(amount, asset);

/** Post `input` and date its entry at `at` (entries are dated by the database clock otherwise). */
async function postAt(at: string, input: Omit<EntryInput, 'idempotencyKey'>): Promise<void> {
  const { entry } = await postEntry(database.db, { ...input, idempotencyKey: nextKey() });
  await database.db.execute(sql`UPDATE ledger_entries SET created_at = ${at}::timestamptz WHERE id = ${entry.id}`);
}
const deposit = (at: string, userId: string, asset: AssetCode, amount: string) =>
  postAt(at, {
    kind: 'DEPOSIT',
    reference: `deposit:${nextKey()}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', asset),
      userAccount(userId, 'USER_AVAILABLE', asset),
      minor(amount, asset),
    ),
  });

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
  await seedWallet(database.db);
  followTestClock(app, database, clock);
});

afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const accountOf = (statement: Statement, asset: string) =>
  statement.accounts.find((a) => a.type === 'USER_AVAILABLE' && a.asset === asset)!;

describe('valuation: the account overview rule, on that day', () => {
  let carol: TestSession;

  beforeAll(async () => {
    carol = await registerAndLogin(app);
    await deposit('2026-11-02T05:00:00Z', carol.userId, 'EURE', '1000');
    await deposit('2026-11-02T05:00:00Z', carol.userId, 'USDT', '500');
    await deposit('2026-11-02T05:00:00Z', carol.userId, 'BTC', '0.1');
    await deposit('2026-11-02T05:00:00Z', carol.userId, 'ETH', '2');
    // Stored daily closes: BTC from 1 November (60,000), ETH only from 3 November (3,000).
    await database.db.execute(
      sql`INSERT INTO price_days (coin_code, bucket_at, open_usd, high_usd, low_usd, close_usd, sample_count)
          VALUES ('BTC', '2026-11-01T00:00:00Z', 60000, 60000, 60000, 60000, 24),
                 ('ETH', '2026-11-03T00:00:00Z', 3000, 3000, 3000, 3000, 24)`,
    );
  });

  it('values EURE as the account overview does (1,000 EURE = $1,086.95) and names ETH when it has no price that day', async () => {
    const overview = (
      await app.inject({ method: 'GET', url: '/api/wallet/balance', headers: { cookie: carol.cookie } })
    ).json().content;
    const main = overview.wallet.accounts.find((a: { accountType: string }) => a.accountType === 'MainAccount');
    const eure = main.assets.find(
      (a: { coinCode: string; type: string }) => a.coinCode === 'EURE' && a.type === 'available',
    );
    expect(eure.convert).toBe('1086.95');

    const day2 = await app.statements.build(carol.userId, '2026-11-02', '2026-11-02');
    // EURE 1,000 ÷ 0.92 = 1,086.95; USDT at its peg 500; BTC 0.1 × 60,000 = 6,000; ETH has no close
    // on or before the 2nd: named, and the total says so instead of dropping it silently.
    expect(accountOf(day2, 'EURE').closingUsd).toBe(eure.convert);
    expect(accountOf(day2, 'USDT').closingUsd).toBe('500.00');
    expect(accountOf(day2, 'BTC').closingUsd).toBe('6000.00');
    expect(accountOf(day2, 'ETH').closingUsd).toBeNull();
    expect(day2.unvaluedAssets).toEqual(['ETH']);
    expect(day2.closingUsdTotal).toBe('7586.95');

    // From the 3rd ETH has a close: 2 × 3,000 = 6,000, and nothing is left out.
    const day3 = await app.statements.build(carol.userId, '2026-11-02', '2026-11-03');
    expect(accountOf(day3, 'ETH').closingUsd).toBe('6000.00');
    expect(day3.unvaluedAssets).toEqual([]);
    expect(day3.closingUsdTotal).toBe('13586.95');
  });

  it('values each day at the card rate in force that day when the rate changes inside the range', async () => {
    // Approved on 4 November 10:00 UTC: EUR 0.92 → 0.90 per USD (the cards' rate table, four eyes).
    await database.db.execute(
      sql`INSERT INTO setting_changes (kind, target_key, before, after, status, proposed_by_id, proposed_by_email, proposed_at, decided_by_id, decided_by_email, decided_at)
          VALUES ('cards.fxRates', '', '{"EUR":"0.92","GBP":"0.79","JPY":"150"}', '{"EUR":"0.90","GBP":"0.79","JPY":"150"}', 'applied',
                  1, 'a@example.com', '2026-11-04T09:00:00Z', 2, 'b@example.com', '2026-11-04T10:00:00Z')`,
    );
    await database.db.execute(
      sql`UPDATE card_settings SET fx_rates = '{"USD":"1","EUR":"0.90","GBP":"0.79","JPY":"150"}' WHERE id = 1`,
    );
    await deposit('2026-11-05T08:00:00Z', carol.userId, 'EURE', '100');
    const statement = await app.statements.build(carol.userId, '2026-11-01', '2026-11-05');
    const eure = accountOf(statement, 'EURE');
    // The deposit of the 2nd at the rate then (1,000 ÷ 0.92), the one of the 5th at the new rate
    // (100 ÷ 0.90 = 111.111… → 111.11), the closing 1,100 ÷ 0.90 = 1,222.22.
    expect(eure.movements.map((m) => m.amountUsd)).toEqual(['1086.95', '111.11']);
    expect(eure.closingUsd).toBe('1222.22');
    // A statement that closes before the change still closes at the old rate.
    expect(accountOf(await app.statements.build(carol.userId, '2026-11-01', '2026-11-03'), 'EURE').closingUsd).toBe(
      '1086.95',
    );
  });
});

describe('fees in the tax exports and the loan section', () => {
  let dave: TestSession;
  let loanId: string;

  beforeAll(async () => {
    dave = await registerAndLogin(app);
    await app.identity.setKycLevel(dave.userId, 2);
    await deposit('2026-11-01T00:00:00Z', dave.userId, 'BTC', '0.02');
    // 284.50 USDT for 30 days at 12 % against 0.01 BTC: term interest ⌈284.5 × 0.12 × 30 ÷ 365⌉ = 2.806028.
    const order = await app.loans.borrow(
      dave.userId,
      { loanCoin: 'USDT', termDays: 30, collateralMinor: 1_000_000n, principalMinor: 284_500_000n },
      nextKey(),
    );
    loanId = order.orderId;
    expect(order.interest).toBe('2.806028');
    // Early, in full: 2.806028 interest + 284.50 principal + 2 % × 284.50 = 5.69 → 292.996028.
    await deposit('2026-11-01T00:00:00Z', dave.userId, 'USDT', '8.496028');
    const repaid = await app.loans.repay(
      dave.userId,
      { orderId: loanId, repayType: 'WALLET', amountMinor: undefined },
      nextKey(),
    );
    expect(repaid).toMatchObject({ fee: '5.690000' });
    // Date the borrow on 3 November and the repayment on 12 November.
    await database.db.execute(
      sql`UPDATE ledger_entries SET created_at = CASE kind WHEN 'LOAN_BORROW' THEN '2026-11-03T10:00:00Z'::timestamptz
            ELSE '2026-11-12T10:00:00Z'::timestamptz END WHERE reference = ${`loan:${loanId}`}`,
    );
    // A liquidation as the loans engine posts it (a second, hand-posted loan 'loan:liq'): 0.005 BTC
    // sold to the desk, its 2 USDT fee to the platform, 98 USDT principal back to the pool.
    const desk = (asset: AssetCode) => platformAccount('PLATFORM_LOAN_LIQUIDATION', asset);
    await postAt('2026-11-05T10:00:00Z', {
      kind: 'LOAN_BORROW',
      reference: 'loan:liq',
      postings: [
        ...transfer(
          userAccount(dave.userId, 'USER_AVAILABLE', 'BTC'),
          userAccount(dave.userId, 'USER_LOAN_COLLATERAL', 'BTC'),
          minor('0.005', 'BTC'),
        ),
        ...transfer(
          platformAccount('PLATFORM_LOAN_POOL', 'USDT'),
          userAccount(dave.userId, 'USER_AVAILABLE', 'USDT'),
          minor('98', 'USDT'),
        ),
      ],
    });
    await postAt('2026-11-20T10:00:00Z', {
      kind: 'LOAN_LIQUIDATION',
      reference: 'loan:liq',
      postings: [
        ...transfer(userAccount(dave.userId, 'USER_LOAN_COLLATERAL', 'BTC'), desk('BTC'), minor('0.005', 'BTC')),
        { account: desk('USDT'), amountMinor: -minor('100', 'USDT') },
        { account: platformAccount('PLATFORM_FEES', 'USDT'), amountMinor: minor('2', 'USDT') },
        { account: platformAccount('PLATFORM_LOAN_POOL', 'USDT'), amountMinor: minor('98', 'USDT') },
      ],
    });
    // A card's issuing fee (wallet → platform fees), no other side.
    await postAt('2026-11-21T10:00:00Z', {
      kind: 'CARD_FEE',
      reference: 'card:77',
      postings: transfer(
        userAccount(dave.userId, 'USER_AVAILABLE', 'USDT'),
        platformAccount('PLATFORM_FEES', 'USDT'),
        minor('8', 'USDT'),
      ),
    });
  });

  it('shows each loan: principal outstanding, interest charged and paid, fees, chaining period to period', async () => {
    const early = await app.statements.build(dave.userId, '2026-11-01', '2026-11-10');
    const late = await app.statements.build(dave.userId, '2026-11-11', '2026-11-30');
    const loan = (statement: Statement, reference: string) => statement.loans.find((l) => l.reference === reference)!;
    const reference = `loan:${loanId}`;
    expect(loan(early, reference)).toEqual({
      reference,
      coin: 'USDT',
      principalOpening: '0.000000',
      principalClosing: '284.500000',
      interestOwedOpening: '0.000000',
      interestOwedClosing: '2.806028',
      interestCharged: '2.806028',
      interestPaid: '0.000000',
      feesPaid: '0.000000',
      movements: [
        expect.objectContaining({
          kind: 'borrow',
          principal: '284.500000',
          interestCharged: '2.806028',
          feePaid: '0.000000',
        }),
      ],
    });
    expect(loan(late, reference)).toEqual({
      reference,
      coin: 'USDT',
      principalOpening: '284.500000',
      principalClosing: '0.000000',
      interestOwedOpening: '2.806028',
      interestOwedClosing: '0.000000',
      interestCharged: '0.000000',
      interestPaid: '2.806028',
      feesPaid: '5.690000',
      movements: [
        expect.objectContaining({
          kind: 'repay',
          principal: '-284.500000',
          interestPaid: '2.806028',
          feePaid: '5.690000',
        }),
      ],
    });
    // The liquidated loan: 98 borrowed in the first period, repaid by the sale (its fee 2) in the second.
    expect(loan(early, 'loan:liq')).toMatchObject({ principalClosing: '98.000000' });
    expect(loan(late, 'loan:liq')).toMatchObject({
      principalOpening: '98.000000',
      principalClosing: '0.000000',
      feesPaid: '2.000000',
    });
    // Chain: every loan closes the first period where it opens the second.
    for (const closed of early.loans) {
      const next = loan(late, closed.reference);
      expect([next.principalOpening, next.interestOwedOpening]).toEqual([
        closed.principalClosing,
        closed.interestOwedClosing,
      ]);
    }
  });

  it('puts every fee the platform took in the fee columns of Koinly and CoinTracker', async () => {
    const started = (
      await app.inject({
        method: 'POST',
        url: '/api/statements/generations',
        headers: dave.headers,
        payload: { from: '2026-11-01', to: '2026-11-30' },
      })
    ).json();
    expect(started.statusCode).toBe(200);
    await app.statements.settled(started.content.id);
    const download = async (format: string) =>
      parse(
        (
          await app.inject({
            method: 'GET',
            url: `/api/statements/generations/${started.content.id}/file?format=${format}`,
            headers: { cookie: dave.cookie },
          })
        ).body,
        { columns: true },
      ) as Record<string, string>[];
    const koinly = await download('koinly');
    const described = (text: string) => koinly.filter((r) => (r.Description ?? '').includes(text));
    // The early repayment: 292.996028 left the wallet, of which the 5.69 fee; sent net of it.
    expect(described('Loan repaid')).toEqual([
      expect.objectContaining({
        'Sent Amount': '287.306028',
        'Sent Currency': 'USDT',
        'Fee Amount': '5.69',
        'Fee Currency': 'USDT',
      }),
    ]);
    // The liquidation: the collateral sold, and the 2 USDT fee taken from its proceeds.
    expect(described('Loan collateral liquidated')).toEqual([
      expect.objectContaining({
        'Sent Amount': '0.005',
        'Sent Currency': 'BTC',
        'Fee Amount': '2',
        'Fee Currency': 'USDT',
      }),
    ]);
    // The card fee: a fee alone.
    expect(described('Platform fee')).toEqual([
      expect.objectContaining({ 'Sent Amount': '', 'Received Amount': '', 'Fee Amount': '8', 'Fee Currency': 'USDT' }),
    ]);
    const coinTracker = await download('cointracker');
    const fees = coinTracker
      .filter((r) => r['Fee Amount'] !== '')
      .map((r) => `${r['Fee Amount']} ${r['Fee Currency']}`);
    expect(fees).toEqual(['5.69 USDT', '2 USDT', '8 USDT']);
    // The statement CSV lists the loans' principal and interest rows, and the total.
    const csv = await download('csv');
    const principal = csv.filter((r) => r.Account === 'LOAN_PRINCIPAL' && r.Owner === `loan:${loanId}`);
    expect(principal.map((r) => [r.Row, r.Amount, r.Fee, r.Balance])).toEqual([
      ['OPENING', '', '', '0.000000'],
      ['MOVEMENT', '284.500000', '0.000000', '284.500000'],
      ['MOVEMENT', '-284.500000', '5.690000', '0.000000'],
      ['CLOSING', '', '', '0.000000'],
    ]);
  });
});

describe('impossible ranges', () => {
  let erin: TestSession;
  beforeAll(async () => {
    erin = await registerAndLogin(app);
  });
  const post = (body: object, lang = 'en-US') =>
    app.inject({
      method: 'POST',
      url: '/api/statements/generations',
      headers: { ...erin.headers, 'User-Lang': lang },
      payload: body,
    });
  const fields = async (body: object, lang = 'en-US') => {
    const answer = (await post(body, lang)).json();
    expect(answer.statusCode).toBe(120);
    return Object.fromEntries(
      (answer.content.fields as { field: string; message: string }[]).map((f) => [f.field, f.message]),
    );
  };

  it('refuses year 0000, days before the genesis block, malformed days and ends beyond this month, starting nothing', async () => {
    expect(await fields({ from: '0000-01-01', to: '0000-01-02' })).toEqual({
      from: 'Statements start no earlier than 3 January 2009',
      to: 'Statements start no earlier than 3 January 2009',
    });
    expect(await fields({ from: '2009-01-02', to: '2009-01-03' }, 'zh-HK')).toEqual({
      from: '結單日期不可早於 2009 年 1 月 3 日',
    });
    expect(await fields({ from: '2026-1-01', to: '2026-13-01' })).toEqual({
      from: 'Enter a date as YYYY-MM-DD',
      to: 'Enter a date as YYYY-MM-DD',
    });
    // The request's own range rule: from the first of this month (the contract's today) to a day two
    // months on is within 366 days but ends after this month.
    const firstOfMonth = `${new Date().toISOString().slice(0, 7)}-01`;
    const later = new Date(`${firstOfMonth}T00:00:00Z`);
    later.setUTCMonth(later.getUTCMonth() + 2);
    expect(await fields({ from: firstOfMonth, to: later.toISOString().slice(0, 10) }, 'zh-HK')).toEqual({
      to: '結束日期不可遲於本月最後一日',
    });
    expect(await fields({ from: '2026-01-01', to: '9999-12-31' })).toEqual({
      to: 'A statement covers at most 366 days',
    });
    expect(await app.statements.latest(erin.userId)).toBeNull();
  });

  it('documents the range rule on the contract: the OpenAPI body names the earliest day', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const body = doc.paths['/api/statements/generations'].post.requestBody.content['application/json'].schema;
    expect(body.properties.from.description).toContain('2009-01-03');
    expect(body.properties.from.format).toBe('date');
  });
});
