import { describe, expect, it } from 'vitest';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { assembleStatement, DailyPrices, sectionOf } from './statements.build.ts';

const closes = new Map([
  [
    'BTC',
    [
      { day: '2026-01-01', closeUsd: new PriceDecimal('90000') },
      { day: '2026-01-03', closeUsd: new PriceDecimal('91000.5') },
    ],
  ],
]);
const prices = new DailyPrices(closes, new Map([['EUR', [{ sinceAt: null, usdPerUnit: new PriceDecimal('1.08') }]]]));

describe('statement prices', () => {
  it("takes the day's close, carries the last close over a day without a bar, and knows none before the first", () => {
    expect(prices.usdPerUnit('BTC', '2026-01-01')?.toFixed()).toBe('90000');
    expect(prices.usdPerUnit('BTC', '2026-01-02')?.toFixed()).toBe('90000');
    expect(prices.usdPerUnit('BTC', '2026-01-05')?.toFixed()).toBe('91000.5');
    expect(prices.usdPerUnit('BTC', '2025-12-31')).toBeNull();
    expect(prices.usdPerUnit('ETH', '2026-01-01')).toBeNull();
  });

  it('values USD at 1, stablecoins without a bar at their peg, card currencies at the configured rate', () => {
    expect(prices.usdValue(12_345n, 'USD', '2026-01-01')).toBe('123.45');
    expect(prices.usdValue(2_500_000n, 'USDT', '2026-01-01')).toBe('2.50');
    expect(prices.usdValue(1_000n, 'EUR', '2026-01-01')).toBe('10.80');
    expect(prices.usdValue(-50_000_000n, 'BTC', '2026-01-03')).toBe('-45500.25');
    expect(prices.usdValue(1n, 'GBP', '2026-01-01')).toBeNull();
  });
});

describe('statement prices by the account overview rule, on the day', () => {
  // The card rate table changes twice: EUR 0.92 per USD until 2026-03-10 09:00 UTC, then 0.90, then
  // 0.95 from 2026-03-20 00:00 UTC (a change at midnight is in force for that whole day's close).
  const usdPer = (unitsPerUsd: string) => new PriceDecimal(1).div(unitsPerUsd);
  const history = new DailyPrices(
    new Map([['ETH', [{ day: '2026-03-05', closeUsd: new PriceDecimal('3000') }]]]),
    new Map([
      [
        'EUR',
        [
          { sinceAt: null, usdPerUnit: usdPer('0.92') },
          { sinceAt: new Date('2026-03-10T09:00:00Z'), usdPerUnit: usdPer('0.90') },
          { sinceAt: new Date('2026-03-20T00:00:00Z'), usdPerUnit: usdPer('0.95') },
        ],
      ],
      ['GBP', [{ sinceAt: null, usdPerUnit: usdPer('0.8') }]],
    ]),
  );

  it("values EUR and EURE (1 EURE = 1 EUR) at the card rate in force at each day's close", () => {
    // 1,000 × (1 ÷ 0.92) = 1,086.956… → 1,086.95 (rounded down, as the account overview rounds).
    expect(history.usdValue(100_000n, 'EUR', '2026-03-09')).toBe('1086.95');
    expect(history.usdValue(1_000_000_000n, 'EURE', '2026-03-09')).toBe('1086.95');
    // 1,000 ÷ 0.90 = 1,111.11 from the day of the change on.
    expect(history.usdValue(100_000n, 'EUR', '2026-03-10')).toBe('1111.11');
    expect(history.usdValue(1_000_000_000n, 'EURE', '2026-03-19')).toBe('1111.11');
    // 1,000 ÷ 0.95 = 1,052.63.
    expect(history.usdValue(100_000n, 'EUR', '2026-03-20')).toBe('1052.63');
    expect(history.usdValue(100_000n, 'GBP', '2026-03-20')).toBe('1250.00');
  });

  it('values USDT at its peg, BTC and ETH at the stored close, and knows no price before the first close', () => {
    expect(history.usdValue(5_000_000n, 'USDT', '2026-03-09')).toBe('5.00');
    expect(history.usdValue(200_000_000n, 'ETH', '2026-03-09')).toBe('6000.00');
    expect(history.usdValue(200_000_000n, 'ETH', '2026-03-04')).toBeNull();
    expect(history.usdValue(100_000_000n, 'BTC', '2026-03-09')).toBeNull();
  });

  it('lists an asset without a price explicitly instead of dropping it silently from the total', () => {
    const account = (id: number, asset: 'BTC' | 'EURE' | 'USDT' | 'ETH') => ({
      account: { id, ownerKind: 'user' as const, ownerId: 'u1', type: 'USER_AVAILABLE' as const, asset },
      activity: {
        openingMinor: asset === 'ETH' ? 200_000_000n : asset === 'BTC' ? 10_000_000n : 1_000_000_000n,
        postings: [],
      },
      ownerLabel: null,
    });
    const statement = assembleStatement(
      '2026-03-01',
      '2026-03-09',
      new Date('2026-03-10T00:00:00Z'),
      [account(1, 'BTC'), account(2, 'EURE'), account(3, 'USDT'), account(4, 'ETH')],
      history,
    );
    expect(statement.accounts.map((a) => [a.asset, a.closingUsd])).toEqual([
      ['BTC', null],
      ['EURE', '1086.95'],
      ['USDT', '1000.00'],
      ['ETH', '6000.00'],
    ]);
    // 1,086.95 + 1,000 + 6,000; BTC named as unvalued.
    expect(statement.closingUsdTotal).toBe('8086.95');
    expect(statement.unvaluedAssets).toEqual(['BTC']);
  });
});

