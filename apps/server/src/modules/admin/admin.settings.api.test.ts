import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  mutationHeaders,
  registerAndLogin,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { FieldError } from '../../platform/http/errors.ts';
import { signCustodyBody } from '../wallet/wallet.routes.ts';
import { createSettingsWorkflow } from './admin.settings-workflow.ts';
import { ProductSettings, registerProductSettingKinds, type SettingsWallet } from './admin.settings.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * Products and settings of the back office through the API on a fresh database: a
 * switch applies at once (the customer's withdrawal is refused), a fee change waits for a second
 * admin (the proposer cannot approve: 153; a decided change answers 156) and then the withdrawal's
 * fee is the new one; a spread likewise; non-admins get 102 on writes; bad decimals name the field
 * and change nothing; every action is in the audit log.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
let t: TestApp;
let admin1: string;
let admin2: string;
let finance: string;

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
  admin1 = (await t.app.admin.createOperator('a1@example.com', 'admin')).token;
  admin2 = (await t.app.admin.createOperator('a2@example.com', 'admin')).token;
  finance = (await t.app.admin.createOperator('f1@example.com', 'finance')).token;
});
afterAll(async () => {
  await t.close();
});

function call(token: string, method: 'GET' | 'PUT' | 'POST', path: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/api/admin${path}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

async function fundedUser(amount: string): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  const { address } = await t.app.wallet.depositAddress(session.userId, 'USDT', 'TRC20');
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: t.app.clock.now().toISOString(),
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
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(response.json().statusCode).toBe(200);
  return session;
}

