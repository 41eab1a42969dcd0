import type { MessageItem } from '@meridian/contracts/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSession, testRunClock } from '../../../test/helpers.ts';
import { eventMessages, messageCount } from '../notices/notices.test-kit.ts';
import { cardsTestCalls, extendCardPromotion, TEST_SHIPPING_ADDRESS } from './cards.test-kit.ts';

/**
 * The card money events each write exactly one message in their transaction (docs/notices.md
 * "Money events"): an application (with its fee) and a top-up, read in en-US and zh-HK with the
 * amounts formatted; none for a refused request, none again for a replay. And the 3-D Secure
 * confirmation message stops asking once the payment is decided: rewritten as approved, declined
 * or lapsed (docs/cards.md).
 */
const SECRET = 'card-webhook-test-secret-'.padEnd(48, 'z');
let t: TestApp;
/** The run's clock (TEST_CLOCK_AT's, docs/clock.md). */
const clock = { now: () => testRunClock.now() };

const { post, get, holder, apply, virtualCard, quote, topUp, fundedCard, authorize } = cardsTestCalls(() => t, SECRET);
const ADDRESS = TEST_SHIPPING_ADDRESS;

beforeAll(async () => {
  t = await createTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET }, clock });
  // The amounts below assume a free virtual card, whatever date the run's clock reads.
  await extendCardPromotion(t);
});
afterAll(async () => t.close());

const messagesOf = (session: TestSession, key: string) => eventMessages(t.app, t.database.db, session, key);

/** The payment's confirmation message, read in `lang` (matched by its payment id in the link or the key). */
async function confirmationMessages(session: TestSession, lang: 'en-US' | 'zh-HK'): Promise<MessageItem[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/notice/message/list?pageSize=100',
    headers: { cookie: session.cookie, 'User-Lang': lang },
  });
  return (response.json().content.list as MessageItem[]).filter(
    (item) =>
      item.title.includes('card payment') || item.title.includes('Card payment') || item.title.includes('卡付款'),
  );
}

describe('card money events', () => {
  it('an application for a physical card writes one message with its fee; its replay writes none; a refused one none', async () => {
    const session = await holder(25_000_000n);
    const body = { kind: 'PHYSICAL', network: 'MASTERCARD', shippingAddress: ADDRESS };
    const first = await apply(session, body, 'apply-1');
    expect(first.statusCode).toBe(200);
    expect((await apply(session, body, 'apply-1')).content.id).toBe(first.content.id);
    const before = await messageCount(t.database.db, session.userId);
    // 15 USDT left: a second physical card is paid, a third (5 USDT left) is refused.
    expect((await apply(session, body)).statusCode).toBe(200);
    const refused = await apply(session, body);
    expect(refused.statusCode).toBe(130);
    expect(await messageCount(t.database.db, session.userId)).toBe(before + 1);
    const messages = await messagesOf(session, 'card.applied_physical');
    expect(messages.count).toBe(2);
    const last4 = first.content.maskedNumber.slice(-4);
    const firstEn = messages['en-US'].find((item) => item.body.includes(last4))!;
    expect(firstEn).toMatchObject({
      category: 'CARD',
      title: 'Card applied',
      body: `Your physical EUR card ending ${last4} was applied for and is under review. The fee of 10.00 USDT was paid from your wallet.`,
      link: '/my/account/fiscard',
    });
    expect(messages['zh-HK'].find((item) => item.body.includes(last4))!.body).toBe(
      `你已申請尾號 ${last4} 的 EUR 實體卡，現正審核中。手續費 10.00 USDT 已從你的錢包支付。`,
    );
  });

  it('an application for a free virtual card writes one message without a fee', async () => {
    const session = await holder(0n);
    const answer = await apply(session, { kind: 'VIRTUAL' });
    expect(answer.statusCode).toBe(200);
    const messages = await messagesOf(session, 'card.applied_virtual');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]!.body).toBe(
      `Your virtual EUR card ending ${answer.content.maskedNumber.slice(-4)} is ready to use.`,
    );
  });

  it('a top-up writes one message; its replay and a second use of the quote write none', async () => {
    const session = await holder(100_000_000n);
    const cardId = await virtualCard(session);
    const q = await quote(session, cardId, '25');
    expect(q.statusCode).toBe(200);
    const first = await topUp(session, cardId, q.content.quoteId, 'topup-1');
    expect(first.statusCode).toBe(200);
    expect((await topUp(session, cardId, q.content.quoteId, 'topup-1')).statusCode).toBe(200);
    const before = await messageCount(t.database.db, session.userId);
    expect((await topUp(session, cardId, q.content.quoteId)).statusCode).toBe(213);
    expect(await messageCount(t.database.db, session.userId)).toBe(before);
    const messages = await messagesOf(session, 'card.topped_up');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]).toMatchObject({
      title: 'Card topped up',
      body: expect.stringMatching(
        /^€23\.00 was added to your card ending \d{4}, paid with 25\.00 USDT from your wallet\.$/,
      ),
    });
    expect(messages['zh-HK'][0]!.body).toMatch(/^你尾號 \d{4} 的卡已增值 €23\.00，已從你的錢包支付 25\.00 USDT。$/);
  });
});

