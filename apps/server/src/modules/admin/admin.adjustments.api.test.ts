import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { manualAdjustments } from './admin.adjustments.tables.ts';

/**
 * Manual adjustments with four eyes (docs/back-office.md "Four eyes"), through the API on a fresh database: a
 * balanced entry proposed by one finance operator, approved (and posted) by another, the user told;
 * the proposer cannot approve; unbalanced or over-precise postings refused naming the field;
 * racing approvals post once; a debit that would take a user below zero refused with the
 * adjustment left proposed; roles.
 */
let t: TestApp;
let f1: string;
let f2: string;
let support: string;

beforeAll(async () => {
  t = await createTestApp();
  f1 = (await t.app.admin.createOperator('f1@example.com', 'finance')).token;
  f2 = (await t.app.admin.createOperator('f2@example.com', 'finance')).token;
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
});
afterAll(async () => {
  await t?.close();
});

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/api/admin/adjustments${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload }),
  });
}
const propose = (token: string, payload: object) => call(token, 'POST', '', payload);
const approve = (token: string, id: number) => call(token, 'POST', `/${id}/approve`, {});
const reject = (token: string, id: number, reason: string) => call(token, 'POST', `/${id}/reject`, { reason });

const user = (userId: string) => ({ kind: 'user', userId });
const platform = (code: 'adjustments' | 'suspense' | 'fees') => ({ kind: 'platform', code });
const available = (userId: string, asset: 'USDT' | 'BTC' = 'USDT') =>
  accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', asset));
const adjustmentsAccount = (asset: 'USDT' | 'BTC' = 'USDT') =>
  accountBalance(t.database.db, platformAccount('PLATFORM_ADJUSTMENTS', asset));
const entriesOf = async (id: number) =>
  (await t.database.db.select().from(manualAdjustments).where(eq(manualAdjustments.id, id)))[0];

/** A credit of `amount` USDT from the platform's adjustments account to `userId`, proposed by f1; its id. */
async function proposeCredit(userId: string, amount: string, reason = 'Goodwill credit, ticket 123'): Promise<number> {
  const response = await propose(f1, {
    reason,
    postings: [
      { account: platform('adjustments'), asset: 'USDT', amount: `-${amount}` },
      { account: user(userId), asset: 'USDT', amount },
    ],
  });
  expect(response.json()).toMatchObject({
    statusCode: 200,
    content: { status: 'proposed', proposedBy: 'f1@example.com' },
  });
  return response.json().content.id as number;
}