function withdrawCheck(session: TestSession) {
  return t.app.inject({
    method: 'POST',
    url: '/api/wallet/withdraw/check',
    headers: { ...session.headers, 'api-version': '2.0' },
    payload: { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' },
  });
}

async function trc20() {
  const list = (await call(finance, 'GET', '/settings/networks')).json();
  expect(list.statusCode).toBe(200);
  return list.content.find(
    (row: { coinCode: string; network: string }) => row.coinCode === 'USDT' && row.network === 'TRC20',
  );
}

async function auditOf(action: string) {
  const audit = await call(admin1, 'GET', `/audit?action=${action}`);
  return audit.json().content.list as { operatorEmail: string; targetId: string; before: unknown; after: unknown }[];
}

describe('network settings', () => {
  it('a withdraw switch applies at once and shows in the customer API; audited with before/after', async () => {
    const session = await fundedUser('100');
    expect((await withdrawCheck(session)).json().statusCode).toBe(200);

    const off = await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { isWithdrawEnabled: false });
    expect(off.json()).toMatchObject({
      statusCode: 200,
      content: { setting: { isWithdrawEnabled: false }, proposed: [] },
    });
    expect((await withdrawCheck(session)).json().statusCode).toBe(135);

    await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { isWithdrawEnabled: true });
    expect((await withdrawCheck(session)).json().statusCode).toBe(200);

    const rows = await auditOf('updateNetworkSetting');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows).toContainEqual(
      expect.objectContaining({
        operatorEmail: 'a1@example.com',
        targetId: 'USDT/TRC20',
        before: expect.objectContaining({ isWithdrawEnabled: true }),
        after: expect.objectContaining({ isWithdrawEnabled: false }),
      }),
    );
  });

  it('a fee change waits for a different admin; then the withdrawal fee is the new one', async () => {
    const session = await fundedUser('100');
    const feeBefore = (await trc20()).withdrawFee;
    const proposed = await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawFee: '2.5' });
    expect(proposed.json().statusCode).toBe(200);
    const [change] = proposed.json().content.proposed;
    expect(change).toMatchObject({ field: 'withdrawFee', before: feeBefore, after: '2.500000', status: 'proposed' });
    expect((await trc20()).withdrawFee).toBe(feeBefore);
    expect((await withdrawCheck(session)).json().content.fee).toBe(feeBefore);

    const pending = await call(finance, 'GET', '/settings/changes?status=proposed');
    expect(pending.json().content.map((c: { id: number }) => c.id)).toContain(change.id);

    const own = await call(admin1, 'POST', `/settings/changes/${change.id}/approve`);
    expect(own.json().statusCode).toBe(153);
    expect((await call(finance, 'POST', `/settings/changes/${change.id}/approve`)).json().statusCode).toBe(102);

    const approved = await call(admin2, 'POST', `/settings/changes/${change.id}/approve`);
    expect(approved.json()).toMatchObject({
      statusCode: 200,
      content: { status: 'applied', decidedBy: 'a2@example.com' },
    });
    expect((await trc20()).withdrawFee).toBe('2.500000');
    expect((await withdrawCheck(session)).json().content).toMatchObject({ fee: '2.500000', totalDebited: '22.500000' });

    const again = await call(admin2, 'POST', `/settings/changes/${change.id}/approve`);
    expect(again.json().statusCode).toBe(156);
    expect((await call(admin1, 'POST', `/settings/changes/${change.id}/reject`)).json().statusCode).toBe(156);

    expect(await auditOf('approveSettingChange')).toContainEqual(
      expect.objectContaining({ operatorEmail: 'a2@example.com', targetId: String(change.id) }),
    );
    expect(await auditOf('approveSettingChange')).toContainEqual(
      expect.objectContaining({ operatorEmail: 'a1@example.com', targetId: String(change.id) }),
    );
  });

  it('a rejected fee change changes nothing', async () => {
    const feeBefore = (await trc20()).withdrawFee;
    const proposed = await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawFee: '3' });
    const [change] = proposed.json().content.proposed;
    const rejected = await call(admin1, 'POST', `/settings/changes/${change.id}/reject`);
    expect(rejected.json()).toMatchObject({ statusCode: 200, content: { status: 'rejected' } });
    expect((await trc20()).withdrawFee).toBe(feeBefore);
    expect(await auditOf('rejectSettingChange')).toContainEqual(
      expect.objectContaining({ operatorEmail: 'a1@example.com', targetId: String(change.id) }),
    );
  });

  it('names a field with too many decimals or a minimum above the maximum, and changes nothing', async () => {
    const before = await trc20();
    const decimals = await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', {
      isDepositEnabled: false,
      withdrawMax: '10.1234567',
    });
    expect(decimals.json().statusCode).toBe(120);
    expect(decimals.json().content.fields[0]).toMatchObject({ field: 'withdrawMax' });
    const minAboveMax = await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', {
      isDepositEnabled: false,
      withdrawMin: '1000000000',
    });
    expect(minAboveMax.json().statusCode).toBe(120);
    expect(minAboveMax.json().content.fields[0]).toMatchObject({ field: 'withdrawMin' });
    expect(await trc20()).toEqual(before);
  });

  it('refuses (176, 409) to approve a fee change whose before is no longer the fee, changing nothing', async () => {
    const feeBefore = (await trc20()).withdrawFee;
    // Two proposals from the same fee: the second approved first moves the fee on.
    const first = (await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawFee: '4' })).json().content
      .proposed[0];
    const second = (await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawFee: '5' })).json().content
      .proposed[0];
    expect([first.before, second.before]).toEqual([feeBefore, feeBefore]);
    expect((await call(admin2, 'POST', `/settings/changes/${second.id}/approve`)).json().statusCode).toBe(200);
    expect((await trc20()).withdrawFee).toBe('5.000000');

    const stale = await call(admin2, 'POST', `/settings/changes/${first.id}/approve`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      statusCode: 176,
      message: 'This setting changed after the change was proposed (it is now 5.000000); reject it and propose again',
    });
    expect((await trc20()).withdrawFee).toBe('5.000000');
    const pending = (await call(finance, 'GET', '/settings/changes?status=proposed')).json().content;
    expect(pending.map((change: { id: number }) => change.id)).toContain(first.id);
    expect((await call(admin1, 'POST', `/settings/changes/${first.id}/reject`)).json().statusCode).toBe(200);
  });

  it('checks min ≤ max inside the update: two edits that each pass alone, read at the same moment, never leave min above max', async () => {
    const before = await trc20();
    const min = Number(before.withdrawMin);
    const max = Number(before.withdrawMax);
    // Each alone keeps min ≤ max; together the minimum would sit above the maximum.
    const raisedMin = String(Math.floor((min + max) / 2) + 1);
    const loweredMax = String(Math.floor((min + max) / 2));
    // The wallet's read of the network waits (up to 300 ms) for the other edit's read, so that both
    // read before either writes when the reads happen outside the update's transaction.
    let waiting: (() => void) | null = null;
    const wallet: SettingsWallet = {
      listNetworkSettings: (db) => t.app.wallet.listNetworkSettings(db),
      updateNetworkSettings: (coin, network, patch, db) => t.app.wallet.updateNetworkSettings(coin, network, patch, db),
      networkSettings: async (coin, network, db) => {
        const read = await t.app.wallet.networkSettings(coin, network, db);
        if (waiting) {
          waiting();
          waiting = null;
        } else
          await new Promise<void>((resolve) => {
            waiting = resolve;
            setTimeout(resolve, 300);
          });
        return read;
      },
    };
    const workflow = createSettingsWorkflow({ db: t.database.db, now: () => t.app.clock.now() });
    registerProductSettingKinds(workflow, wallet, t.app.exchange);
    const settings = new ProductSettings(t.database.db, wallet, t.app.exchange, workflow);
    const outcomes = await Promise.allSettled([
      settings.updateNetwork({ id: 1, email: 'a1@example.com', role: 'admin' }, 'USDT', 'TRC20', {
        withdrawMin: raisedMin,
      }),
      settings.updateNetwork({ id: 2, email: 'a2@example.com', role: 'admin' }, 'USDT', 'TRC20', {
        withdrawMax: loweredMax,
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(FieldError);
    const after = await trc20();
    expect(Number(after.withdrawMin)).toBeLessThanOrEqual(Number(after.withdrawMax));
    // Put the limits back for the tests after this one.
    await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawMin: before.withdrawMin });
    await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawMax: before.withdrawMax });
    expect(await trc20()).toEqual(before);
  });

  it('refuses a non-admin write (102) and lets any operator read', async () => {
    expect(
      (await call(finance, 'PUT', '/settings/networks/USDT/TRC20', { isDepositEnabled: false })).json().statusCode,
    ).toBe(102);
    expect((await call(finance, 'PUT', '/settings/pairs/USDT-BTC', { isEnabled: false })).json().statusCode).toBe(102);
    expect((await call(finance, 'GET', '/settings/pairs')).json().statusCode).toBe(200);
  });
});

