import { randomUUID } from 'node:crypto';
import { HEADER_CARD_SIGNATURE } from '@meridian/contracts/cards';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { checkLedgerInvariants } from '../ledger/ledger.invariants.ts';
import { accountBalance, platformBalance, postEntry } from '../ledger/ledger.service.ts';
import { cardAccount, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { signCardWebhook } from './cards.processor.ts';
import { extendCardPromotion } from './cards.test-kit.ts';

/**
 * The back office's card operations (limit changes are requests to customer service, answered with a
 * status and a reply; a blocked PIN is unblocked by an operator; suspense; docs/back-office.md
 * "Cards"): role boundaries (102), bad input (120 naming the field), a request decided
 * once (219), the physical card's allowed steps (220 otherwise), the audit rows, and the approved
 * limit being the one the next authorisation checks.
 */
const SECRET = 'card-ops-webhook-secret-'.padEnd(48, 'q');
let t: TestApp;
let supportToken: string;
let financeToken: string;
let complianceToken: string;
let adminToken: string;

const rowsOf = async (query: SQL) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

const ops = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload } : {}),
  });

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

/** A EUR virtual card holding 92.00 EUR (100 USDT at the table's 0.92). */
async function fundedCard(session: TestSession): Promise<number> {
  const card = await t.app.cards.apply(
    session.userId,
    { kind: 'VIRTUAL', network: 'VISA', currency: 'EUR', cardholderName: 'MEI CHAN' },
    randomUUID(),
  );
  const quote = await t.app.cards.quoteTopUp(session.userId, card.id, 'USDT', 100_000_000n);
  await t.app.cards.topUp(session.userId, card.id, quote.quoteId, randomUUID());
  return card.id;
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
    currency: 'EUR',
    merchantName: 'Example Books',
    mcc: '5734',
    isOnline: true,
    isThreeDs: false,
  });

async function limitRequest(session: TestSession, cardId: number, perTransaction: string) {
  const answer = await t.app.inject({
    method: 'POST',
    url: `/api/card/${cardId}/limit-request`,
    headers: session.headers,
    payload: { currency: 'EUR', perTransaction, daily: null, monthly: null, reason: 'Trade fair' },
  });
  return answer.json().content as { id: number };
}

const auditRows = (targetType: string, targetId: string) =>
  rowsOf(
    sql`SELECT operator_email AS actor_email, action, before, after, reason, outcome_code FROM audit_log
        WHERE target_type = ${targetType} AND target_id = ${targetId} ORDER BY id`,
  );

beforeAll(async () => {
  t = await createTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET } });
  await extendCardPromotion(t);
  supportToken = (await t.app.admin.createOperator('support@cards.test', 'support')).token;
  financeToken = (await t.app.admin.createOperator('finance@cards.test', 'finance')).token;
  complianceToken = (await t.app.admin.createOperator('compliance@cards.test', 'compliance')).token;
  adminToken = (await t.app.admin.createOperator('admin@cards.test', 'admin')).token;
});
afterAll(async () => t.close());

