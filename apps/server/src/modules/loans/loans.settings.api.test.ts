import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, registerAndLogin, testDatabaseRegistry } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { queryRows } from '../../platform/db/rows.ts';
import type { AggregatedPrice, PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';

/**
 * Loan settings in the back office (docs/back-office.md "Loan
 * settings"): any operator reads, only an admin writes; bad input is refused naming the field; every
 * change is audited with before and after; LTV levels and the fee apply only on a second admin's
 * approval; a loan made after an APR change uses the new APR (12 % → 15.5 % on the 30-day term:
 * 10,000 USDT × 0.155 × 30 ÷ 365 = 127.397260… → rounded up 127.397261 USDT of interest).
 */
const now = new Date('2026-11-20T04:00:00Z');
const oracle: PriceOracle = {
  sourceNames: ['scripted-a', 'scripted-b', 'scripted-c'],
  pegStatuses: () => [],
  price: async (symbol): Promise<AggregatedPrice> => ({
    symbol,
    priceUsd: new PriceDecimal(symbol === 'BTC' ? '50000' : symbol === 'ETH' ? '2500' : '1'),
    observedAt: now,
    basis: symbol === 'BTC' || symbol === 'ETH' ? 'median' : 'peg',
    sources: ['scripted-a', 'scripted-b', 'scripted-c'],
    excluded: [],
  }),
};

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let adminToken: string;
let secondAdminToken: string;
let supportToken: string;

const ops = async (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  (
    await app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    })
  ).json();

async function auditRows(targetType: string) {
  return queryRows<{ action: string; target_id: string; before: unknown; after: unknown; outcome_code: number }>(
    database.db,
    sql`SELECT action, target_id, before, after, outcome_code FROM audit_log WHERE target_type = ${targetType} ORDER BY id`,
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'memory://' });
  app = await buildApp({
    config,
    database,
    sessionSecret: 'test-secret-'.padEnd(48, 'x'),
    logger: false,
    clock: { now: () => now },
    prices: oracle,
  });
  await app.ready();
  adminToken = (await app.admin.createOperator('admin@example.com', 'admin')).token;
  secondAdminToken = (await app.admin.createOperator('admin2@example.com', 'admin')).token;
  supportToken = (await app.admin.createOperator('support@example.com', 'support')).token;
});

afterAll(async () => {
  const report = await checkLedgerInvariants(database.db);
  for (const hook of testDatabaseRegistry.beforeClose) await hook(database);
  await app.close();
  await database.dispose();
  expect(report.isHeld).toBe(true);
});

