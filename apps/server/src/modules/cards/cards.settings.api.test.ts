import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { accountBalance, platformBalance, postEntry } from '../ledger/ledger.service.ts';
import { cardAccount, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * Card programme settings in the back office (each change
 * audited; risky changes (fees) take effect after a second approval; docs/back-office.md
 * "Card settings"): any operator reads, only an admin writes; bad input is refused naming the field;
 * every change is audited with before and after; the fees apply only on a second admin's approval,
 * and the cards module reads what was set — a physical application then charges exactly 12.5 USDT,
 * a fourth card is refused at a maximum of 1, a virtual card in a currency no longer offered is
 * refused (310). EURE tops up a EUR card at exactly 1:1 whatever the rate table says
 * (123.456789 EURE → 123.45 EUR), a USD card through the table as EUR (92 EURE at 0.92 → 100.00 USD),
 * and the wallet values EURE at the same EUR rate. The ledger check runs after the file.
 */
let t: TestApp;
let adminToken: string;
let secondAdminToken: string;
let supportToken: string;
let adminId: number;

const ops = async (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  (
    await t.app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    })
  ).json();

async function auditRows(targetType: string) {
  return queryRows<{ target_id: string; before: unknown; after: unknown; outcome_code: number; operator_id: number }>(
    t.database.db,
    sql`SELECT target_id, before, after, outcome_code, operator_id FROM audit_log WHERE target_type = ${targetType} ORDER BY id`,
  );
}

