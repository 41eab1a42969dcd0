import { randomUUID } from 'node:crypto';
import { HEADER_CARD_SIGNATURE } from '@meridian/contracts/cards';
import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { signCardWebhook } from '../cards/cards.processor.ts';
import { extendCardPromotion } from '../cards/cards.test-kit.ts';

/**
 * PRO accounts (an application goes to an account manager in the back office, who answers with a
 * status and a reply; approved corporate users issue cards to named employees with per-card limits;
 * docs/corporate.md): the application and
 * its prefill, one open application per user (280, 281), the decision's roles (102), once (282), its
 * audit row and the user's message, the CSV, the employee card refused without an approved PRO
 * account (283), and the employee card's limits being the ones the authorisation decision checks.
 */
const SECRET = 'corporate-webhook-secret-'.padEnd(48, 'q');
let t: TestApp;
let supportToken: string;
let financeToken: string;
let complianceToken: string;

const rowsOf = async (query: SQL) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

const ops = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload } : {}),
  });

const APPLICATION = {
  companyName: 'Harbour Trading Ltd',
  registrationNumber: '12345678',
  expectedMonthlySpend: '25000.00',
  currency: 'USD',
  cardCount: 5,
  contactName: 'Mei Chan',
  contactEmail: 'mei@harbour.example',
  contactPhone: '+852 5555 0101',
};