describe('limit-change requests', () => {
  it('support approves once with the limits to apply; the next authorisation uses them; audited', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    const request = await limitRequest(session, cardId, '8000.00');

    const listed = (await ops(supportToken, 'GET', '/cards/limit-requests?state=PENDING&pageSize=100')).json();
    expect(listed.statusCode).toBe(200);
    const row = listed.content.list.find((item: { id: number }) => item.id === request.id);
    expect(row).toMatchObject({
      cardId,
      state: 'PENDING',
      userId: session.userId,
      currency: 'EUR',
      requested: { perTransaction: '8000.00', daily: null },
      current: { perTransaction: '5000.00' },
      reply: null,
    });
    expect(row.maskedNumber).toMatch(/^\d{4} •••• •••• \d{4}$/);
    expect(JSON.stringify(listed.content)).not.toMatch(/\d{13,19}/);

    // The operator applies a lower limit than asked: 10.00 EUR per transaction.
    const decided = (
      await ops(supportToken, 'POST', `/cards/limit-requests/${request.id}/decide`, {
        isApproved: true,
        limits: { perTransaction: '10.00', daily: '10000.00', monthly: '50000.00' },
        reply: 'Approved at 10.00 EUR per payment',
      })
    ).json();
    expect(decided.statusCode).toBe(200);
    expect(decided.content).toMatchObject({
      state: 'APPROVED',
      reply: 'Approved at 10.00 EUR per payment',
      decidedBy: 'support@cards.test',
      current: { perTransaction: '10.00' },
    });
    expect((await authorize(cardId, '10.01')).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'LIMIT_EXCEEDED',
    });
    expect((await authorize(cardId, '10.00')).content).toMatchObject({ decision: 'APPROVED' });

    const again = (
      await ops(supportToken, 'POST', `/cards/limit-requests/${request.id}/decide`, {
        isApproved: false,
        reply: 'No',
      })
    ).json();
    expect(again.statusCode).toBe(219);
    const [card] = await rowsOf(sql`SELECT limit_per_transaction_minor FROM cards WHERE id = ${cardId}`);
    expect(String(card!.limit_per_transaction_minor)).toBe('1000');

    const audit = await auditRows('card-limit-request', String(request.id));
    const applied = audit.filter((entry) => entry.outcome_code === 200);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      actor_email: 'support@cards.test',
      reason: 'Approved at 10.00 EUR per payment',
      before: { state: 'PENDING' },
      after: { state: 'APPROVED', current: { perTransaction: '10.00' } },
    });
  });

  it('rejects with a reply and leaves the card’s limits', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    const request = await limitRequest(session, cardId, '9000.00');
    const rejected = (
      await ops(adminToken, 'POST', `/cards/limit-requests/${request.id}/decide`, {
        isApproved: false,
        reply: 'Please send a proof of income first',
      })
    ).json();
    expect(rejected.content).toMatchObject({
      state: 'REJECTED',
      reply: 'Please send a proof of income first',
      current: { perTransaction: '5000.00' },
    });
    // The user reads the reply in their messages (the card page's contract carries only a pending request).
    const messages = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    expect(JSON.stringify(messages)).toContain('Please send a proof of income first');
    expect(JSON.stringify(messages)).toContain('Card limit request declined');
  });

  it('refuses other roles (102) and bad input (120 naming the field), deciding nothing', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    const request = await limitRequest(session, cardId, '7000.00');
    const url = `/cards/limit-requests/${request.id}/decide`;
    const body = { isApproved: true, reply: 'ok' };
    expect((await ops(financeToken, 'POST', url, body)).json().statusCode).toBe(102);
    expect((await ops(complianceToken, 'POST', url, body)).json().statusCode).toBe(102);
    expect((await ops(financeToken, 'GET', '/cards/limit-requests')).json().statusCode).toBe(102);

    const noReply = (await ops(supportToken, 'POST', url, { isApproved: false, reply: ' ' })).json();
    expect(noReply.statusCode).toBe(120);
    expect(noReply.content.fields[0].field).toBe('reply');
    const badLimit = (
      await ops(supportToken, 'POST', url, {
        isApproved: true,
        limits: { perTransaction: '12.345', daily: null, monthly: null },
        reply: 'ok',
      })
    ).json();
    expect(badLimit.statusCode).toBe(120);
    expect(badLimit.content.fields[0].field).toBe('limits.perTransaction');
    const [row] = await rowsOf(sql`SELECT state FROM card_limit_requests WHERE id = ${request.id}`);
    expect(row).toMatchObject({ state: 'PENDING' });
    expect((await ops(supportToken, 'POST', '/cards/limit-requests/999999/decide', body)).json().statusCode).toBe(104);
  });
});