async function credit(userId: string, asset: 'USDT' | 'EURE', amountMinor: bigint): Promise<void> {
  await postEntry(t.database.db, {
    kind: 'DEPOSIT',
    reference: `test:${userId}`,
    idempotencyKey: `test:${randomUUID()}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', asset),
      userAccount(userId, 'USER_AVAILABLE', asset),
      amountMinor,
    ),
  });
}

/** Set the rate table the only way there is: one admin proposes, a different one approves. */
async function setRates(rates: { EUR: string; GBP: string; JPY: string }) {
  const proposed = await ops(adminToken, 'POST', '/card-settings/fx-rates/changes', rates);
  expect(proposed.statusCode).toBe(200);
  const approved = await ops(secondAdminToken, 'POST', `/card-settings/changes/${proposed.content.id}/approve`);
  expect(approved.statusCode).toBe(200);
  return (await ops(supportToken, 'GET', '/card-settings')).content;
}

/** A signed-in user at level 1. */
async function holder(): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  return session;
}

const ADDRESS = {
  recipient: 'Mei Chan',
  line1: '1 Queen’s Road Central',
  city: 'Hong Kong',
  country: 'HK',
  phone: '+852 5555 0100',
};
const physical = (userId: string) =>
  t.app.cards.apply(
    userId,
    { kind: 'PHYSICAL', network: 'VISA', currency: 'USD', cardholderName: 'MEI CHAN', shippingAddress: ADDRESS },
    randomUUID(),
  );
const virtual = (userId: string, currency: 'EUR' | 'USD' | 'GBP' = 'EUR') =>
  t.app.cards.apply(userId, { kind: 'VIRTUAL', network: 'VISA', currency, cardholderName: 'MEI CHAN' }, randomUUID());
const wallet = (userId: string, asset: 'USDT' | 'EURE') =>
  accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', asset));

beforeAll(async () => {
  t = await createTestApp();
  await seedWallet(t.database.db); // the coins, EURE among them
  const admin = await t.app.admin.createOperator('card-admin@example.com', 'admin');
  adminToken = admin.token;
  adminId = admin.operator.id;
  secondAdminToken = (await t.app.admin.createOperator('card-admin2@example.com', 'admin')).token;
  supportToken = (await t.app.admin.createOperator('card-support@example.com', 'support')).token;
});
afterAll(async () => t.close());

describe('card settings in the back office', () => {
  it('shows the programme to any operator, with the defaults (fee 10 USDT, 3 cards per user)', async () => {
    const answer = await ops(supportToken, 'GET', '/card-settings');
    expect(answer.statusCode).toBe(200);
    expect(answer.content).toMatchObject({
      physicalFeeUsdt: '10',
      virtualFeeUsdt: '10',
      physicalCardsMax: 3,
      isPromotionEnabled: true,
      virtualCurrencies: ['USD', 'EUR', 'JPY', 'GBP'],
      topUpMin: '10.000000',
      topUpMax: '100000.000000',
      fxRates: [
        { currency: 'USD', unitsPerUsd: '1' },
        { currency: 'EUR', unitsPerUsd: '0.92' },
        { currency: 'JPY', unitsPerUsd: '150' },
        { currency: 'GBP', unitsPerUsd: '0.79' },
      ],
      changes: [],
    });
    expect(answer.content.defaultLimits[2]).toEqual({
      currency: 'JPY',
      perTransaction: '750000',
      daily: '1500000',
      monthly: '7500000',
    });
  });

  it('refuses writes by support (102) and bad input (120 naming the field), changing nothing', async () => {
    expect((await ops(supportToken, 'PUT', '/card-settings/issuing', { physicalCardsMax: 5 })).statusCode).toBe(102);
    const fees = { physicalFeeUsdt: '12.5', virtualFeeUsdt: '8' };
    expect((await ops(supportToken, 'POST', '/card-settings/changes', fees)).statusCode).toBe(102);
    const rates = { EUR: '0.9', GBP: '0.8', JPY: '155' };
    expect((await ops(supportToken, 'POST', '/card-settings/fx-rates/changes', rates)).statusCode).toBe(102);
    // The immediate rate call is gone: a rate table is only proposed.
    expect((await ops(adminToken, 'PUT', '/card-settings/fx-rates', rates)).statusCode).not.toBe(200);
    const refusals: [string, string, object, string][] = [
      ['POST', '/card-settings/changes', { ...fees, physicalFeeUsdt: '1000.01' }, 'physicalFeeUsdt'],
      ['POST', '/card-settings/changes', { ...fees, virtualFeeUsdt: '1.0000001' }, 'virtualFeeUsdt'],
      ['POST', '/card-settings/changes', { ...fees, virtualFeeUsdt: '-1' }, 'virtualFeeUsdt'],
      ['PUT', '/card-settings/issuing', { physicalCardsMax: 21 }, 'physicalCardsMax'],
      ['PUT', '/card-settings/issuing', { physicalCardsMax: 1.5 }, 'physicalCardsMax'],
      ['PUT', '/card-settings/issuing', { virtualCurrencies: [] }, 'virtualCurrencies'],
      ['PUT', '/card-settings/issuing', { virtualCurrencies: ['USD', 'USD'] }, 'virtualCurrencies'],
      ['PUT', '/card-settings/issuing', { promotionEndsAt: 'soon' }, 'promotionEndsAt'],
      [
        'PUT',
        '/card-settings/issuing',
        { promotionStartsAt: '2027-02-01T00:00:00Z', promotionEndsAt: '2027-01-01T00:00:00+08:00' },
        'promotionEndsAt',
      ],
      // The stored end (2027-06-30) comes before this start.
      ['PUT', '/card-settings/issuing', { promotionStartsAt: '2027-07-01T00:00:00Z' }, 'promotionEndsAt'],
      ['PUT', '/card-settings/top-up', { topUpMin: '50', topUpMax: '20' }, 'topUpMax'],
      ['PUT', '/card-settings/top-up', { topUpMin: '0', topUpMax: '20' }, 'topUpMin'],
      ['PUT', '/card-settings/limits/EUR', { perTransaction: '600', daily: '500', monthly: '900' }, 'daily'],
      ['PUT', '/card-settings/limits/EUR', { perTransaction: '100', daily: '500', monthly: '400' }, 'monthly'],
      ['PUT', '/card-settings/limits/JPY', { perTransaction: '1.5', daily: '500', monthly: '900' }, 'perTransaction'],
      ['POST', '/card-settings/fx-rates/changes', { ...rates, EUR: '0' }, 'EUR'],
      ['POST', '/card-settings/fx-rates/changes', { ...rates, JPY: '155.123456789' }, 'JPY'],
      ['POST', '/card-settings/fx-rates/changes', { ...rates, GBP: '2000000' }, 'GBP'],
    ];
    for (const [method, url, body, field] of refusals) {
      const answer = await ops(adminToken, method as 'PUT' | 'POST', url, body);
      expect(answer.statusCode, `${url} ${JSON.stringify(body)}`).toBe(120);
      expect(answer.content.fields[0].field, `${url} ${JSON.stringify(body)}`).toBe(field);
    }
    const after = (await ops(supportToken, 'GET', '/card-settings')).content;
    expect(after).toMatchObject({ physicalCardsMax: 3, topUpMin: '10.000000', changes: [] });
    expect(after.fxRates[1].unitsPerUsd).toBe('0.92');
  });

  it('applies a fee change only on a second admin’s approval; the next application charges it exactly', async () => {
    const proposed = await ops(adminToken, 'POST', '/card-settings/changes', {
      physicalFeeUsdt: '12.5',
      virtualFeeUsdt: '8.000000',
    });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.content).toMatchObject({
      before: { physicalFeeUsdt: '10', virtualFeeUsdt: '10' },
      after: { physicalFeeUsdt: '12.5', virtualFeeUsdt: '8' },
      status: 'proposed',
      proposedBy: 'card-admin@example.com',
      decidedBy: null,
    });
    const id = proposed.content.id as number;

    // Proposed only: an application now still pays 10 USDT.
    const early = await holder();
    await credit(early.userId, 'USDT', 100_000_000n);
    await physical(early.userId);
    expect(await wallet(early.userId, 'USDT')).toBe(90_000_000n);

    expect((await ops(adminToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(153);
    expect((await ops(supportToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(102);
    expect((await ops(supportToken, 'GET', '/card-settings')).content.physicalFeeUsdt).toBe('10');

    const approved = await ops(secondAdminToken, 'POST', `/card-settings/changes/${id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.content).toMatchObject({ status: 'applied', decidedBy: 'card-admin2@example.com' });
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(156);
    expect((await ops(adminToken, 'POST', `/card-settings/changes/${id}/reject`)).statusCode).toBe(156);

    const session = await holder();
    await credit(session.userId, 'USDT', 100_000_000n);
    const config = (
      await t.app.inject({ method: 'GET', url: '/api/card/config', headers: { cookie: session.cookie } })
    ).json().content;
    expect(config).toMatchObject({ physicalFee: { coin: 'USDT', amount: '12.500000' } });
    const feesBefore = await platformBalance(t.database.db, 'PLATFORM_FEES', 'USDT');
    await physical(session.userId);
    // 100 − 12.5 = 87.5 USDT left; the platform's fee account gains exactly 12.5.
    expect(await wallet(session.userId, 'USDT')).toBe(87_500_000n);
    expect(await platformBalance(t.database.db, 'PLATFORM_FEES', 'USDT')).toBe(feesBefore + 12_500_000n);

    const audit = await auditRows('card-setting-change');
    expect(audit.map((row) => [row.target_id, row.outcome_code])).toEqual([
      [String(id), 200],
      [String(id), 153],
      [String(id), 200],
      [String(id), 156],
      [String(id), 156],
    ]);
    expect(audit[2]).toMatchObject({
      before: { physicalFeeUsdt: '10', virtualFeeUsdt: '10' },
      after: { physicalFeeUsdt: '12.5', virtualFeeUsdt: '8' },
    });
    expect(audit[0]!.operator_id).toBe(adminId);
  });

  it('refuses a stale proposal (176) and rejects one, changing nothing', async () => {
    const first = (
      await ops(adminToken, 'POST', '/card-settings/changes', { physicalFeeUsdt: '9', virtualFeeUsdt: '1' })
    ).content.id as number;
    const second = (
      await ops(adminToken, 'POST', '/card-settings/changes', { physicalFeeUsdt: '11', virtualFeeUsdt: '0' })
    ).content.id as number;
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${second}/approve`)).statusCode).toBe(200);
    const stale = await ops(secondAdminToken, 'POST', `/card-settings/changes/${first}/approve`);
    expect(stale.statusCode).toBe(176);
    expect(stale.message).toContain('11 / 0 USDT');
    const rejected = await ops(adminToken, 'POST', `/card-settings/changes/${first}/reject`);
    expect(rejected.content).toMatchObject({ status: 'rejected', decidedBy: 'card-admin@example.com' });
    const view = (await ops(supportToken, 'GET', '/card-settings')).content;
    expect(view).toMatchObject({ physicalFeeUsdt: '11', virtualFeeUsdt: '0' });
    expect(
      view.changes.map((change: { id: number; status: string }) => [change.id, change.status]).slice(0, 2),
    ).toEqual([
      [second, 'applied'],
      [first, 'rejected'],
    ]);
  });

  it('changes the card count, currencies, promotion, limits and top-up bounds at once, audited; the card module obeys', async () => {
    const issuing = await ops(adminToken, 'PUT', '/card-settings/issuing', {
      physicalCardsMax: 1,
      virtualCurrencies: ['USD', 'GBP'],
      isPromotionEnabled: false,
    });
    expect(issuing.statusCode).toBe(200);
    expect(issuing.content).toMatchObject({
      physicalCardsMax: 1,
      virtualCurrencies: ['USD', 'GBP'],
      isPromotionEnabled: false,
      isPromotionOn: false,
    });
    const limits = await ops(adminToken, 'PUT', '/card-settings/limits/GBP', {
      perTransaction: '250.5',
      daily: '1000',
      monthly: '3000.00',
    });
    expect(limits.content.defaultLimits[3]).toEqual({
      currency: 'GBP',
      perTransaction: '250.50',
      daily: '1000.00',
      monthly: '3000.00',
    });
    const topUp = await ops(adminToken, 'PUT', '/card-settings/top-up', { topUpMin: '25', topUpMax: '500.5' });
    expect(topUp.content).toMatchObject({ topUpMin: '25.000000', topUpMax: '500.500000' });

    const session = await holder();
    await credit(session.userId, 'USDT', 1_000_000_000n);
    await physical(session.userId); // 11 USDT (the fee approved above)
    await expect(physical(session.userId)).rejects.toMatchObject({ code: 'CARD_PHYSICAL_LIMIT_REACHED' });
    await expect(virtual(session.userId, 'EUR')).rejects.toMatchObject({ code: 'CARD_CURRENCY_NOT_OFFERED' });
    const gbp = await virtual(session.userId, 'GBP'); // the promotion is off: the virtual fee, 0 USDT
    expect(await wallet(session.userId, 'USDT')).toBe(989_000_000n);
    const detail = await t.app.cards.detail(session.userId, gbp.id);
    expect(detail.limits).toEqual({ perTransaction: '250.50', daily: '1000.00', monthly: '3000.00' });

    const quote = (amount: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/card/${gbp.id}/topup/quote`,
        headers: session.headers,
        payload: { coin: 'USDT', amount },
      });
    expect((await quote('24.999999')).json()).toMatchObject({ statusCode: 132 });
    expect((await quote('500.500001')).json()).toMatchObject({ statusCode: 133 });
    // 500.5 USDT at 0.79 GBP per USD = 395.395 → 395.39 GBP (rounded down).
    expect((await quote('500.5')).json().content).toMatchObject({ creditAmount: '395.39', rate: '0.79' });

    const config = (
      await t.app.inject({ method: 'GET', url: '/api/card/config', headers: { cookie: session.cookie } })
    ).json().content;
    expect(config).toMatchObject({
      physicalCardsMax: 1,
      physicalCardsLeft: 0,
      virtualCurrencies: ['USD', 'GBP'],
      isVirtualFeeWaived: false,
      promotionEndsAt: null,
      topUpMin: '25.000000',
      topUpMax: '500.500000',
    });

    const audit = await auditRows('card-settings');
    expect(audit.map((row) => row.target_id)).toEqual(['issuing', 'limits:GBP', 'top-up']);
    expect(audit[0]).toMatchObject({
      before: { physicalCardsMax: 3, isPromotionEnabled: true, virtualCurrencies: ['USD', 'EUR', 'JPY', 'GBP'] },
      after: { physicalCardsMax: 1, isPromotionEnabled: false, virtualCurrencies: ['USD', 'GBP'] },
    });
    expect(audit[2]).toMatchObject({
      before: { topUpMin: '10.000000', topUpMax: '100000.000000' },
      after: { topUpMin: '25.000000', topUpMax: '500.500000' },
    });

    await ops(adminToken, 'PUT', '/card-settings/issuing', {
      physicalCardsMax: 3,
      virtualCurrencies: ['USD', 'EUR', 'JPY', 'GBP'],
      isPromotionEnabled: true,
    });
    await ops(adminToken, 'PUT', '/card-settings/top-up', { topUpMin: '10', topUpMax: '100000' });
  });
});

