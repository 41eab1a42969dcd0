import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, registerAndLogin, testDatabaseRegistry } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { PriceAggregator } from '../../platform/prices/aggregator.ts';
import { PriceDecimal, type PriceSource, PriceSourceError, type PriceSymbol } from '../../platform/prices/types.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';

/**
 * A price outlier from one source never liquidates a loan: the engine on the REAL median
 * pipeline (`PriceAggregator`, 2 % deviation limit, no cache) over three scripted exchanges.
 */
let nowMs = Date.parse('2026-11-20T04:00:00Z');
const clock = { now: () => new Date(nowMs) };
const btcBySource: Record<string, string> = { a: '50000', b: '50000', c: '50000' };
const source = (name: string): PriceSource => ({
  name,
  supports: (symbol: PriceSymbol) => symbol === 'BTC',
  quote: async (symbol: PriceSymbol) => {
    if (btcBySource[name] === 'down') throw new PriceSourceError(name, 'network', 'scripted outage');
    return {
      symbol,
      priceUsd: new PriceDecimal(btcBySource[name]!),
      observedAt: clock.now(),
      source: name,
    };
  },
});
const oracle = new PriceAggregator([source('a'), source('b'), source('c')], { clock, cacheTtlMs: 0 });

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
});

afterAll(async () => {
  const report = await checkLedgerInvariants(database.db);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
  expect(report.isHeld).toBe(true);
});

it('one source’s outlier is left out of the median: no liquidation; a real move liquidates; a split refuses with an alarm', async () => {
  const user = await registerAndLogin(app);
  await app.identity.setKycLevel(user.userId, 2);
  await postEntry(database.db, {
    kind: 'DEPOSIT',
    reference: 'test:outlier',
    idempotencyKey: 'test:outlier',
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
      userAccount(user.userId, 'USER_AVAILABLE', 'BTC'),
      30_000_000n,
    ),
  });
  await app.loans.borrow(
    user.userId,
    { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
    'outlier-borrow',
  );
  const receipts = async () =>
    (await app.loans.liquidationRecords(user.userId, { pageID: 1, pageSize: 10 })).totalCount;

  btcBySource.c = '30000'; // one exchange prints 30,000: 40 % off the median, left out
  expect(await app.loans.tickEngine()).toMatchObject({ alarm: null, partial: 0, full: 0 });
  expect(await receipts()).toBe(0);

  btcBySource.a = '30000'; // 30,000, 30,000, 50,000: the median moved, 50,000 is the outlier now
  nowMs += 10_000;
  const crash = await app.loans.tickEngine();
  expect(crash!.full).toBe(1);
  expect(await receipts()).toBe(1);

  // A second loan, then two sources only, 40 % apart: no agreeing price → alarm, nothing liquidated.
  btcBySource.a = '50000';
  btcBySource.b = '50000';
  btcBySource.c = '50000';
  await postEntry(database.db, {
    kind: 'DEPOSIT',
    reference: 'test:outlier-2',
    idempotencyKey: 'test:outlier-2',
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
      userAccount(user.userId, 'USER_AVAILABLE', 'BTC'),
      30_000_000n,
    ),
  });
  await app.loans.borrow(
    user.userId,
    { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
    'outlier-borrow-2',
  );
  btcBySource.a = '30000';
  btcBySource.b = 'down';
  nowMs += 10_000;
  expect(await app.loans.tickEngine()).toMatchObject({ alarm: 'PRICE_UNAVAILABLE', partial: 0, full: 0 });
  expect(await receipts()).toBe(1);
});
