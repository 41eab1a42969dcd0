import { randomUUID } from 'node:crypto';
import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, sensitiveCode, type TestApp, testRunClock } from '../../../test/helpers.ts';
import { accountBalance, hashEntryRequest, platformBalance } from '../ledger/ledger.service.ts';
import { cardAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { signCardWebhook } from './cards.processor.ts';
import { cardsTestCalls, extendCardPromotion, TEST_SHIPPING_ADDRESS } from './cards.test-kit.ts';

/**
 * Cards through the real app and the built-in sandbox processor: the exact-amount
 * scenarios (10 USDT fee; 100 USDT to a EUR card at the locked rate; 12.50 EUR authorised, cleared
 * at 12.80, 5.00 refunded; a reversal; a decline moving nothing) and the faults worth proving
 * (fourth physical card, no 10 USDT, over the balance, duplicate webhook, 100 concurrent
 * authorisations, unknown clearing → suspense, bad signature, locked card, sixth PIN try, late
 * 3-D Secure, a quote used twice). The ledger check runs after the file (test/ledger-invariants.ts).
 */
const SECRET = 'card-webhook-test-secret-'.padEnd(48, 'z');
let t: TestApp;
let offsetMs = 0;
/** The run's clock (TEST_CLOCK_AT's, docs/clock.md), moved by `offsetMs` where a test needs another time. */
const clock = { now: () => new Date(testRunClock.now().getTime() + offsetMs) };

const usdt = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'USDT'));
const available = (cardId: number, currency: 'EUR' | 'USD' = 'EUR') =>
  accountBalance(t.database.db, cardAccount(cardId, 'CARD_AVAILABLE', currency));
const held = (cardId: number, currency: 'EUR' | 'USD' = 'EUR') =>
  accountBalance(t.database.db, cardAccount(cardId, 'CARD_HELD', currency));

const { post, put, get, ageCodes, holder, apply, virtualCard, quote, topUp, fundedCard, signed, authorize } =
  cardsTestCalls(() => t, SECRET);
const ADDRESS = TEST_SHIPPING_ADDRESS;
const rowsOf = async (query: SQL) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

const webhook = (event: object, deliveryId = randomUUID()) =>
  signed('/api/card/processor/webhook', { deliveryId, sentAt: clock.now().toISOString(), event });

beforeAll(async () => {
  t = await createTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET }, clock });
  // The amounts below assume a free virtual card, whatever date the run's clock reads.
  await extendCardPromotion(t);
});
afterAll(async () => t.close());