describe('assembleStatement', () => {
  it('runs the balance from the opening through each movement, orders sections and leaves out idle accounts', () => {
    const at = (day: string) => new Date(`${day}T12:00:00Z`);
    const account = (id: number, type: 'USER_AVAILABLE' | 'TRUST_HOLDING' | 'USER_FROZEN') => ({
      id,
      ownerKind: type === 'TRUST_HOLDING' ? ('trust' as const) : ('user' as const),
      ownerId: type === 'TRUST_HOLDING' ? '7' : 'u1',
      type,
      asset: 'BTC' as const,
    });
    const statement = assembleStatement(
      '2026-01-01',
      '2026-01-03',
      new Date('2026-01-04T00:00:00Z'),
      [
        { account: account(2, 'TRUST_HOLDING'), activity: { openingMinor: 100n, postings: [] }, ownerLabel: 'Family' },
        {
          account: account(1, 'USER_AVAILABLE'),
          activity: {
            openingMinor: 100_000_000n,
            postings: [
              {
                entryId: 5,
                kind: 'DEPOSIT',
                reference: 'deposit:1',
                createdAt: at('2026-01-01'),
                amountMinor: 50_000_000n,
                feeMinor: 0n,
              },
              {
                entryId: 6,
                kind: 'WITHDRAWAL_FREEZE',
                reference: 'withdrawal:1',
                createdAt: at('2026-01-02'),
                amountMinor: -20_000_000n,
                feeMinor: 0n,
              },
            ],
          },
          ownerLabel: null,
        },
        { account: account(3, 'USER_FROZEN'), activity: { openingMinor: 0n, postings: [] }, ownerLabel: null },
      ],
      prices,
    );
    expect(statement.accounts.map((a) => [a.section, a.ownerRef])).toEqual([
      ['main', null],
      ['trust', 'Family'],
    ]);
    const main = statement.accounts[0]!;
    expect(main.opening).toBe('1.00000000');
    expect(main.movements.map((m) => [m.amount, m.balanceAfter, m.amountUsd])).toEqual([
      ['0.50000000', '1.50000000', '45000.00'],
      ['-0.20000000', '1.30000000', '-18000.00'],
    ]);
    expect(main.closing).toBe('1.30000000');
    expect(main.closingUsd).toBe('118300.65');
    expect(statement.closingUsdTotal).toBe('118300.74');
  });

  it('puts every account type in its section', () => {
    expect(sectionOf('USER_FUND_FIXED')).toBe('fund');
    expect(sectionOf('USER_LOAN_COLLATERAL')).toBe('loan');
    expect(sectionOf('CARD_HELD')).toBe('card');
    expect(sectionOf('USER_FROZEN')).toBe('main');
  });
});