describe('pair settings', () => {
  it('a switch applies at once; a spread change applies only after a second admin approves', async () => {
    const pairOf = async () =>
      (await call(finance, 'GET', '/settings/pairs'))
        .json()
        .content.find((p: { pair: string }) => p.pair === 'USDT/BTC');
    const before = await pairOf();
    expect(before).toMatchObject({ from: 'USDT', to: 'BTC', isEnabled: true, spreadBps: 50 });

    const off = await call(admin1, 'PUT', '/settings/pairs/USDT-BTC', { isEnabled: false, spreadBps: 80 });
    expect(off.json()).toMatchObject({ statusCode: 200, content: { setting: { isEnabled: false, spreadBps: 50 } } });
    const [change] = off.json().content.proposed;
    expect(change).toMatchObject({
      targetKind: 'pair',
      targetKey: 'USDT/BTC',
      field: 'spreadBps',
      before: '50',
      after: '80',
    });
    expect(await pairOf()).toMatchObject({ isEnabled: false, spreadBps: 50 });

    expect((await call(admin1, 'PUT', '/settings/pairs/USDT-BTC', { spreadBps: 1001 })).json().statusCode).toBe(120);
    expect((await call(admin1, 'PUT', '/settings/pairs/USDT-USDT', { isEnabled: true })).json().statusCode).toBe(104);

    expect((await call(admin2, 'POST', `/settings/changes/${change.id}/approve`)).json().statusCode).toBe(200);
    expect(await pairOf()).toMatchObject({ isEnabled: false, spreadBps: 80 });
    expect(await auditOf('updatePairSetting')).toContainEqual(
      expect.objectContaining({ operatorEmail: 'a1@example.com', targetId: 'USDT/BTC' }),
    );
  });
});