describe('applying', () => {
  it('charges the 10 USDT production fee of a physical card in the same entry as the application', async () => {
    const session = await holder(25_000_000n);
    const fees = await platformBalance(t.database.db, 'PLATFORM_FEES', 'USDT');
    const answer = await apply(session, { kind: 'PHYSICAL', network: 'MASTERCARD', shippingAddress: ADDRESS });
    expect(answer.statusCode).toBe(200);
    expect(answer.content).toMatchObject({ kind: 'PHYSICAL', status: 'UNDER_REVIEW', network: 'MASTERCARD' });
    expect(answer.content.maskedNumber).toMatch(/^\d{4} •••• •••• \d{4}$/);
    expect(await usdt(session.userId)).toBe(15_000_000n);
    expect((await platformBalance(t.database.db, 'PLATFORM_FEES', 'USDT')) - fees).toBe(10_000_000n);
    const entries = await rowsOf(
      sql`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'CARD_FEE' AND reference = ${`card:${answer.content.id}`}`,
    );
    expect(entries[0]).toMatchObject({ n: 1 });
    // Meridian keeps no full number: only first 4, last 4 and the processor's token.
    const stored = await rowsOf(sql`SELECT * FROM cards WHERE id = ${answer.content.id}`);
    expect(JSON.stringify(stored[0])).not.toMatch(/\d{13,19}/);
  });

  it('issues a virtual card active at once with no fee during the promotion', async () => {
    const session = await holder(0n);
    const answer = await apply(session, { kind: 'VIRTUAL' });
    expect(answer.statusCode).toBe(200);
    expect(answer.content).toMatchObject({ kind: 'VIRTUAL', status: 'ACTIVE', balance: '0.00', currency: 'EUR' });
    const config = (await get(session, '/api/card/config')).json().content;
    expect(config).toMatchObject({ isVirtualFeeWaived: true, physicalCardsLeft: 3 });
  });

  it('refuses a fourth physical card, and an application without the 10 USDT charges nothing', async () => {
    const session = await holder(30_000_000n);
    for (let index = 0; index < 3; index += 1)
      expect((await apply(session, { kind: 'PHYSICAL', shippingAddress: ADDRESS })).statusCode).toBe(200);
    expect(await usdt(session.userId)).toBe(0n);
    const fourth = await apply(session, { kind: 'PHYSICAL', shippingAddress: ADDRESS });
    expect(fourth.statusCode).toBe(210);
    const poor = await holder(9_999_999n);
    const refused = await apply(poor, { kind: 'PHYSICAL', shippingAddress: ADDRESS });
    expect(refused.statusCode).toBe(130);
    expect(await usdt(poor.userId)).toBe(9_999_999n);
    expect((await get(poor, '/api/card/list')).json().content).toEqual([]);
  });

  it('asks for a shipping address for a physical card, naming the field', async () => {
    const session = await holder(20_000_000n);
    const answer = await apply(session, { kind: 'PHYSICAL' });
    expect(answer.statusCode).toBe(120);
    expect(answer.content.fields.map((f: { field: string }) => f.field)).toContain('shippingAddress');
    expect(await usdt(session.userId)).toBe(20_000_000n);
  });

  it('needs level-1 identity verification', async () => {
    const session = await registerAndLogin(t.app);
    const answer = (
      await post(session, '/api/card/apply', {
        kind: 'VIRTUAL',
        network: 'VISA',
        currency: 'EUR',
        cardholderName: 'A B',
      })
    ).json();
    expect(answer.statusCode).toBe(143);
  });

  it('binds a pre-activated physical card with its number and activation code, once', async () => {
    const session = await holder();
    const stock = (await signed('/api/card/sandbox/stock', { network: 'VISA' })).content;
    const wrong = (
      await post(session, '/api/card/bind', {
        cardNumber: stock.cardNumber,
        activationCode: '000000' === stock.activationCode ? '111111' : '000000',
      })
    ).json();
    expect(wrong.statusCode).toBe(212);
    const bound = (await post(session, '/api/card/bind', stock)).json();
    expect(bound.statusCode).toBe(200);
    expect(bound.content).toMatchObject({ isBound: true, status: 'ACTIVE', last4: stock.cardNumber.slice(-4) });
    expect((await post(session, '/api/card/bind', stock)).json().statusCode).toBe(212);
  });
});