/** A level-1 user holding 100 USDT. */
async function holder(): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  await postEntry(t.database.db, {
    kind: 'DEPOSIT',
    reference: `test:${session.userId}`,
    idempotencyKey: `test:${randomUUID()}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', 'USDT'),
      userAccount(session.userId, 'USER_AVAILABLE', 'USDT'),
      100_000_000n,
    ),
  });
  return session;
}

const apply = async (session: TestSession, body: object = APPLICATION) =>
  (
    await t.app.inject({ method: 'POST', url: '/api/corporate/pro/apply', headers: session.headers, payload: body })
  ).json();

const proAccount = async (session: TestSession) =>
  (await t.app.inject({ method: 'GET', url: '/api/corporate/pro', headers: { cookie: session.cookie } })).json()
    .content;

/**
 * `POST card/employee`. `withCode`: with the security check's email code (the default factor); the
 * refusals under test come before the check, so they are sent without one (a code per minute only).
 */
async function issueEmployeeCard(session: TestSession, body: object, withCode = false) {
  const emailCaptcha = withCode ? await sensitiveCode(t.app, session, 'CARD_APPLY') : undefined;
  return (
    await t.app.inject({
      method: 'POST',
      url: '/api/card/employee',
      headers: { ...session.headers, [HEADER_IDEMPOTENCY_KEY]: randomUUID() },
      payload: { ...body, emailCaptcha },
    })
  ).json();
}

/** An approved PRO user (applied through the API, approved by compliance). */
async function proUser(): Promise<TestSession> {
  const session = await holder();
  const applied = await apply(session);
  const decided = await ops(complianceToken, 'POST', `/pro-applications/${applied.content.id}/decide`, {
    isApproved: true,
    reply: 'Welcome aboard',
  });
  expect(decided.json().statusCode).toBe(200);
  return session;
}

async function signed(url: string, body: object) {
  const raw = JSON.stringify(body);
  return (
    await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', [HEADER_CARD_SIGNATURE]: signCardWebhook(SECRET, raw) },
      payload: raw,
    })
  ).json();
}

const authorize = (cardId: number, amount: string) =>
  signed('/api/card/sandbox/authorize', {
    card: cardId,
    amount,
    currency: 'USD',
    merchantName: 'Ad Network',
    mcc: '7311',
    isOnline: true,
    isThreeDs: false,
  });

beforeAll(async () => {
  t = await createTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET } });
  await extendCardPromotion(t);
  supportToken = (await t.app.admin.createOperator('support@pro.test', 'support')).token;
  financeToken = (await t.app.admin.createOperator('finance@pro.test', 'finance')).token;
  complianceToken = (await t.app.admin.createOperator('compliance@pro.test', 'compliance')).token;
});
afterAll(async () => {
  expect((await checkLedgerInvariants(t.database.db)).isHeld).toBe(true);
  await t.close();
});

describe('applying', () => {
  it('prefills the company from the investor profile, stores the spend in minor units, and allows one open application', async () => {
    const session = await holder();
    await t.app.kyc.saveInvestorDraft(session.userId, {
      type: 'company',
      company: { companyName: 'Harbour Trading Ltd', registrationNumber: '12345678' },
    });
    expect(await proAccount(session)).toEqual({
      isPro: false,
      application: null,
      prefill: { companyName: 'Harbour Trading Ltd', registrationNumber: '12345678' },
    });

    const applied = await apply(session);
    expect(applied.statusCode).toBe(200);
    expect(applied.content).toMatchObject({
      status: 'SUBMITTED',
      expectedMonthlySpend: '25000.00',
      currency: 'USD',
      cardCount: 5,
      reply: null,
    });
    const [row] = await rowsOf(
      sql`SELECT expected_monthly_spend_minor, status FROM pro_applications WHERE id = ${applied.content.id}`,
    );
    expect(String(row!.expected_monthly_spend_minor)).toBe('2500000');

    // A second one while the first is open: 280, and nothing stored; concurrent ones: one wins.
    expect((await apply(session)).statusCode).toBe(280);
    const other = await holder();
    const raced = await Promise.all([apply(other), apply(other), apply(other)]);
    expect(raced.map((answer) => answer.statusCode).sort()).toEqual([200, 280, 280]);
    const [counted] = await rowsOf(
      sql`SELECT count(*)::int AS n FROM pro_applications WHERE user_id IN (${session.userId}, ${other.userId})`,
    );
    expect(counted!.n).toBe(2);
  });

  it('names bad fields (120) and needs level-1 verification (143)', async () => {
    const session = await holder();
    const fieldsOf = async (body: object) => {
      const answer = await apply(session, { ...APPLICATION, ...body });
      expect(answer.statusCode).toBe(120);
      return (answer.content.fields as { field: string }[]).map((f) => f.field).sort();
    };
    expect(await fieldsOf({ contactEmail: 'nope', cardCount: 0 })).toEqual(['cardCount', 'contactEmail']);
    // The amount is read with its currency's precision once every other field is valid.
    expect(await fieldsOf({ expectedMonthlySpend: '10.001' })).toEqual(['expectedMonthlySpend']);
    expect(await fieldsOf({ expectedMonthlySpend: '10', currency: 'BTC' })).toEqual(['currency']);
    const unverified = await registerAndLogin(t.app);
    expect((await apply(unverified)).statusCode).toBe(143);
  });
});

describe('deciding', () => {
  it('support and compliance list; finance is refused; support may not decide (102); compliance decides once, audited, messaged', async () => {
    const session = await holder();
    const applied = (await apply(session, { ...APPLICATION, companyName: 'Kowloon Ads Ltd' })).content;

    const listed = (await ops(supportToken, 'GET', '/pro-applications?status=SUBMITTED&q=kowloon&pageSize=100')).json();
    expect(listed.statusCode).toBe(200);
    expect(listed.content.list).toHaveLength(1);
    expect(listed.content.list[0]).toMatchObject({
      id: applied.id,
      userId: session.userId,
      userEmail: session.email,
      companyName: 'Kowloon Ads Ltd',
      expectedMonthlySpend: '25000.00',
      decidedBy: null,
    });
    expect((await ops(financeToken, 'GET', '/pro-applications')).json().statusCode).toBe(102);
    const bySupport = await ops(supportToken, 'POST', `/pro-applications/${applied.id}/decide`, {
      isApproved: true,
      reply: 'ok',
    });
    expect(bySupport.json().statusCode).toBe(102);
    const empty = await ops(complianceToken, 'POST', `/pro-applications/${applied.id}/decide`, {
      isApproved: true,
      reply: ' ',
    });
    expect(empty.json().statusCode).toBe(120);

    const decided = (
      await ops(complianceToken, 'POST', `/pro-applications/${applied.id}/decide`, {
        isApproved: false,
        reply: 'Please send the business registration certificate',
      })
    ).json();
    expect(decided.statusCode).toBe(200);
    expect(decided.content).toMatchObject({
      status: 'REJECTED',
      reply: 'Please send the business registration certificate',
      decidedBy: 'compliance@pro.test',
    });
    const again = await ops(complianceToken, 'POST', `/pro-applications/${applied.id}/decide`, {
      isApproved: true,
      reply: 'Changed my mind',
    });
    expect(again.json().statusCode).toBe(282);

    const audit = await rowsOf(
      sql`SELECT operator_email, action, before, after, reason, outcome_code FROM audit_log
          WHERE target_type = 'pro-application' AND target_id = ${String(applied.id)} ORDER BY id`,
    );
    // Refusals are in the log too, under the path's target (the handler noted nothing); the decision once.
    expect(audit.filter((row) => row.outcome_code === 200)).toHaveLength(1);
    expect(audit.find((row) => row.outcome_code === 200)).toMatchObject({
      operator_email: 'compliance@pro.test',
      action: 'decideProApplication',
      reason: 'Please send the business registration certificate',
      before: { status: 'SUBMITTED', reply: null },
      after: { status: 'REJECTED' },
    });

    const messages = JSON.stringify(
      (
        await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
      ).json().content,
    );
    expect(messages).toContain('PRO account application not approved');
    expect(messages).toContain('Please send the business registration certificate');

    // Rejected: the user may apply again; once approved, not any more (281).
    const second = await apply(session);
    expect(second.statusCode).toBe(200);
    await ops(complianceToken, 'POST', `/pro-applications/${second.content.id}/decide`, {
      isApproved: true,
      reply: 'Approved',
    });
    expect(await proAccount(session)).toMatchObject({ isPro: true, application: { status: 'APPROVED' } });
    expect((await apply(session)).statusCode).toBe(281);
  });

  it('exports the filtered list as CSV (support), neutralising formula cells', async () => {
    const session = await holder();
    await apply(session, { ...APPLICATION, companyName: '=HYPERLINK("x") Ltd' });
    const answer = await ops(supportToken, 'GET', '/pro-applications.csv?q=HYPERLINK');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    const lines = answer.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toContain('companyName');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"") Ltd"`);
    expect((await ops(financeToken, 'GET', '/pro-applications.csv')).json().statusCode).toBe(102);
  });
});