describe('the card rate table with four eyes', () => {
  it('applies a proposed rate table only on a different admin’s approval, once, audited with before and after', async () => {
    const thirdAdminToken = (await t.app.admin.createOperator('card-admin3@example.com', 'admin')).token;
    const session = await holder();
    await credit(session.userId, 'USDT', 1_000_000_000n);
    const card = await virtual(session.userId, 'EUR');
    const quote = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/card/${card.id}/topup/quote`,
          headers: session.headers,
          payload: { coin: 'USDT', amount: '100' },
        })
      ).json().content;
    // 100 USDT at 0.92 EUR per USD = 92.00 EUR.
    expect(await quote()).toMatchObject({ creditAmount: '92.00', rate: '0.92' });

    const proposed = await ops(adminToken, 'POST', '/card-settings/fx-rates/changes', {
      EUR: '0.9000',
      GBP: '0.8',
      JPY: '155.5',
    });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.content).toMatchObject({
      kind: 'fxRates',
      before: { EUR: '0.92', GBP: '0.79', JPY: '150' },
      after: { EUR: '0.9', GBP: '0.8', JPY: '155.5' },
      status: 'proposed',
      proposedBy: 'card-admin@example.com',
      decidedBy: null,
    });
    const id = proposed.content.id as number;

    // Not in force before the approval: the table, a new quote and the proposer's own approval.
    expect((await ops(supportToken, 'GET', '/card-settings')).content.fxRates[1]).toEqual({
      currency: 'EUR',
      unitsPerUsd: '0.92',
    });
    expect(await quote()).toMatchObject({ creditAmount: '92.00', rate: '0.92' });
    expect((await ops(adminToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(153);
    expect((await ops(supportToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(102);
    expect(await quote()).toMatchObject({ creditAmount: '92.00', rate: '0.92' });
    const listed = (await ops(supportToken, 'GET', '/card-settings')).content.changes[0];
    expect(listed).toMatchObject({ id, kind: 'fxRates', status: 'proposed' });

    // Two different admins approve at once: one applies it, the other is told it is decided.
    const answers = await Promise.all([
      ops(secondAdminToken, 'POST', `/card-settings/changes/${id}/approve`),
      ops(thirdAdminToken, 'POST', `/card-settings/changes/${id}/approve`),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([156, 200]);
    const approved = answers.find((answer) => answer.statusCode === 200)!;
    expect(approved.content).toMatchObject({ kind: 'fxRates', status: 'applied' });
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${id}/approve`)).statusCode).toBe(156);

    const view = (await ops(supportToken, 'GET', '/card-settings')).content;
    expect(view.fxRates).toEqual([
      { currency: 'USD', unitsPerUsd: '1' },
      { currency: 'EUR', unitsPerUsd: '0.9' },
      { currency: 'JPY', unitsPerUsd: '155.5' },
      { currency: 'GBP', unitsPerUsd: '0.8' },
    ]);
    // Now in force: 100 USDT at 0.9 = 90.00 EUR.
    expect(await quote()).toMatchObject({ creditAmount: '90.00', rate: '0.9' });

    const audit = (await auditRows('card-setting-change')).filter((row) => row.target_id === String(id));
    // Proposed (200), refused to its proposer (153), the two approvals at once (200 and 156, either
    // order), the late one (156).
    expect(audit.map((row) => row.outcome_code).slice(0, 2)).toEqual([200, 153]);
    expect(audit.map((row) => row.outcome_code).sort()).toEqual([153, 156, 156, 200, 200]);
    expect(audit[0]).toMatchObject({
      operator_id: adminId,
      before: { EUR: '0.92', GBP: '0.79', JPY: '150' },
      after: { EUR: '0.9', GBP: '0.8', JPY: '155.5' },
    });
    const applied = audit.filter((row) => row.outcome_code === 200)[1]!;
    expect(applied).toMatchObject({
      before: { EUR: '0.92', GBP: '0.79', JPY: '150' },
      after: { EUR: '0.9', GBP: '0.8', JPY: '155.5' },
    });
  });

  it('refuses a stale rate proposal (176) once another rate table is applied; fees and rates do not make each other stale', async () => {
    const rates = (
      await ops(adminToken, 'POST', '/card-settings/fx-rates/changes', { EUR: '0.91', GBP: '0.8', JPY: '150' })
    ).content.id as number;
    const other = (
      await ops(adminToken, 'POST', '/card-settings/fx-rates/changes', { EUR: '0.93', GBP: '0.8', JPY: '150' })
    ).content.id as number;
    const fees = (
      await ops(adminToken, 'POST', '/card-settings/changes', { physicalFeeUsdt: '11', virtualFeeUsdt: '1' })
    ).content.id as number;
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${other}/approve`)).statusCode).toBe(200);
    const stale = await ops(secondAdminToken, 'POST', `/card-settings/changes/${rates}/approve`);
    expect(stale.statusCode).toBe(176);
    expect(stale.message).toContain('EUR 0.93');
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${fees}/approve`)).statusCode).toBe(200);
    expect((await ops(adminToken, 'POST', `/card-settings/changes/${rates}/reject`)).content).toMatchObject({
      kind: 'fxRates',
      status: 'rejected',
    });
    const view = (await ops(supportToken, 'GET', '/card-settings')).content;
    expect(view).toMatchObject({ physicalFeeUsdt: '11', virtualFeeUsdt: '1' });
    expect(view.fxRates[1]).toEqual({ currency: 'EUR', unitsPerUsd: '0.93' });
    await setRates({ EUR: '0.92', GBP: '0.79', JPY: '150' });
    await ops(adminToken, 'POST', '/card-settings/changes', { physicalFeeUsdt: '11', virtualFeeUsdt: '0' }).then(
      async (answer) => ops(secondAdminToken, 'POST', `/card-settings/changes/${answer.content.id}/approve`),
    );
  });
});