describe('top-up at a locked rate', () => {
  it('credits 92.00 EUR for 100 USDT at the locked 0.92, once per quote', async () => {
    const session = await holder(200_000_000n);
    const cardId = await virtualCard(session);
    const q = await quote(session, cardId, '100');
    expect(q.content).toMatchObject({ amount: '100.000000', creditAmount: '92.00', rate: '0.92', currency: 'EUR' });
    // The table changes after the quote: the locked rate still applies.
    await t.app.cards.updateSettings({ fxRates: { USD: '1', EUR: '0.95', GBP: '0.79', JPY: '150' } });
    const done = await topUp(session, cardId, q.content.quoteId);
    expect(done.statusCode).toBe(200);
    expect(done.content).toMatchObject({
      kind: 'TOPUP',
      amount: '92.00',
      sourceCoin: 'USDT',
      sourceAmount: '100.000000',
    });
    expect(await available(cardId)).toBe(9_200n);
    expect(await usdt(session.userId)).toBe(100_000_000n);
    // The same quote again, under a new key: refused, nothing moves.
    expect((await topUp(session, cardId, q.content.quoteId)).statusCode).toBe(213);
    expect(await available(cardId)).toBe(9_200n);
    expect(await usdt(session.userId)).toBe(100_000_000n);
    await t.app.cards.updateSettings({ fxRates: { USD: '1', EUR: '0.92', GBP: '0.79', JPY: '150' } });
  });

  it('executes a quote once when two executions race', async () => {
    const session = await holder(100_000_000n);
    const cardId = await virtualCard(session);
    const q = await quote(session, cardId, '50');
    await ageCodes(session);
    const code = await sensitiveCode(t.app, session, 'CARD_TOPUP');
    const answers = await Promise.all(
      [randomUUID(), randomUUID()].map(async (key) =>
        (
          await post(
            session,
            `/api/card/${cardId}/topup`,
            { quoteId: q.content.quoteId, emailCaptcha: code },
            { [HEADER_IDEMPOTENCY_KEY]: key },
          )
        ).json(),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(await available(cardId)).toBe(4_600n);
    expect(await usdt(session.userId)).toBe(50_000_000n);
  });

  it('refuses an expired quote (30 s) and moves nothing', async () => {
    const session = await holder(100_000_000n);
    const cardId = await virtualCard(session);
    const q = await quote(session, cardId, '10');
    offsetMs += 31_000;
    try {
      expect((await topUp(session, cardId, q.content.quoteId)).statusCode).toBe(131);
    } finally {
      offsetMs -= 31_000;
    }
    expect(await available(cardId)).toBe(0n);
    expect(await usdt(session.userId)).toBe(100_000_000n);
  });
});

describe('authorisation, clearing, reversal, refund', () => {
  it('holds 12.50 EUR, clears at 12.80 and refunds 5.00', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '100'); // 92.00 EUR
    const auth = await authorize(cardId, '12.50');
    expect(auth.content).toMatchObject({ decision: 'APPROVED', declineReason: null });
    expect(await available(cardId)).toBe(7_950n);
    expect(await held(cardId)).toBe(1_250n);
    const settlement = await platformBalance(t.database.db, 'PLATFORM_CARD_SETTLEMENT', 'EUR');
    const cleared = await signed('/api/card/sandbox/clear', {
      authorizationId: auth.content.authorizationId,
      amount: '12.80',
    });
    expect(cleared.content.decision).toBe('ACCEPTED');
    expect(await held(cardId)).toBe(0n);
    expect(await available(cardId)).toBe(7_920n);
    expect((await platformBalance(t.database.db, 'PLATFORM_CARD_SETTLEMENT', 'EUR')) - settlement).toBe(1_280n);
    const refund = await signed('/api/card/sandbox/refund', {
      authorizationId: auth.content.authorizationId,
      amount: '5.00',
    });
    expect(refund.content.decision).toBe('ACCEPTED');
    expect(await available(cardId)).toBe(8_420n);
    const list = (await get(session, `/api/card/${cardId}/transactions`)).json().content.list;
    expect(
      list.map((row: { kind: string; status: string; amount: string }) => [row.kind, row.status, row.amount]),
    ).toEqual([
      ['REFUND', 'COMPLETED', '5.00'],
      ['PURCHASE', 'CLEARED', '12.80'],
      ['TOPUP', 'COMPLETED', '92.00'],
    ]);
    const purchase = list[1];
    expect(Date.parse(purchase.refundAfter) - Date.parse(purchase.createdAt)).toBe(72 * 3_600_000);
    expect(Date.parse(purchase.refundFallbackAt) - Date.parse(purchase.createdAt)).toBe(31 * 86_400_000);
    expect(list[2].refundAfter).toBeNull();
  });

  it('holds a USD merchant charge on a EUR card at the rate table, the first time and from the cache', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '100'); // 92.00 EUR
    // The server has not seen this card: card_authorize answers its currency, the amount is
    // converted (5.00 USD × 0.92 = 4.60 EUR) and sent again.
    const first = await authorize(cardId, '5.00', { currency: 'USD' });
    expect(first.content).toMatchObject({ decision: 'APPROVED', declineReason: null });
    expect(await held(cardId)).toBe(460n);
    // Now the currency is known: one call, converted before it (0.01 USD × 0.92 rounds up to 0.01 EUR).
    const second = await authorize(cardId, '0.01', { currency: 'USD' });
    expect(second.content.decision).toBe('APPROVED');
    expect(await held(cardId)).toBe(461n);
    expect(await available(cardId)).toBe(9_200n - 461n);
    const list = (await get(session, `/api/card/${cardId}/transactions`)).json().content.list;
    expect(list.slice(0, 2).map((row: { amount: string; status: string }) => [row.status, row.amount])).toEqual([
      ['AUTHORIZED', '0.01'],
      ['AUTHORIZED', '4.60'],
    ]);
  });

  it("writes the hold entry's request hash as hashEntryRequest does", async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '100');
    const auth = await authorize(cardId, '12.34');
    expect(auth.content.decision).toBe('APPROVED');
    const [entry] = await rowsOf(
      sql`SELECT request_hash FROM ledger_entries WHERE idempotency_key = ${`card-hold:${auth.content.authorizationId}`}`,
    );
    const expected = hashEntryRequest({
      kind: 'CARD_HOLD',
      reference: `card:${cardId}`,
      idempotencyKey: `card-hold:${auth.content.authorizationId}`,
      postings: transfer(cardAccount(cardId, 'CARD_AVAILABLE', 'EUR'), cardAccount(cardId, 'CARD_HELD', 'EUR'), 1_234n),
    });
    expect(entry).toEqual({ request_hash: expected });
  });

  it('releases the hold on a reversal', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const auth = await authorize(cardId, '3.00');
    expect(await available(cardId)).toBe(620n);
    await signed('/api/card/sandbox/reverse', { authorizationId: auth.content.authorizationId });
    expect(await available(cardId)).toBe(920n);
    expect(await held(cardId)).toBe(0n);
  });

  it('declines more than the balance with the reason and moves nothing', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const countEntries = async () => (await rowsOf(sql`SELECT count(*)::int AS n FROM ledger_entries`))[0];
    const entriesBefore = await countEntries();
    const auth = await authorize(cardId, '9.21');
    expect(auth.content).toMatchObject({ decision: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await countEntries()).toEqual(entriesBefore);
    expect(await available(cardId)).toBe(920n);
    const list = (await get(session, `/api/card/${cardId}/transactions`)).json().content.list;
    expect(list[0]).toMatchObject({ status: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS', amount: '9.21' });
  });

  it('answers the same authorisation webhook twice with one hold', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    const token = await t.app.cards.tokenOf(cardId);
    const event = {
      type: 'authorization',
      authorizationId: `ext_${randomUUID()}`,
      cardToken: token,
      amount: '2.00',
      currency: 'EUR',
      merchantName: 'Twice',
      mcc: '5812',
      isOnline: false,
      isThreeDs: false,
      pinResult: 'NOT_PRESENT',
      isExpiryCorrect: true,
    };
    const [first, second] = await Promise.all([webhook(event), webhook(event)]);
    expect(first.content.decision).toBe('APPROVED');
    expect(second.content).toEqual(first.content);
    expect(await held(cardId)).toBe(200n);
    expect(await available(cardId)).toBe(720n);
  });

  it('approves exactly the affordable ones of 100 concurrent authorisations', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR: 9 of 1.00 fit
    const answers = await Promise.all(Array.from({ length: 100 }, () => authorize(cardId, '1.00')));
    const approved = answers.filter((a) => a.content.decision === 'APPROVED');
    expect(approved).toHaveLength(9);
    expect(answers.filter((a) => a.content.declineReason === 'INSUFFICIENT_FUNDS')).toHaveLength(91);
    expect(await held(cardId)).toBe(900n);
    expect(await available(cardId)).toBe(20n);
  });

  it('books a clearing for an unknown authorisation to suspense, not an error', async () => {
    const suspense = await platformBalance(t.database.db, 'SUSPENSE', 'EUR');
    const answer = await webhook({
      type: 'clearing',
      authorizationId: `ext_${randomUUID()}`,
      cardToken: 'sbx_card_unknown',
      amount: '7.00',
      currency: 'EUR',
    });
    expect(answer).toMatchObject({ statusCode: 200, content: { decision: 'ACCEPTED', transactionId: null } });
    expect((await platformBalance(t.database.db, 'SUSPENSE', 'EUR')) - suspense).toBe(-700n);
    const items = await rowsOf(sql`SELECT count(*)::int AS n FROM card_suspense_items WHERE state = 'OPEN'`);
    expect(Number(items[0]!.n)).toBeGreaterThanOrEqual(1);
  });

  it('refuses a webhook with a bad signature and reads nothing', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    const body = {
      deliveryId: randomUUID(),
      sentAt: clock.now().toISOString(),
      event: { type: 'reversal', authorizationId: 'x', cardToken: await t.app.cards.tokenOf(cardId) },
    };
    const answer = await signed(
      '/api/card/processor/webhook',
      body,
      signCardWebhook('another-secret', JSON.stringify(body)),
    );
    expect(answer.statusCode).toBe(137);
    const unsigned = await signed('/api/card/sandbox/authorize', { card: cardId }, 'sha256=00');
    expect(unsigned.statusCode).toBe(137);
    expect(await available(cardId)).toBe(920n);
  });

  it('declines on a locked card or a frozen account (the freeze link), and approves again once unlocked', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    expect((await post(session, `/api/card/${cardId}/lock`, { isLocked: true })).json().content.isLocked).toBe(true);
    expect((await authorize(cardId, '1.00')).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'CARD_LOCKED',
    });
    await post(session, `/api/card/${cardId}/lock`, { isLocked: false });
    expect((await authorize(cardId, '1.00')).content.decision).toBe('APPROVED');
    const operator = { email: 'compliance@meridian.test', ip: null };
    await t.app.identity.freezeAccount(session.userId, 'this wasn’t me', operator);
    expect((await authorize(cardId, '1.00')).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'CARD_LOCKED',
    });
    await t.app.identity.unfreezeAccount(session.userId, 'identity checked', operator);
    expect((await authorize(cardId, '1.00')).content.decision).toBe('APPROVED');
  });

  it('blocks the card after five wrong PINs: the sixth try is refused even if right', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    await ageCodes(session);
    const code = await sensitiveCode(t.app, session, 'CARD_PIN');
    expect(
      (await post(session, `/api/card/${cardId}/pin`, { pin: '2468', emailCaptcha: code })).json().statusCode,
    ).toBe(200);
    const inPerson = { isOnline: false };
    expect((await authorize(cardId, '1.00', { ...inPerson, pin: '2468' })).content.decision).toBe('APPROVED');
    for (let index = 0; index < 5; index += 1)
      expect((await authorize(cardId, '1.00', { ...inPerson, pin: '1111' })).content.declineReason).toBe('WRONG_PIN');
    const sixth = await authorize(cardId, '1.00', { ...inPerson, pin: '2468' });
    expect(sixth.content).toMatchObject({ decision: 'DECLINED', declineReason: 'PIN_TRIES_EXCEEDED' });
    expect((await get(session, `/api/card/${cardId}`)).json().content.pinBlockedUntil).not.toBeNull();
    await t.app.cards.unblockPin(cardId);
    expect((await authorize(cardId, '1.00', { ...inPerson, pin: '2468' })).content.decision).toBe('APPROVED');
  });

  it('holds a 3-D Secure payment once the user confirms within 5 minutes', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    const auth = await authorize(cardId, '4.00', { isThreeDs: true });
    expect(auth.content.decision).toBe('PENDING_CONFIRMATION');
    expect(await held(cardId)).toBe(0n);
    const pending = (await get(session, '/api/card/confirmations')).json().content;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ cardId, amount: '4.00', reason: 'THREE_DS' });
    const confirmed = (await post(session, `/api/card/confirmation/${pending[0].id}`, { isApproved: true })).json();
    expect(confirmed.content.status).toBe('AUTHORIZED');
    expect(await held(cardId)).toBe(400n);
    const polled = await signed('/api/card/sandbox/authorization', { authorizationId: auth.content.authorizationId });
    expect(polled.content.status).toBe('APPROVED');
    expect(
      (await post(session, `/api/card/confirmation/${pending[0].id}`, { isApproved: true })).json().statusCode,
    ).toBe(218);
    // More than the card holds (5.20 EUR left): declined at once, no confirmation asked.
    expect((await authorize(cardId, '9.00', { isThreeDs: true })).content).toMatchObject({
      decision: 'DECLINED',
      declineReason: 'INSUFFICIENT_FUNDS',
    });
    expect((await get(session, '/api/card/confirmations')).json().content).toEqual([]);
  });

  it('refuses a 3-D Secure confirmation after 5 minutes and declines the payment', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    const auth = await authorize(cardId, '4.00', { isThreeDs: true });
    const [pending] = (await get(session, '/api/card/confirmations')).json().content;
    offsetMs += 5 * 60_000 + 1_000;
    try {
      const late = (await post(session, `/api/card/confirmation/${pending.id}`, { isApproved: true })).json();
      expect(late.statusCode).toBe(217);
    } finally {
      offsetMs -= 5 * 60_000 + 1_000;
    }
    expect(await held(cardId)).toBe(0n);
    expect(await available(cardId)).toBe(920n);
    const polled = await signed('/api/card/sandbox/authorization', { authorizationId: auth.content.authorizationId });
    expect(polled.content).toMatchObject({ status: 'DECLINED', declineReason: 'THREE_DS_FAILED' });
  });

  it('applies the spend rules: blocked category, per-transaction maximum, currency named', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    const rules = (
      await put(session, `/api/card/${cardId}/rules`, {
        currency: 'EUR',
        blockedMccs: ['7995'],
        perTransactionMax: '2.00',
        askAbove: null,
      })
    ).json();
    expect(rules.content).toEqual({ blockedMccs: ['7995'], perTransactionMax: '2.00', askAbove: null });
    expect((await authorize(cardId, '1.00', { mcc: '7995' })).content.declineReason).toBe('MERCHANT_CATEGORY_BLOCKED');
    expect((await authorize(cardId, '2.01')).content.declineReason).toBe('LIMIT_EXCEEDED');
    const mismatch = (
      await put(session, `/api/card/${cardId}/rules`, {
        currency: 'USD',
        blockedMccs: [],
        perTransactionMax: null,
        askAbove: null,
      })
    ).json();
    expect(mismatch.statusCode).toBe(215);
  });

  it('counts held and cleared purchases toward the daily and monthly limits, not reversed or declined ones', async () => {
    const savedOffsetMs = offsetMs;
    // The 15th of this month, 12:00 UTC, so the next day is in the same month.
    const today = testRunClock.now();
    offsetMs = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 15, 12) - testRunClock.now().getTime();
    try {
      const session = await holder(100_000_000n);
      const cardId = await fundedCard(session, '100'); // 92.00 EUR
      await t.database.db.execute(
        sql`UPDATE cards SET limit_daily_minor = 1000, limit_monthly_minor = 1500 WHERE id = ${cardId}`,
      );
      const first = await authorize(cardId, '4.00');
      const second = await authorize(cardId, '3.00');
      expect([first.content.decision, second.content.decision]).toEqual(['APPROVED', 'APPROVED']);
      // 7.00 held today: 3.01 more passes the daily 10.00.
      expect((await authorize(cardId, '3.01')).content.declineReason).toBe('LIMIT_EXCEEDED');
      await signed('/api/card/sandbox/reverse', { authorizationId: second.content.authorizationId }); // 4.00
      await signed('/api/card/sandbox/clear', { authorizationId: first.content.authorizationId, amount: '5.00' }); // 5.00
      expect((await authorize(cardId, '5.01')).content.declineReason).toBe('LIMIT_EXCEEDED');
      expect((await authorize(cardId, '5.00')).content.decision).toBe('APPROVED'); // 10.00 today
      const [totals] = await rowsOf(
        sql`SELECT (SELECT sum(amount_minor) FROM card_spend_totals WHERE card_id = ${cardId})::text AS totals,
                   (SELECT sum(amount_minor) FROM card_transactions WHERE card_id = ${cardId} AND kind = 'PURCHASE'
                      AND status IN ('AUTHORIZED', 'CLEARED'))::text AS purchases`,
      );
      expect(totals).toEqual({ totals: '1000', purchases: '1000' });
      // The next day: the daily limit starts again; the month still counts 10.00 of its 15.00.
      offsetMs += 86_400_000;
      expect((await authorize(cardId, '5.01')).content.declineReason).toBe('LIMIT_EXCEEDED');
      expect((await authorize(cardId, '5.00')).content.decision).toBe('APPROVED');
    } finally {
      offsetMs = savedOffsetMs;
    }
  });

  it('stores one pending limit-change request per card for customer service', async () => {
    const session = await holder();
    const cardId = await virtualCard(session);
    const body = { currency: 'EUR', perTransaction: '8000.00', daily: null, monthly: null, reason: 'Trade fair' };
    const first = (await post(session, `/api/card/${cardId}/limit-request`, body)).json();
    expect(first.content).toMatchObject({ state: 'PENDING', requested: { perTransaction: '8000.00' } });
    expect((await post(session, `/api/card/${cardId}/limit-request`, body)).json().statusCode).toBe(216);
    expect((await t.app.cards.pendingLimitRequests()).some((r) => r.id === first.content.id)).toBe(true);
    const decided = await t.app.cards.decideLimitRequest(first.content.id, true, 'support@example.com');
    expect(decided.state).toBe('APPROVED');
    const detail = (await get(session, `/api/card/${cardId}`)).json().content;
    expect(detail).toMatchObject({
      limits: { perTransaction: '8000.00', daily: '10000.00', monthly: '50000.00' },
      pendingLimitRequest: null,
    });
  });

  it('reveals the number only through the security check, and refuses closing the account with a card balance', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    expect((await post(session, `/api/card/${cardId}/reveal`, {})).json().statusCode).toBe(120);
    await ageCodes(session);
    const code = await sensitiveCode(t.app, session, 'CARD_REVEAL');
    const revealed = (await post(session, `/api/card/${cardId}/reveal`, { emailCaptcha: code })).json();
    expect(revealed.content.pan).toMatch(/^\d{16}$/);
    expect(revealed.content.cvv).toMatch(/^\d{3}$/);
    // The account overview's CardAccount: 9.20 EUR at the table's 0.92 per USD = 10.00 USD.
    const balance = (await get(session, '/api/account/balance')).json().content;
    const cardLine = balance.wallet.accounts.find(
      (account: { accountType: string }) => account.accountType === 'CardAccount',
    );
    expect(cardLine).toMatchObject({ totalUsd: '10.00', assets: [{ coinCode: 'EUR', amount: '9.20' }] });
    const reasons = await t.app.cards.holdingsChecker.reasonsToRefuseClosure(session.userId, 'en-US');
    expect(reasons[0]).toMatch(/^card ending \d{4} \(€9\.20\)$/);
  });
});
