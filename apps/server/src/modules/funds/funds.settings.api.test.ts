import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSession } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { createFundsKit, expectFundsConsistent, type FundsKit } from './funds.test-kit.ts';

/**
 * Fund products in the back office: every operator reads them, only an admin changes them, each change is in
 * the audit log with its before and after. Rate tiers are four-eyes (the settings workflow's kind
 * `funds.rateTiers`): an admin proposes, a different admin approves (153 for the proposer, 156 once
 * decided, 176 when the tiers changed since), and the next accrual uses the approved tiers. Amounts by hand:
 * 20,000 USD on tiers 4.00 % to 10,000 and 2.50 % above earns (1,000,000 × 400 + 1,000,000 × 250)
 * / 3,650,000 = 178.08 cents → 1.78 USD a day (rounded down once per holding and day).
 */

let kit: FundsKit;
let adminToken: string;
let secondAdminToken: string;
let ivy: TestSession;

beforeAll(async () => {
  kit = await createFundsKit('2026-03-02T10:00:00+08:00');
  adminToken = (await kit.t.app.admin.createOperator('admin@example.com', 'admin')).token;
  secondAdminToken = (await kit.t.app.admin.createOperator('admin2@example.com', 'admin')).token;
});

const TIERS_PATH = `/fund-products/${CURRENT_PRODUCT_ID}/tiers`;

async function currentTiers() {
  const products = (await kit.ops(adminToken, 'GET', '/fund-products')).json().content;
  return products.find((row: { productId: string }) => row.productId === CURRENT_PRODUCT_ID).tiers;
}
afterAll(async () => {
  await expectFundsConsistent(kit.t.database.db);
  await kit.close();
});

async function auditRows(targetId: string) {
  return queryRows<{ action: string; before: unknown; after: unknown; outcome_code: number }>(
    kit.t.database.db,
    sql`SELECT action, before, after, outcome_code FROM audit_log WHERE target_id = ${targetId} AND outcome_code = 200 ORDER BY id`,
  );
}