describe('EURE top-ups and valuation', () => {
  it('tops up a EUR card from EURE at exactly 1:1 whatever the rate table says', async () => {
    const rates = await setRates({ EUR: '0.5', GBP: '0.79', JPY: '150' });
    expect(rates.fxRates[1]).toEqual({ currency: 'EUR', unitsPerUsd: '0.5' });
    const session = await holder();
    await credit(session.userId, 'EURE', 1_000_000_000n); // 1,000 EURE
    const card = await virtual(session.userId, 'EUR');
    const quote = (
      await t.app.inject({
        method: 'POST',
        url: `/api/card/${card.id}/topup/quote`,
        headers: session.headers,
        payload: { coin: 'EURE', amount: '123.456789' },
      })
    ).json().content;
    // 123.456789 EURE → 123.45 EUR (the 0.006789 left over is below a cent, rounded down), rate 1.
    expect(quote).toMatchObject({
      coin: 'EURE',
      amount: '123.456789',
      currency: 'EUR',
      creditAmount: '123.45',
      rate: '1',
    });
    // A rate change after the quote changes nothing of it.
    await setRates({ EUR: '0.92', GBP: '0.79', JPY: '150' });
    const done = await t.app.cards.topUp(session.userId, card.id, quote.quoteId, randomUUID());
    expect(done).toMatchObject({ kind: 'TOPUP', amount: '123.45', sourceCoin: 'EURE', sourceAmount: '123.456789' });
    expect(await wallet(session.userId, 'EURE')).toBe(876_543_211n);
    expect(await accountBalance(t.database.db, cardAccount(card.id, 'CARD_AVAILABLE', 'EUR'))).toBe(12_345n);
    const entries = await queryRows<{ account: string; amount_minor: string }>(
      t.database.db,
      sql`SELECT a.asset AS account, p.amount_minor::text AS amount_minor FROM ledger_postings p
          JOIN ledger_entries e ON e.id = p.entry_id JOIN ledger_accounts a ON a.id = p.account_id
          WHERE e.idempotency_key = ${`card-topup:${quote.quoteId}`} ORDER BY p.amount_minor`,
    );
    expect(entries.map((row) => [row.account, row.amount_minor])).toEqual([
      ['EURE', '-123456789'],
      ['EUR', '-12345'],
      ['EUR', '12345'],
      ['EURE', '123456789'],
    ]);
  });

  it('tops up a USD card from EURE through the table as EUR, and values EURE at the same rate', async () => {
    const session = await holder();
    await credit(session.userId, 'EURE', 92_000_000n); // 92 EURE
    const card = await virtual(session.userId, 'USD');
    const quote = await t.app.cards.quoteTopUp(session.userId, card.id, 'EURE', 46_000_000n);
    // 46 EURE = 46 EUR at 0.92 EUR per USD = 50.00 USD.
    expect(quote).toMatchObject({ creditAmount: '50.00', currency: 'USD' });
    const balance = (
      await t.app.inject({ method: 'GET', url: '/api/wallet/balance', headers: { cookie: session.cookie } })
    ).json().content;
    const main = balance.wallet.accounts[0];
    // 92 EURE ÷ 0.92 = 100.00 USD.
    expect(
      main.assets.find((a: { coinCode: string; type: string }) => a.coinCode === 'EURE' && a.type === 'available'),
    ).toEqual({ coinCode: 'EURE', type: 'available', amount: '92.000000', convert: '100.00' });
  });
});