describe('manual adjustments (four eyes)', () => {
  it('posts a balanced entry once approved by a second finance operator, with exact balances, and tells the user', async () => {
    const { userId } = await registerAndLogin(t.app);
    const adjustmentsBefore = await adjustmentsAccount();
    const id = await proposeCredit(userId, '12.345678');
    expect(await available(userId)).toBe(0n);

    const approved = await approve(f2, id);
    expect(approved.json()).toMatchObject({
      statusCode: 200,
      content: {
        id,
        status: 'posted',
        proposedBy: 'f1@example.com',
        decidedBy: 'f2@example.com',
        postings: [
          { account: { kind: 'platform', code: 'adjustments' }, asset: 'USDT', amount: '-12.345678' },
          { account: { kind: 'user', userId }, asset: 'USDT', amount: '12.345678' },
        ],
      },
    });
    expect(approved.json().content.entryId).toMatch(/^\d+$/);
    expect(await available(userId)).toBe(12_345_678n);
    expect(await adjustmentsAccount()).toBe(adjustmentsBefore - 12_345_678n);

    const messages = await t.app.notices.list(userId, { pageID: 1, pageSize: 10 }, 'en-US');
    expect(messages.list.map((message) => message.body)).toContainEqual(expect.stringContaining('+12.35 USDT'));
    const zh = await t.app.notices.list(userId, { pageID: 1, pageSize: 10 }, 'zh-HK');
    expect(zh.list.map((message) => message.title)).toContain('餘額已調整');

    // Decided: approving or rejecting again answers 154, nothing moves a second time.
    expect((await approve(f1, id)).json().statusCode).toBe(154);
    expect((await reject(f2, id, 'too late')).json().statusCode).toBe(154);
    expect(await available(userId)).toBe(12_345_678n);

    const list = await call(f1, 'GET', '?status=posted&pageID=1&pageSize=50');
    expect(list.json().content.list.map((row: { id: number }) => row.id)).toContain(id);
  });

  it('refuses the proposer as approver (153) and posts nothing', async () => {
    const { userId } = await registerAndLogin(t.app);
    const id = await proposeCredit(userId, '5');
    expect((await approve(f1, id)).json().statusCode).toBe(153);
    expect(await available(userId)).toBe(0n);
    expect(await entriesOf(id)).toMatchObject({ status: 'proposed', entryId: null, decidedById: null });
  });

  it('refuses postings that do not sum to zero per asset, naming postings', async () => {
    const { userId } = await registerAndLogin(t.app);
    const response = await propose(f1, {
      reason: 'Unbalanced',
      postings: [
        { account: platform('adjustments'), asset: 'USDT', amount: '-10' },
        { account: user(userId), asset: 'USDT', amount: '9.99' },
      ],
    });
    expect(response.json().statusCode).toBe(120);
    expect(response.json().content.fields).toEqual([{ field: 'postings', message: expect.stringContaining('USDT') }]);

    // Balanced in total but not per asset.
    const mixed = await propose(f1, {
      reason: 'Two assets',
      postings: [
        { account: platform('adjustments'), asset: 'USDT', amount: '-1' },
        { account: user(userId), asset: 'BTC', amount: '1' },
      ],
    });
    expect(mixed.json().content.fields[0].field).toBe('postings');
  });

  it('refuses an amount with more decimals than its asset, or zero, naming postings.N.amount (both languages)', async () => {
    const { userId } = await registerAndLogin(t.app);
    const body = (amount: string) => ({
      reason: 'Precision',
      postings: [
        { account: platform('adjustments'), asset: 'USDT', amount: '-1' },
        { account: user(userId), asset: 'USDT', amount },
      ],
    });
    const tooPrecise = await propose(f1, body('1.0000001'));
    expect(tooPrecise.json().statusCode).toBe(120);
    expect(tooPrecise.json().content.fields).toEqual([
      { field: 'postings.1.amount', message: 'At most 6 decimal places are allowed' },
    ]);
    const zhResponse = await t.app.inject({
      method: 'POST',
      url: '/api/admin/adjustments',
      headers: { ...mutationHeaders({ 'user-lang': 'zh-HK' }), authorization: `Bearer ${f1}` },
      payload: body('1.0000001'),
    });
    expect(zhResponse.json().content.fields[0]).toEqual({
      field: 'postings.1.amount',
      message: '最多只可輸入 6 位小數',
    });

    const zero = await propose(f1, {
      reason: 'Zero',
      postings: [
        { account: platform('adjustments'), asset: 'USDT', amount: '0' },
        { account: user(userId), asset: 'USDT', amount: '-0.000' },
      ],
    });
    expect(zero.json().content.fields[0].field).toBe('postings.0.amount');
  });

  it('refuses an unknown user (NOT_FOUND)', async () => {
    for (const userId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await propose(f1, {
        reason: 'Unknown user',
        postings: [
          { account: platform('adjustments'), asset: 'USDT', amount: '-1' },
          { account: user(userId), asset: 'USDT', amount: '1' },
        ],
      });
      expect(response.json().statusCode).toBe(104);
    }
  });

  it('posts exactly once when two approvals race', async () => {
    const { userId } = await registerAndLogin(t.app);
    const id = await proposeCredit(userId, '7');
    const [a, b] = await Promise.all([approve(f2, id), approve(f2, id)]);
    expect([a.json().statusCode, b.json().statusCode].sort()).toEqual([154, 200]);
    expect(await available(userId)).toBe(7_000_000n);
    const row = await entriesOf(id);
    expect(row).toMatchObject({ status: 'posted', decidedByEmail: 'f2@example.com' });
    expect(row?.entryId).not.toBeNull();
  });

  it('refuses a debit that would take a user below zero (130) and leaves the adjustment proposed', async () => {
    const { userId } = await registerAndLogin(t.app);
    const credit = await proposeCredit(userId, '3');
    expect((await approve(f2, credit)).json().statusCode).toBe(200);

    const debit = await propose(f1, {
      reason: 'Reverse a double credit',
      postings: [
        { account: user(userId), asset: 'USDT', amount: '-3.000001' },
        { account: platform('suspense'), asset: 'USDT', amount: '3.000001' },
      ],
    });
    const id = debit.json().content.id as number;
    expect((await approve(f2, id)).json().statusCode).toBe(130);
    expect(await available(userId)).toBe(3_000_000n);
    expect(await entriesOf(id)).toMatchObject({ status: 'proposed', entryId: null });

    // Rejected with a reason instead: decided once.
    const rejected = await reject(f2, id, 'Amount wrong, proposing again');
    expect(rejected.json()).toMatchObject({
      statusCode: 200,
      content: { status: 'rejected', decidedBy: 'f2@example.com', decisionNote: 'Amount wrong, proposing again' },
    });
    expect((await approve(f2, id)).json().statusCode).toBe(154);
  });

  it('lets only finance propose and decide (support: 102); unknown adjustments are 104', async () => {
    const { userId } = await registerAndLogin(t.app);
    const response = await propose(support, {
      reason: 'Support may not',
      postings: [
        { account: platform('adjustments'), asset: 'USDT', amount: '-1' },
        { account: user(userId), asset: 'USDT', amount: '1' },
      ],
    });
    expect(response.json().statusCode).toBe(102);
    const id = await proposeCredit(userId, '1');
    expect((await approve(support, id)).json().statusCode).toBe(102);
    expect((await approve(f2, 999_999)).json().statusCode).toBe(104);
    expect(await available(userId)).toBe(0n);
  });

  it('writes the proposal, the refused self-approval and the posting to the audit log with before/after', async () => {
    const { userId } = await registerAndLogin(t.app);
    const id = await proposeCredit(userId, '3', 'Audit trail check');
    expect((await approve(f1, id)).json().statusCode).toBe(153);
    expect((await approve(f2, id)).json().statusCode).toBe(200);
    const rows = await t.app.admin.searchAudit({
      targetType: 'adjustment',
      targetId: String(id),
      pageID: 1,
      pageSize: 10,
    });
    const byAction = (action: string) => rows.list.filter((row) => row.action === action);
    expect(byAction('proposeAdjustment')).toHaveLength(1);
    expect(byAction('proposeAdjustment')[0]).toMatchObject({
      operatorEmail: 'f1@example.com',
      before: null,
      after: { status: 'proposed', reason: 'Audit trail check' },
    });
    const approvals = byAction('approveAdjustment');
    expect(approvals.map((row) => [row.operatorEmail, row.outcomeCode]).sort()).toEqual([
      ['f1@example.com', 153],
      ['f2@example.com', 200],
    ]);
    const posted = approvals.find((row) => row.operatorEmail === 'f2@example.com');
    expect(posted).toMatchObject({
      before: { status: 'proposed', entryId: null },
      after: { status: 'posted', decidedBy: 'f2@example.com' },
      reason: 'Audit trail check',
    });
    expect((posted?.after as { entryId: string | null }).entryId).toBeTruthy();
  });

  it('leaves the ledger invariants holding', async () => {
    const report = await checkLedgerInvariants(t.database.db);
    expect(report.isHeld).toBe(true);
  });
});