describe('cards', () => {
  it('lists cards with masked numbers only, by user and status, to support and finance', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    const listed = (await ops(financeToken, 'GET', `/cards?userId=${session.userId}&status=ACTIVE`)).json();
    expect(listed.statusCode).toBe(200);
    expect(listed.content.totalCount).toBe(1);
    expect(listed.content.list[0]).toMatchObject({ id: cardId, kind: 'VIRTUAL', status: 'ACTIVE', currency: 'EUR' });
    expect(JSON.stringify(listed.content)).not.toMatch(/\d{13,19}/);
    expect(listed.content.list[0]).not.toHaveProperty('processorToken');
    expect((await ops(complianceToken, 'GET', '/cards')).json().statusCode).toBe(102);
    const badStatus = (await ops(supportToken, 'GET', '/cards?status=LOST')).json();
    expect(badStatus.statusCode).toBe(120);
    expect(badStatus.content.fields[0].field).toBe('status');
  });

  it('moves a physical card along its steps only, audited', async () => {
    const session = await holder();
    const card = await t.app.cards.apply(
      session.userId,
      {
        kind: 'PHYSICAL',
        network: 'VISA',
        currency: 'USD',
        cardholderName: 'MEI CHAN',
        shippingAddress: {
          recipient: 'Mei',
          line1: '1 Queen’s Road',
          city: 'Hong Kong',
          country: 'HK',
          phone: '+852 5555 0100',
        },
      },
      randomUUID(),
    );
    expect(card.status).toBe('UNDER_REVIEW');
    const step = (status: string, token = supportToken) =>
      ops(token, 'POST', `/cards/${card.id}/status`, { status }).then((answer) => answer.json());
    expect((await step('PROCESSING', financeToken)).statusCode).toBe(102);
    const skip = await step('ACTIVE');
    expect(skip.statusCode).toBe(220);
    expect(skip.message).toContain('UNDER_REVIEW');
    expect((await step('PROCESSING')).content).toMatchObject({ status: 'PROCESSING' });
    expect((await step('SHIPPED')).content).toMatchObject({ status: 'SHIPPED' });
    expect((await step('ACTIVE')).content).toMatchObject({ status: 'ACTIVE' });
    expect((await step('RETURNED')).statusCode).toBe(220);
    const unknown = await step('FROZEN');
    expect(unknown.statusCode).toBe(120);
    expect(unknown.content.fields[0].field).toBe('status');
    const audit = (await auditRows('card', String(card.id))).filter((entry) => entry.outcome_code === 200);
    expect(
      audit.map((entry) => [(entry.before as { status: string }).status, (entry.after as { status: string }).status]),
    ).toEqual([
      ['UNDER_REVIEW', 'PROCESSING'],
      ['PROCESSING', 'SHIPPED'],
      ['SHIPPED', 'ACTIVE'],
    ]);

    const virtual = await fundedCard(await holder());
    const virtualStep = (await ops(supportToken, 'POST', `/cards/${virtual}/status`, { status: 'SHIPPED' })).json();
    expect(virtualStep.statusCode).toBe(220);
  });

  it('support unblocks a PIN-blocked card (221 when not blocked), audited', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    expect((await ops(supportToken, 'POST', `/cards/${cardId}/unblock-pin`)).json().statusCode).toBe(221);
    await t.database.db.execute(
      sql`UPDATE cards SET pin_wrong_count = 5, pin_blocked_until = ${t.app.clock.now().toISOString()}::timestamptz + interval '24 hours' WHERE id = ${cardId}`,
    );
    expect((await ops(financeToken, 'POST', `/cards/${cardId}/unblock-pin`)).json().statusCode).toBe(102);
    const unblocked = (await ops(supportToken, 'POST', `/cards/${cardId}/unblock-pin`)).json();
    expect(unblocked.statusCode).toBe(200);
    expect(unblocked.content.pinBlockedUntil).toBeNull();
    const [row] = await rowsOf(sql`SELECT pin_wrong_count FROM cards WHERE id = ${cardId}`);
    expect(row).toMatchObject({ pin_wrong_count: 0 });
    const audit = (await auditRows('card', String(cardId))).filter((entry) => entry.outcome_code === 200);
    expect(audit).toHaveLength(1);
    expect((audit[0]!.before as { pinBlockedUntil: string | null }).pinBlockedUntil).not.toBeNull();
  });
});

