import { randomUUID } from 'node:crypto';
import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { sql } from 'drizzle-orm';
import type { Response as InjectResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { manualClock } from '../src/platform/clock/clock.ts';
import { queryRows } from '../src/platform/db/rows.ts';
import type { AggregatedPrice, PriceOracle } from '../src/platform/prices/aggregator.ts';
import { PriceDecimal } from '../src/platform/prices/types.ts';
import { postEntry } from '../src/modules/ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../src/modules/ledger/ledger.types.ts';
import { seedWallet } from '../src/modules/wallet/wallet.seed.ts';
import {
  createTestDatabase,
  followTestClock,
  registerAndLogin,
  sensitiveCode,
  TEST_SESSION_SECRET,
  testDatabaseRegistry,
  type TestSession,
} from './helpers.ts';

/**
 * Every money endpoint under racing retries (docs/api.md "Idempotency"): 20 identical requests —
 * same body, same one-time code, same new `Idempotency-Key` — sent at once. None answers a 5xx; the
 * 2xx answers are byte-identical (the first request's answer, replayed); the others are 409
 * IDEMPOTENCY_IN_PROGRESS (290) with `Retry-After`; and the money moved exactly once: one new
 * ledger entry touching the user's accounts, and the answer was stored once, inside the transaction
 * that moved it (the store's `SettleAnswer` called with a transaction, not after the commit). On
 * PGlite the requests interleave between queries; on PostgreSQL they run on several pooled
 * connections at once.
 */
const RACERS = 20;
const clock = manualClock('2026-11-20T04:00:00Z');
const oracle: PriceOracle = {
  sourceNames: ['scripted-a', 'scripted-b', 'scripted-c'],
  pegStatuses: () => [],
  price: async (symbol): Promise<AggregatedPrice> => ({
    symbol,
    priceUsd: new PriceDecimal(symbol === 'BTC' ? '50000' : symbol === 'ETH' ? '2500' : '1'),
    observedAt: clock.now(),
    basis: symbol === 'BTC' || symbol === 'ETH' ? 'median' : 'peg',
    sources: ['scripted-a', 'scripted-b', 'scripted-c'],
    excluded: [],
  }),
};

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let deposits = 0;
/** Answers stored by a service inside its own transaction (`SettleAnswer` called with a `tx`). */
let answersSettledInTransaction = 0;

async function deposit(userId: string, coin: 'USDT' | 'BTC', amountMinor: bigint): Promise<void> {
  deposits += 1;
  await postEntry(database.db, {
    kind: 'DEPOSIT',
    reference: `test:race-${deposits}`,
    idempotencyKey: `test:race-${deposits}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', coin),
      userAccount(userId, 'USER_AVAILABLE', coin),
      amountMinor,
    ),
  });
}

/** A signed-in user at `kycLevel` holding 1 BTC and 100,000 USDT. */
async function richUser(kycLevel: 1 | 2): Promise<TestSession> {
  const session = await registerAndLogin(app);
  await app.identity.setKycLevel(session.userId, kycLevel);
  await deposit(session.userId, 'BTC', 100_000_000n);
  await deposit(session.userId, 'USDT', 100_000_000_000n);
  return session;
}

/** Ledger entries with a posting on one of the user's own accounts. */
async function entriesOf(userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(DISTINCT p.entry_id)::int AS n FROM ledger_postings p
        JOIN ledger_accounts a ON a.id = p.account_id WHERE a.owner_id = ${userId}`,
  );
  return row?.n ?? 0;
}

async function ageCodes(session: TestSession): Promise<void> {
  await database.db.execute(
    sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
  );
}

/**
 * Send `RACERS` identical requests at once and check what every answer and the ledger must show.
 * @returns the content of the (identical) successful answers.
 */
async function race(
  session: TestSession,
  url: string,
  payload: Record<string, unknown>,
  event: string | null,
  extraHeaders: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  await ageCodes(session);
  const factors = event === null ? {} : { emailCaptcha: await sensitiveCode(app, session, event) };
  // The flash exchange's key is its body's `requestId`: no header then.
  const keyHeader: Record<string, string> = 'requestId' in payload ? {} : { [HEADER_IDEMPOTENCY_KEY]: randomUUID() };
  const entriesBefore = await entriesOf(session.userId);
  const settledBefore = answersSettledInTransaction;
  const answers: InjectResponse[] = await Promise.all(
    Array.from({ length: RACERS }, () =>
      app.inject({
        method: 'POST',
        url,
        headers: { ...session.headers, ...keyHeader, ...extraHeaders },
        payload: { ...payload, ...factors },
      }),
    ),
  );
  const summary = answers.map((answer) => `${answer.statusCode}/${answer.json().statusCode}`);
  expect(
    summary.filter((line) => line.startsWith('5')),
    summary.join(' '),
  ).toEqual([]);
  const succeeded = answers.filter((answer) => answer.statusCode === 200);
  expect(succeeded.length, summary.join(' ')).toBeGreaterThan(0);
  expect(new Set(succeeded.map((answer) => answer.body)).size).toBe(1);
  for (const answer of answers.filter((item) => item.statusCode !== 200)) {
    expect(answer.statusCode).toBe(409);
    expect(answer.json().statusCode).toBe(290);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  }
  expect(await entriesOf(session.userId)).toBe(entriesBefore + 1);
  expect(answersSettledInTransaction).toBe(settledBefore + 1);
  // A later retry with the key (a fresh code is not needed) answers the same content.
  const retry = await app.inject({
    method: 'POST',
    url,
    headers: { ...session.headers, ...keyHeader, ...extraHeaders },
    payload,
  });
  expect(retry.body).toBe(succeeded[0]!.body);
  return succeeded[0]!.json().content as Record<string, unknown>;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://' });
  app = await buildApp({ config, database, sessionSecret: TEST_SESSION_SECRET, logger: false, clock, prices: oracle });
  await app.ready();
  // Count the answers the services store in their own transaction (docs/api.md "Idempotency").
  const runOnce = app.idempotency.runOnce.bind(app.idempotency);
  app.idempotency.runOnce = (call, work) =>
    runOnce(call, (settle) =>
      work(async (tx, answer) => {
        if (tx !== database.db) answersSettledInTransaction += 1;
        await settle(tx, answer);
      }),
    );
  followTestClock(app, database, clock);
  await seedWallet(database.db);
  testDatabaseRegistry.open.add(database);
});

afterAll(async () => {
  testDatabaseRegistry.open.delete(database);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
});

describe(`${RACERS} identical racing requests answer once, never a 5xx`, () => {
  it('wallet/withdraw', async () => {
    const session = await richUser(1);
    await race(
      session,
      '/api/wallet/withdraw',
      { coin: 'USDT', network: 'TRC20', address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', amount: '20' },
      'WITHDRAW',
      { 'api-version': '2.0' },
    );
  });

  it('loan/borrow, loan/adjust, loan/repay', async () => {
    const session = await richUser(2);
    const loan = await race(
      session,
      '/api/loan/borrow',
      { loanCoin: 'USDT', termDays: 30, collateralAmount: '0.3', principal: '10000' },
      'LOAN_BORROW',
    );
    await race(session, '/api/loan/adjust', { orderId: loan.orderId, direction: 'ADD', amount: '0.01' }, 'LOAN_ADJUST');
    await race(session, '/api/loan/repay', { orderId: loan.orderId, repayType: 'WALLET' }, 'LOAN_REPAY');
  });

  it('card/apply, card/:id/topup', async () => {
    const session = await richUser(1);
    const card = await race(
      session,
      '/api/card/apply',
      {
        kind: 'PHYSICAL',
        network: 'VISA',
        currency: 'EUR',
        cardholderName: 'MEI CHAN',
        shippingAddress: {
          recipient: 'Mei Chan',
          line1: '1 Queen’s Road Central',
          city: 'Hong Kong',
          country: 'HK',
          phone: '+852 5555 0100',
        },
      },
      'CARD_APPLY',
    );
    expect(card.kind).toBe('PHYSICAL'); // its 10 USDT fee is the entry; a virtual card can be free
    const virtual = await app.cards.apply(
      session.userId,
      { kind: 'VIRTUAL', network: 'VISA', currency: 'EUR', cardholderName: 'MEI CHAN' },
      randomUUID(),
    );
    const quote = await app.cards.quoteTopUp(session.userId, virtual.id, 'USDT', 50_000_000n);
    await race(session, `/api/card/${virtual.id}/topup`, { quoteId: quote.quoteId }, 'CARD_TOPUP');
  });

  it('trust/:id/fund, trust/:id/withdraw', async () => {
    const session = await richUser(2);
    const created = await app.inject({
      method: 'POST',
      url: '/api/trust/create',
      headers: session.headers,
      payload: {
        name: 'Family reserve',
        termMonths: 120,
        isRevocable: true,
        inactivityMonths: 6,
        beneficiaries: [{ name: 'Mei Chan', email: 'mei@example.com', sharePct: '100' }],
      },
    });
    const trustId = created.json().content.id;
    await race(session, `/api/trust/${trustId}/fund`, { amount: '0.1' }, 'TRUST_FUND');
    await race(session, `/api/trust/${trustId}/withdraw`, { amount: '0.05' }, 'TRUST_WITHDRAW');
  });

  it('exchange/swap (with the header), exchange/flash (its requestId is the key)', async () => {
    const session = await richUser(1);
    const quote = await app.inject({
      method: 'GET',
      url: '/api/exchange/rate?from=USDT&to=USDE&amount=10',
      headers: { cookie: session.cookie },
    });
    await race(session, '/api/exchange/swap', { quoteId: quote.json().content.quoteId }, null);
    const flash = { from: 'USDT', to: 'BTC', amount: '100', side: 'from', expectedRate: '0.0000199' };
    await race(session, '/api/exchange/flash', { ...flash, requestId: randomUUID() }, null);
  });

  it('fund/v2/subscribe, fund/v2/redeem', async () => {
    const session = await richUser(2);
    const order = { productId: CURRENT_PRODUCT_ID, actionType: 'WALLET', coin: 'USDT' };
    await race(session, '/api/fund/v2/subscribe', { ...order, amount: '1000' }, 'PURCHASE');
    await race(session, '/api/fund/v2/redeem', { ...order, amount: '250' }, 'REDEEM');
  });
});