describe('the 3-D Secure confirmation message', () => {
  it('asks first, then says the payment was approved (the same message, no longer asking)', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    expect((await authorize(cardId, '4.00', { isThreeDs: true })).content.decision).toBe('PENDING_CONFIRMATION');
    const [asking] = await confirmationMessages(session, 'en-US');
    expect(asking!.body).toContain('Confirm within 5 minutes.');
    const [pending] = (await get(session, '/api/card/confirmations')).json().content;
    expect(asking!.link).toBe(`/my/account/fiscard?confirm=${pending.id}`);
    expect((await post(session, `/api/card/confirmation/${pending.id}`, { isApproved: true })).json().statusCode).toBe(
      200,
    );
    const en = await confirmationMessages(session, 'en-US');
    expect(en).toHaveLength(1);
    expect(en[0]).toMatchObject({ id: asking!.id, title: 'Card payment approved', link: '/my/account/fiscard' });
    expect(en[0]!.body).toMatch(/^You approved the payment of 4\.00 EUR to Example Books on your card ending \d{4}\.$/);
    expect(en[0]!.body).not.toContain('5 minutes');
    const [zh] = await confirmationMessages(session, 'zh-HK');
    expect(zh!.title).toBe('卡付款已批准');
    expect(zh!.body).not.toContain('5 分鐘');
  });

  it('says the payment was declined when the user rejects it', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    await authorize(cardId, '4.00', { isThreeDs: true });
    const [pending] = (await get(session, '/api/card/confirmations')).json().content;
    expect((await post(session, `/api/card/confirmation/${pending.id}`, { isApproved: false })).json().statusCode).toBe(
      200,
    );
    const [message] = await confirmationMessages(session, 'en-US');
    expect(message).toMatchObject({ title: 'Card payment declined' });
    expect(message!.body).toContain('was declined. Nothing was charged.');
    const [zh] = await confirmationMessages(session, 'zh-HK');
    expect(zh!.title).toBe('卡付款已拒絕');
  });

  it('says the payment lapsed when nobody answered within 5 minutes (the job declines it)', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10');
    await authorize(cardId, '4.00', { isThreeDs: true });
    expect(
      await t.app.cards.expireConfirmations(new Date(clock.now().getTime() + 5 * 60_000 + 1_000)),
    ).toBeGreaterThanOrEqual(1);
    const en = await confirmationMessages(session, 'en-US');
    expect(en).toHaveLength(1);
    expect(en[0]).toMatchObject({ title: 'Card payment not confirmed in time', link: '/my/account/fiscard' });
    expect(en[0]!.body).toContain('was not confirmed within 5 minutes and was declined');
    const [zh] = await confirmationMessages(session, 'zh-HK');
    expect(zh!.title).toBe('卡付款未於限時內確認');
    expect(await messagesOf(session, 'card.confirm.expired')).toMatchObject({ count: 1 });
  });
});