describe('suspense clearings', () => {
  it('lists clearings for unknown authorisations to finance only', async () => {
    const authorizationId = `ext_${randomUUID()}`;
    await signed('/api/card/processor/webhook', {
      deliveryId: randomUUID(),
      sentAt: t.app.clock.now().toISOString(),
      event: { type: 'clearing', authorizationId, cardToken: 'sbx_card_unknown', amount: '7.00', currency: 'EUR' },
    });
    expect((await ops(supportToken, 'GET', '/cards/suspense')).json().statusCode).toBe(102);
    const listed = (await ops(financeToken, 'GET', '/cards/suspense?state=OPEN')).json();
    expect(listed.statusCode).toBe(200);
    expect(
      listed.content.list.find((item: { processorAuthId: string }) => item.processorAuthId === authorizationId),
    ).toMatchObject({
      eventType: 'clearing',
      amount: '7.00',
      currency: 'EUR',
      cardId: null,
      state: 'OPEN',
    });
  });

  it('finance charges a clearing to the card its token names, once; a card of no match is written off', async () => {
    const session = await holder();
    const cardId = await fundedCard(session);
    const [card] = await rowsOf(sql`SELECT processor_token FROM cards WHERE id = ${cardId}`);
    const clearing = async (cardToken: string, amount: string) => {
      const authorizationId = `ext_${randomUUID()}`;
      await signed('/api/card/processor/webhook', {
        deliveryId: randomUUID(),
        sentAt: t.app.clock.now().toISOString(),
        event: { type: 'clearing', authorizationId, cardToken, amount, currency: 'EUR' },
      });
      const listed = (await ops(financeToken, 'GET', '/cards/suspense?state=OPEN&pageSize=100')).json();
      return listed.content.list.find((item: { processorAuthId: string }) => item.processorAuthId === authorizationId)
        .id as number;
    };
    const resolve = (id: number, payload: object, token = financeToken) =>
      ops(token, 'POST', `/cards/suspense/${id}/resolve`, payload).then((answer) => answer.json());

    const known = await clearing(String(card!.processor_token), '7.00');
    // Bad input names the field and changes nothing; support may not resolve.
    const noNote = await resolve(known, { resolution: 'ASSIGN_TO_CARD', note: ' ' });
    expect(noNote.statusCode).toBe(120);
    expect(noNote.content.fields[0].field).toBe('note');
    expect((await resolve(known, { resolution: 'ASSIGN_TO_CARD', note: 'x' }, supportToken)).statusCode).toBe(102);
    const tooMuch = await clearing(String(card!.processor_token), '500.00');
    expect((await resolve(tooMuch, { resolution: 'ASSIGN_TO_CARD', note: 'late clearing' })).statusCode).toBe(130);

    const assigned = await resolve(known, {
      resolution: 'ASSIGN_TO_CARD',
      note: 'Late clearing of a lost authorisation',
    });
    expect(assigned).toMatchObject({
      statusCode: 200,
      content: { state: 'RESOLVED', resolution: 'ASSIGN_TO_CARD', cardId, amount: '7.00' },
    });
    // 92.00 − 7.00, and the holder sees the purchase.
    expect(await accountBalance(t.database.db, cardAccount(cardId, 'CARD_AVAILABLE', 'EUR'))).toBe(8_500n);
    const transactions = (
      await t.app.inject({ method: 'GET', url: `/api/card/${cardId}/transactions?pageID=1`, headers: session.headers })
    ).json();
    expect(transactions.content.list[0]).toMatchObject({ kind: 'PURCHASE', status: 'CLEARED', amount: '7.00' });
    const again = await resolve(known, { resolution: 'WRITE_OFF', note: 'twice' });
    expect(again.statusCode).toBe(222);
    expect(await auditRows('card-suspense', String(known))).toHaveLength(2);

    const stranger = await clearing('sbx_card_nobody', '3.00');
    expect((await resolve(stranger, { resolution: 'ASSIGN_TO_CARD', note: 'try' })).statusCode).toBe(223);
    const writeOffBefore = await platformBalance(t.database.db, 'PLATFORM_CARD_WRITE_OFF', 'EUR');
    expect((await resolve(stranger, { resolution: 'WRITE_OFF', note: 'Processor error, absorbed' })).statusCode).toBe(
      200,
    );
    expect(await platformBalance(t.database.db, 'PLATFORM_CARD_WRITE_OFF', 'EUR')).toBe(writeOffBefore - 300n);
    expect((await checkLedgerInvariants(t.database.db)).isHeld).toBe(true);
  });
});