describe('fund products in the back office', () => {
  it('lists every product with its tiers to any operator', async () => {
    const answer = (await kit.ops(kit.supportToken, 'GET', '/fund-products')).json();
    expect(answer.statusCode).toBe(200);
    const current = answer.content.find((row: { productId: string }) => row.productId === CURRENT_PRODUCT_ID);
    expect(current).toMatchObject({
      type: 'CURRENT',
      isActive: true,
      tiers: [
        { upTo: '50000.00', annualRatePct: '3.65' },
        { upTo: null, annualRatePct: '2.00' },
      ],
      holderCount: 0,
    });
    expect(answer.content.filter((row: { type: string }) => row.type === 'FIXED')).toHaveLength(4);
  });

  it('refuses other roles (102) and bad tiers (120 naming the field), changing nothing', async () => {
    const tiers = [{ upTo: null, annualRatePct: '5.00' }];
    const finance = (await kit.ops(kit.financeToken, 'POST', TIERS_PATH, { tiers })).json();
    expect(finance.statusCode).toBe(102);
    const unboundedFirst = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, {
        tiers: [
          { upTo: null, annualRatePct: '4.00' },
          { upTo: '10000.00', annualRatePct: '2.00' },
        ],
      })
    ).json();
    expect(unboundedFirst.statusCode).toBe(120);
    expect(unboundedFirst.content.fields[0].field).toBe('tiers');
    const tooHigh = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, {
        tiers: [{ upTo: null, annualRatePct: '50.01' }],
      })
    ).json();
    expect(tooHigh.statusCode).toBe(120);
    expect(tooHigh.content.fields[0].field).toBe('tiers.0.annualRatePct');
    const threeDecimals = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, {
        tiers: [{ upTo: null, annualRatePct: '3.655' }],
      })
    ).json();
    expect(threeDecimals.statusCode).toBe(120);
    const missing = (await kit.ops(adminToken, 'POST', '/fund-products/NO_SUCH_FUND/tiers', { tiers })).json();
    expect(missing.statusCode).toBe(104);
    expect((await currentTiers())[0]).toEqual({ upTo: '50000.00', annualRatePct: '3.65' });
    expect((await kit.ops(kit.supportToken, 'GET', '/fund-products/changes')).json().content).toEqual([]);
  });

  it('proposes tiers (nothing applies); a different admin approves (audited); the next accrual pays the new rates', async () => {
    ivy = await kit.investor();
    await kit.fundWallet(ivy.userId, 'USDT', 20_000_000_000n);
    const subscribed = await kit.subscribe(ivy, {
      productId: CURRENT_PRODUCT_ID,
      amount: '20000',
      actionType: 'WALLET',
      coin: 'USDT',
    });
    expect(subscribed.json().statusCode).toBe(200);
    const proposed = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, {
        tiers: [
          { upTo: '10000', annualRatePct: '4' },
          { upTo: null, annualRatePct: '2.5' },
        ],
      })
    ).json();
    expect(proposed).toMatchObject({
      statusCode: 200,
      content: {
        productId: CURRENT_PRODUCT_ID,
        status: 'proposed',
        proposedBy: 'admin@example.com',
        before: {
          tiers: [
            { upTo: '50000.00', annualRatePct: '3.65' },
            { upTo: null, annualRatePct: '2.00' },
          ],
        },
        after: {
          tiers: [
            { upTo: '10000.00', annualRatePct: '4.00' },
            { upTo: null, annualRatePct: '2.50' },
          ],
        },
      },
    });
    const id = proposed.content.id as number;
    expect((await currentTiers())[0]).toEqual({ upTo: '50000.00', annualRatePct: '3.65' });
    const listed = (await kit.ops(kit.supportToken, 'GET', '/fund-products/changes')).json();
    expect(listed.content.map((row: { id: number }) => row.id)).toEqual([id]);

    // Four eyes: not the proposer (153), not another role (102).
    expect((await kit.ops(adminToken, 'POST', `/fund-products/changes/${id}/approve`)).json().statusCode).toBe(153);
    expect((await kit.ops(kit.financeToken, 'POST', `/fund-products/changes/${id}/approve`)).json().statusCode).toBe(
      102,
    );
    // Another module's change is not found here.
    expect((await kit.ops(secondAdminToken, 'POST', '/fund-products/changes/999999/approve')).json().statusCode).toBe(
      104,
    );
    const approved = (await kit.ops(secondAdminToken, 'POST', `/fund-products/changes/${id}/approve`)).json();
    expect(approved).toMatchObject({
      statusCode: 200,
      content: { status: 'applied', decidedBy: 'admin2@example.com' },
    });
    expect(await currentTiers()).toEqual([
      { upTo: '10000.00', annualRatePct: '4.00' },
      { upTo: null, annualRatePct: '2.50' },
    ]);
    // Decided once.
    expect((await kit.ops(secondAdminToken, 'POST', `/fund-products/changes/${id}/approve`)).json().statusCode).toBe(
      156,
    );
    const audit = await auditRows(CURRENT_PRODUCT_ID);
    expect(audit[0]).toMatchObject({
      action: 'proposeRateTiers',
      before: { tiers: [{ annualRatePct: '3.65' }, { annualRatePct: '2.00' }] },
      after: { status: 'proposed', after: { tiers: [{ annualRatePct: '4.00' }, { annualRatePct: '2.50' }] } },
    });
    expect(await auditRows(String(id))).toContainEqual(
      expect.objectContaining({
        action: 'approveFundSettingChange',
        after: expect.objectContaining({ status: 'applied' }),
      }),
    );
    // The user sees the new tiers.
    const products = (await kit.get(ivy, '/api/fund/v2/product?type=CURRENT')).json().content;
    expect(products[0]).toMatchObject({ annualRate: '4.00' });

    await kit.runDailyAt('2026-03-04T01:00:00+08:00'); // accrues 2026-03-03, the first full day held
    const [accrued] = await queryRows<{ amount: string }>(
      kit.t.database.db,
      sql`SELECT amount_minor::text AS amount FROM fund_accruals WHERE user_id = ${ivy.userId} AND day = '2026-03-03'`,
    );
    expect(accrued?.amount).toBe('178');
  });

  it('refuses (176) a proposal whose tiers changed since, changing nothing; the proposer may reject it', async () => {
    const before = await currentTiers();
    const first = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, { tiers: [{ upTo: null, annualRatePct: '3' }] })
    ).json().content;
    const second = (
      await kit.ops(adminToken, 'POST', TIERS_PATH, { tiers: [{ upTo: null, annualRatePct: '3.5' }] })
    ).json().content;
    expect(
      (await kit.ops(secondAdminToken, 'POST', `/fund-products/changes/${second.id}/approve`)).json().statusCode,
    ).toBe(200);
    const stale = (await kit.ops(secondAdminToken, 'POST', `/fund-products/changes/${first.id}/approve`)).json();
    expect(stale.statusCode).toBe(176);
    expect(await currentTiers()).toEqual([{ upTo: null, annualRatePct: '3.50' }]);
    const rejected = (await kit.ops(adminToken, 'POST', `/fund-products/changes/${first.id}/reject`)).json();
    expect(rejected).toMatchObject({
      statusCode: 200,
      content: { status: 'rejected', decidedBy: 'admin@example.com' },
    });
    // Put the tiers back for the tests after this one.
    const back = (await kit.ops(adminToken, 'POST', TIERS_PATH, { tiers: before })).json().content;
    await kit.ops(secondAdminToken, 'POST', `/fund-products/changes/${back.id}/approve`);
    expect(await currentTiers()).toEqual(before);
  });

  it('creates a fixed fund (admin) and closes it to new subscriptions while holders keep it', async () => {
    const body = {
      nameEn: 'Fixed 60-day Fund',
      nameZhHk: '60 日定期基金',
      periodDays: 60,
      annualRatePct: '7.25',
      raiseStartDate: '2026-03-04',
      raiseEndDate: '2026-03-10',
      interestDate: '2026-03-11',
      min: '100.00',
      max: '100000.00',
      limit: '200000.00',
    };
    const pastStart = (
      await kit.ops(adminToken, 'POST', '/fund-products', { ...body, raiseStartDate: '2026-03-01' })
    ).json();
    expect(pastStart.statusCode).toBe(120);
    expect(pastStart.content.fields[0].field).toBe('raiseStartDate');
    const windowAfterInterest = (
      await kit.ops(adminToken, 'POST', '/fund-products', { ...body, interestDate: '2026-03-10' })
    ).json();
    expect(windowAfterInterest.content.fields[0].field).toBe('raiseEndDate');
    const minAboveMax = (await kit.ops(adminToken, 'POST', '/fund-products', { ...body, min: '200000.00' })).json();
    expect(minAboveMax.content.fields[0].field).toBe('min');
    const finance = (await kit.ops(kit.financeToken, 'POST', '/fund-products', body)).json();
    expect(finance.statusCode).toBe(102);

    const created = (await kit.ops(adminToken, 'POST', '/fund-products', body)).json();
    expect(created).toMatchObject({
      statusCode: 200,
      content: {
        productId: 'FIXED_60D_20260304',
        type: 'FIXED',
        maturityDate: '2026-05-10',
        tiers: [{ upTo: null, annualRatePct: '7.25' }],
        min: '100.00',
        isActive: true,
      },
    });
    const second = (await kit.ops(adminToken, 'POST', '/fund-products', body)).json();
    expect(second.content.productId).toBe('FIXED_60D_20260304_2');

    await kit.runDailyAt('2026-03-04T10:00:00+08:00');
    const offered = (await kit.get(ivy, '/api/fund/v2/product?type=FIXED')).json().content;
    expect(offered.map((row: { productId: string }) => row.productId)).toContain('FIXED_60D_20260304');

    const closed = (
      await kit.ops(adminToken, 'PUT', '/fund-products/FIXED_60D_20260304_2/active', { isActive: false })
    ).json();
    expect(closed.content.isActive).toBe(false);
    const listed = (await kit.get(ivy, '/api/fund/v2/product?type=FIXED')).json().content;
    expect(listed.map((row: { productId: string }) => row.productId)).not.toContain('FIXED_60D_20260304_2');
    const refused = (
      await kit.subscribe(ivy, { productId: 'FIXED_60D_20260304_2', amount: '100', actionType: 'FUND' })
    ).json();
    expect(refused.statusCode).toBe(104);
  });
});