describe('loan settings in the back office', () => {
  it('shows the rules to any operator', async () => {
    const answer = await ops(supportToken, 'GET', '/loan-settings');
    expect(answer.statusCode).toBe(200);
    expect(answer.content).toMatchObject({
      terms: [
        { termDays: 30, annualRatePct: '12', isEnabled: true },
        { termDays: 90, annualRatePct: '10', isEnabled: true },
        { termDays: 180, annualRatePct: '9', isEnabled: true },
        { termDays: 360, annualRatePct: '8', isEnabled: true },
      ],
      initialLtvPct: '70',
      marginCallLtvPct: '80',
      liquidationLtvPct: '90',
      alertLtvPcts: ['75', '80', '85'],
      liquidationFeePct: '2',
      maxOutstandingUsd: '1000000.00',
      changes: [],
    });
    expect(answer.content.coins[0]).toEqual({ coin: 'USDT', isEnabled: true, minPrincipal: '100.000000' });
  });

  it('refuses writes by support (102) and bad input (120 naming the field), changing nothing', async () => {
    expect((await ops(supportToken, 'PUT', '/loan-settings/terms/30', { annualRatePct: '15' })).statusCode).toBe(102);
    expect((await ops(supportToken, 'PUT', '/loan-settings/limits', { maxOutstandingUsd: '5.00' })).statusCode).toBe(
      102,
    );
    const risky = { initialLtvPct: '65', marginCallLtvPct: '75', liquidationLtvPct: '85', liquidationFeePct: '3' };
    expect((await ops(supportToken, 'POST', '/loan-settings/changes', risky)).statusCode).toBe(102);
    const refusals: [string, string, object, string][] = [
      ['PUT', '/loan-settings/terms/30', { annualRatePct: '50.01' }, 'annualRatePct'],
      ['PUT', '/loan-settings/terms/30', { annualRatePct: '0' }, 'annualRatePct'],
      ['PUT', '/loan-settings/terms/30', { annualRatePct: '12.345' }, 'annualRatePct'],
      ['PUT', '/loan-settings/coins/USDT', { minPrincipal: '1.0000001' }, 'minPrincipal'],
      ['PUT', '/loan-settings/limits', { maxOutstandingUsd: 'lots' }, 'maxOutstandingUsd'],
      ['POST', '/loan-settings/changes', { ...risky, marginCallLtvPct: '60' }, 'marginCallLtvPct'],
      ['POST', '/loan-settings/changes', { ...risky, liquidationLtvPct: '75' }, 'liquidationLtvPct'],
      ['POST', '/loan-settings/changes', { ...risky, liquidationLtvPct: '100' }, 'liquidationLtvPct'],
      ['POST', '/loan-settings/changes', { ...risky, liquidationFeePct: '20.01' }, 'liquidationFeePct'],
    ];
    for (const [method, url, body, field] of refusals) {
      const answer = await ops(adminToken, method as 'PUT' | 'POST', url, body);
      expect(answer.statusCode, `${url} ${JSON.stringify(body)}`).toBe(120);
      expect(answer.content.fields[0].field).toBe(field);
    }
    const after = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(after.terms[0].annualRatePct).toBe('12');
    expect(after.changes).toEqual([]);
  });

  it('changes a term, a coin and the limit at once, audited with before and after', async () => {
    const term = await ops(adminToken, 'PUT', '/loan-settings/terms/30', { annualRatePct: '15.5' });
    expect(term.statusCode).toBe(200);
    expect(term.content.terms[0]).toEqual({ termDays: 30, annualRatePct: '15.5', isEnabled: true });
    const off = await ops(adminToken, 'PUT', '/loan-settings/terms/360', { isEnabled: false });
    expect(off.content.terms[3].isEnabled).toBe(false);
    expect((await ops(adminToken, 'PUT', '/loan-settings/terms/45', { isEnabled: false })).statusCode).toBe(104);
    const coin = await ops(adminToken, 'PUT', '/loan-settings/coins/USDC', { minPrincipal: '250', isEnabled: false });
    expect(coin.content.coins[1]).toEqual({ coin: 'USDC', isEnabled: false, minPrincipal: '250.000000' });
    const limits = await ops(adminToken, 'PUT', '/loan-settings/limits', { maxOutstandingUsd: '500000' });
    expect(limits.content.maxOutstandingUsd).toBe('500000.00');

    const terms = (await auditRows('loan-term')).filter((row) => row.outcome_code === 200);
    expect(terms[0]).toMatchObject({
      action: 'updateLoanTerm',
      target_id: '30',
      before: { termDays: 30, annualRatePct: '12', isEnabled: true },
      after: { termDays: 30, annualRatePct: '15.5', isEnabled: true },
    });
    const coins = (await auditRows('loan-coin')).filter((row) => row.outcome_code === 200);
    expect(coins[0]).toMatchObject({
      before: { coin: 'USDC', isEnabled: true, minPrincipal: '100.000000' },
      after: { coin: 'USDC', isEnabled: false, minPrincipal: '250.000000' },
    });
    const limitRows = (await auditRows('loan-settings')).filter((row) => row.outcome_code === 200);
    expect(limitRows[0]).toMatchObject({
      before: { maxOutstandingUsd: '1000000.00' },
      after: { maxOutstandingUsd: '500000.00' },
    });
    // The public config follows at once.
    const config = (await app.inject({ method: 'GET', url: '/api/loan/config' })).json().content;
    expect(config.terms.map((row: { termDays: number }) => row.termDays)).toEqual([30, 90, 180]);
    expect(config.terms[0].annualRatePct).toBe('15.5');
  });

  it('lends at the new APR', async () => {
    const session = await registerAndLogin(app);
    await app.identity.setKycLevel(session.userId, 2);
    await postEntry(database.db, {
      kind: 'DEPOSIT',
      reference: 'test:settings-btc',
      idempotencyKey: 'test:settings-btc',
      postings: transfer(
        platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
        userAccount(session.userId, 'USER_AVAILABLE', 'BTC'),
        30_000_000n,
      ),
    });
    const order = await app.loans.borrow(
      session.userId,
      { loanCoin: 'USDT', termDays: 30, collateralMinor: 30_000_000n, principalMinor: 10_000_000_000n },
      'settings-borrow',
    );
    expect(order).toMatchObject({ annualRatePct: '15.5', interest: '127.397261' });
  });

  it('applies new LTV levels and fee only when a second admin approves; never for the proposer (153)', async () => {
    const risky = { initialLtvPct: '65', marginCallLtvPct: '75.5', liquidationLtvPct: '85', liquidationFeePct: '3' };
    const proposed = await ops(adminToken, 'POST', '/loan-settings/changes', risky);
    expect(proposed.statusCode).toBe(200);
    expect(proposed.content).toMatchObject({
      status: 'proposed',
      proposedBy: 'admin@example.com',
      before: { initialLtvPct: '70', marginCallLtvPct: '80', liquidationLtvPct: '90', liquidationFeePct: '2' },
      after: risky,
    });
    const id = proposed.content.id as number;
    let view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view).toMatchObject({ initialLtvPct: '70', liquidationFeePct: '2' });
    expect(view.changes[0]).toMatchObject({ id, status: 'proposed' });

    const own = await ops(adminToken, 'POST', `/loan-settings/changes/${id}/approve`);
    expect(own.statusCode).toBe(153);
    expect((await ops(supportToken, 'POST', `/loan-settings/changes/${id}/approve`)).statusCode).toBe(102);
    view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view.initialLtvPct).toBe('70');

    const approved = await ops(secondAdminToken, 'POST', `/loan-settings/changes/${id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.content).toMatchObject({ status: 'applied', decidedBy: 'admin2@example.com' });
    view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view).toMatchObject(risky);
    const again = await ops(secondAdminToken, 'POST', `/loan-settings/changes/${id}/approve`);
    expect(again.statusCode).toBe(156);

    const audit = (await auditRows('loan-setting-change')).filter((row) => row.action === 'approveLoanSettingChange');
    expect(audit.map((row) => row.outcome_code)).toEqual([153, 200, 156]);
    expect(audit[1]).toMatchObject({ target_id: String(id), before: proposed.content.before, after: risky });
  });

  it('refuses a stale proposal (176) and lets any admin reject one', async () => {
    const first = await ops(adminToken, 'POST', '/loan-settings/changes', {
      initialLtvPct: '60',
      marginCallLtvPct: '75.5',
      liquidationLtvPct: '85',
      liquidationFeePct: '3',
    });
    const second = await ops(adminToken, 'POST', '/loan-settings/changes', {
      initialLtvPct: '62',
      marginCallLtvPct: '75.5',
      liquidationLtvPct: '85',
      liquidationFeePct: '3',
    });
    expect((await ops(secondAdminToken, 'POST', `/loan-settings/changes/${first.content.id}/approve`)).statusCode).toBe(
      200,
    );
    const stale = await ops(secondAdminToken, 'POST', `/loan-settings/changes/${second.content.id}/approve`);
    expect(stale.statusCode).toBe(176);
    const rejected = await ops(adminToken, 'POST', `/loan-settings/changes/${second.content.id}/reject`);
    expect(rejected.content.status).toBe('rejected');
    expect((await ops(supportToken, 'GET', '/loan-settings')).content.initialLtvPct).toBe('60');
    expect((await ops(adminToken, 'POST', '/loan-settings/changes/999/approve')).statusCode).toBe(104);
  });

  it('proposes the cure window and the hard liquidation level with the levels, refusing bad ones naming the field', async () => {
    let view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view).toMatchObject({ cureWindowMinutes: 60, hardLiquidationLtvPct: '95' });
    const levels = {
      initialLtvPct: view.initialLtvPct,
      marginCallLtvPct: view.marginCallLtvPct,
      liquidationLtvPct: view.liquidationLtvPct,
      liquidationFeePct: view.liquidationFeePct,
    };
    const refusals: [object, string][] = [
      [{ cureWindowMinutes: -1 }, 'cureWindowMinutes'],
      [{ cureWindowMinutes: 1.5 }, 'cureWindowMinutes'],
      [{ cureWindowMinutes: 10_081 }, 'cureWindowMinutes'],
      [{ cureWindowMinutes: '30' }, 'cureWindowMinutes'],
      [{ hardLiquidationLtvPct: '84.99' }, 'hardLiquidationLtvPct'],
      [{ hardLiquidationLtvPct: '100' }, 'hardLiquidationLtvPct'],
      // Without a hard level in the body, the stored one (95 %) bounds the liquidation LTV.
      [{ marginCallLtvPct: '90', liquidationLtvPct: '96' }, 'hardLiquidationLtvPct'],
    ];
    for (const [change, field] of refusals) {
      const answer = await ops(adminToken, 'POST', '/loan-settings/changes', { ...levels, ...change });
      expect(answer.statusCode, JSON.stringify(change)).toBe(120);
      expect(answer.content.fields[0].field).toBe(field);
    }
    expect((await ops(supportToken, 'GET', '/loan-settings')).content.changes.length).toBe(view.changes.length);

    const proposed = await ops(adminToken, 'POST', '/loan-settings/changes', {
      ...levels,
      cureWindowMinutes: 30,
      hardLiquidationLtvPct: '97.5',
    });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.content.before).toMatchObject({ cureWindowMinutes: 60, hardLiquidationLtvPct: '95' });
    expect(proposed.content.after).toMatchObject({ cureWindowMinutes: 30, hardLiquidationLtvPct: '97.5' });
    expect((await ops(adminToken, 'POST', `/loan-settings/changes/${proposed.content.id}/approve`)).statusCode).toBe(
      153,
    );
    view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view).toMatchObject({ cureWindowMinutes: 60, hardLiquidationLtvPct: '95' });
    const approved = await ops(secondAdminToken, 'POST', `/loan-settings/changes/${proposed.content.id}/approve`);
    expect(approved.statusCode).toBe(200);
    view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    expect(view).toMatchObject({ ...levels, cureWindowMinutes: 30, hardLiquidationLtvPct: '97.5' });
    // The public config and the engine read the same row.
    const config = (await app.inject({ method: 'GET', url: '/api/loan/config' })).json().content;
    expect(config).toMatchObject({ cureWindowMinutes: 30, hardLiquidationLtvPct: '97.5' });
    const audit = (await auditRows('loan-setting-change')).filter(
      (row) => row.action === 'approveLoanSettingChange' && row.target_id === String(proposed.content.id),
    );
    expect(audit.map((row) => row.outcome_code)).toEqual([153, 200]);
    expect(audit[1]!.after).toMatchObject({ cureWindowMinutes: 30, hardLiquidationLtvPct: '97.5' });
  });

  it('applies a change exactly once when two admins approve it at the same moment', async () => {
    const thirdAdminToken = (await app.admin.createOperator('admin3@example.com', 'admin')).token;
    const view = (await ops(supportToken, 'GET', '/loan-settings')).content;
    const proposed = await ops(adminToken, 'POST', '/loan-settings/changes', {
      initialLtvPct: view.initialLtvPct,
      marginCallLtvPct: view.marginCallLtvPct,
      liquidationLtvPct: view.liquidationLtvPct,
      liquidationFeePct: '2.5',
    });
    const answers = await Promise.all(
      [secondAdminToken, thirdAdminToken].map((token) =>
        ops(token, 'POST', `/loan-settings/changes/${proposed.content.id}/approve`),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([156, 200]);
    const rows = await queryRows<{ status: string; decided_by_email: string }>(
      database.db,
      sql`SELECT status, decided_by_email FROM setting_changes WHERE id = ${proposed.content.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('applied');
    expect((await ops(supportToken, 'GET', '/loan-settings')).content.liquidationFeePct).toBe('2.5');
  });

  it("never decides another module's change through the loan paths (104), and the card paths not a loan one", async () => {
    const card = await ops(adminToken, 'POST', '/card-settings/changes', {
      physicalFeeUsdt: '12',
      virtualFeeUsdt: '1',
    });
    expect(card.statusCode).toBe(200);
    expect((await ops(secondAdminToken, 'POST', `/loan-settings/changes/${card.content.id}/approve`)).statusCode).toBe(
      104,
    );
    expect((await ops(secondAdminToken, 'POST', `/loan-settings/changes/${card.content.id}/reject`)).statusCode).toBe(
      104,
    );
    const loan = (await ops(supportToken, 'GET', '/loan-settings')).content.changes[0];
    expect((await ops(secondAdminToken, 'POST', `/card-settings/changes/${loan.id}/approve`)).statusCode).toBe(104);
    expect((await ops(secondAdminToken, 'POST', `/settings/changes/${card.content.id}/approve`)).statusCode).toBe(104);
    const cards = (await ops(supportToken, 'GET', '/card-settings')).content;
    expect(cards.changes[0]).toMatchObject({ id: card.content.id, status: 'proposed' });
    expect(cards.physicalFeeUsdt).toBe('10');
  });
});