describe('every kind of settings change in one list', () => {
  it('lists the loan, card, fund, network and pair proposals with their kind; decides only fees and spreads', async () => {
    const loan = (
      await call(admin1, 'POST', '/loan-settings/changes', {
        initialLtvPct: '60',
        marginCallLtvPct: '75',
        liquidationLtvPct: '85',
        liquidationFeePct: '5',
      })
    ).json();
    expect(loan.statusCode).toBe(200);
    const card = (
      await call(admin1, 'POST', '/card-settings/changes', { physicalFeeUsdt: '12', virtualFeeUsdt: '3' })
    ).json();
    expect(card.statusCode).toBe(200);
    const rates = (
      await call(admin1, 'POST', '/card-settings/fx-rates/changes', { EUR: '0.9', GBP: '0.8', JPY: '150' })
    ).json();
    expect(rates.statusCode).toBe(200);
    const fund = (
      await call(admin1, 'POST', '/fund-products/EXW_CURRENT_PRODUCT/tiers', {
        tiers: [{ upTo: null, annualRatePct: '4' }],
      })
    ).json();
    expect(fund.statusCode).toBe(200);
    const fee = (await call(admin1, 'PUT', '/settings/networks/USDT/TRC20', { withdrawFee: '2.5' })).json();
    expect(fee.statusCode).toBe(200);

    const listed = (await call(finance, 'GET', '/settings/changes?status=proposed')).json();
    expect(listed.statusCode).toBe(200);
    const byId = (id: number) => listed.content.find((row: { id: number }) => row.id === id);
    expect(byId(loan.content.id)).toMatchObject({
      kind: 'loans.riskLevels',
      targetKind: 'loans',
      field: 'riskLevels',
      targetKey: '',
      proposedBy: 'a1@example.com',
    });
    expect(byId(loan.content.id).after).toContain('60');
    expect(byId(card.content.id)).toMatchObject({
      kind: 'cards.fees',
      targetKind: 'cards',
      after: '12 / 3 USDT',
    });
    expect(byId(rates.content.id)).toMatchObject({ kind: 'cards.fxRates', targetKind: 'cards' });
    expect(byId(fund.content.id)).toMatchObject({
      kind: 'funds.rateTiers',
      targetKind: 'funds',
      targetKey: 'EXW_CURRENT_PRODUCT',
      before: '3.65 % to 50000.00 · 2.00 % above',
      after: '4.00 % above',
    });
    expect(byId(fee.content.proposed[0].id)).toMatchObject({
      kind: 'network.withdrawFee',
      targetKind: 'network',
      targetKey: 'USDT/TRC20',
      after: '2.500000',
    });
    const kinds = new Set(listed.content.map((row: { kind: string }) => row.kind));
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'loans.riskLevels',
        'cards.fees',
        'cards.fxRates',
        'funds.rateTiers',
        'network.withdrawFee',
      ]),
    );

    // The generic routes decide fees and spreads only: another module's change is 104 there.
    expect((await call(admin2, 'POST', `/settings/changes/${loan.content.id}/approve`)).json().statusCode).toBe(104);
    expect((await call(admin2, 'POST', `/settings/changes/${fund.content.id}/reject`)).json().statusCode).toBe(104);
    for (const id of [loan.content.id, card.content.id, rates.content.id, fund.content.id])
      expect(byId(id).status).toBe('proposed');
    // Leave nothing pending for the tests after this one.
    await call(admin1, 'POST', `/loan-settings/changes/${loan.content.id}/reject`);
    await call(admin1, 'POST', `/card-settings/changes/${card.content.id}/reject`);
    await call(admin1, 'POST', `/card-settings/changes/${rates.content.id}/reject`);
    await call(admin1, 'POST', `/fund-products/changes/${fund.content.id}/reject`);
    await call(admin1, 'POST', `/settings/changes/${fee.content.proposed[0].id}/reject`);
  });
});