describe('employee cards', () => {
  const EMPLOYEE_CARD = {
    employeeName: 'Wing Lee',
    network: 'VISA',
    currency: 'USD',
    limits: { perTransaction: '50.00', daily: '80.00', monthly: '500.00' },
  };

  it('are refused (283) without an approved PRO account, also while the application is open', async () => {
    const session = await holder();
    expect((await issueEmployeeCard(session, EMPLOYEE_CARD)).statusCode).toBe(283);
    await apply(session);
    expect((await issueEmployeeCard(session, EMPLOYEE_CARD)).statusCode).toBe(283);
    const [counted] = await rowsOf(sql`SELECT count(*)::int AS n FROM cards WHERE user_id = ${session.userId}`);
    expect(counted!.n).toBe(0);
  });

  it('carry the employee’s name and the company’s limits, which the authorisation decision enforces', async () => {
    const session = await proUser();
    const issued = await issueEmployeeCard(session, EMPLOYEE_CARD, true);
    expect(issued.statusCode).toBe(200);
    expect(issued.content).toMatchObject({
      kind: 'VIRTUAL',
      status: 'ACTIVE',
      currency: 'USD',
      employeeName: 'Wing Lee',
      cardholderName: 'Wing Lee',
    });
    const cardId: number = issued.content.id;
    const [row] = await rowsOf(
      sql`SELECT employee_name, limit_per_transaction_minor, limit_daily_minor, limit_monthly_minor FROM cards WHERE id = ${cardId}`,
    );
    expect(row).toMatchObject({ employee_name: 'Wing Lee' });
    expect([row!.limit_per_transaction_minor, row!.limit_daily_minor, row!.limit_monthly_minor].map(String)).toEqual([
      '5000',
      '8000',
      '50000',
    ]);

    // 100 USDT → 100.00 USD on the card; 50.01 is over the per-payment limit, 50.00 passes, and a
    // further 30.01 is over the 80.00 daily limit while 30.00 is not.
    const quote = await t.app.cards.quoteTopUp(session.userId, cardId, 'USDT', 100_000_000n);
    await t.app.cards.topUp(session.userId, cardId, quote.quoteId, randomUUID());
    expect((await authorize(cardId, '50.01')).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'LIMIT_EXCEEDED',
    });
    expect((await authorize(cardId, '50.00')).content).toMatchObject({ decision: 'APPROVED' });
    expect((await authorize(cardId, '30.01')).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'LIMIT_EXCEEDED',
    });
    expect((await authorize(cardId, '30.00')).content).toMatchObject({ decision: 'APPROVED' });
  });

  it('refuse limits above a card’s standard ones or out of order, naming the field', async () => {
    const session = await proUser();
    const tooHigh = await issueEmployeeCard(session, {
      ...EMPLOYEE_CARD,
      limits: { perTransaction: '5000.01', daily: '6000.00', monthly: '7000.00' },
    });
    expect(tooHigh.statusCode).toBe(120);
    expect(tooHigh.content.fields).toEqual([expect.objectContaining({ field: 'limits.perTransaction' })]);
    expect(tooHigh.message).toContain('5000.00 USD');
    const outOfOrder = await issueEmployeeCard(session, {
      ...EMPLOYEE_CARD,
      limits: { perTransaction: '50.00', daily: '800.00', monthly: '500.00' },
    });
    expect(outOfOrder.statusCode).toBe(120);
    expect(outOfOrder.content.fields).toEqual([expect.objectContaining({ field: 'limits.daily' })]);
    const [counted] = await rowsOf(sql`SELECT count(*)::int AS n FROM cards WHERE user_id = ${session.userId}`);
    expect(counted!.n).toBe(0);
  });
});
