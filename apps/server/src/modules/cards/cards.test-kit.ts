import { randomUUID } from 'node:crypto';
import { HEADER_CARD_SIGNATURE } from '@meridian/contracts/cards';
import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { sql } from 'drizzle-orm';
import { registerAndLogin, sensitiveCode, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { signCardWebhook } from './cards.processor.ts';

const YEAR_MS = 365 * 86_400_000;

/**
 * The default virtual-card promotion (no issuing fee) ends in June 2027 (`DEFAULT_PROMOTION_ENDS_AT`,
 * cards.internal.ts). Tests whose amounts assume a free virtual card extend it to a year after the
 * app's clock, so they hold on any date the run's clock reads (TEST_CLOCK_AT, docs/clock.md).
 */
export async function extendCardPromotion(t: TestApp): Promise<void> {
  const endsAt = new Date(t.app.clock.now().getTime() + YEAR_MS);
  await t.database.db.execute(sql`UPDATE card_settings SET promotion_ends_at = ${endsAt.toISOString()}::timestamptz`);
}

/** A shipping address the card tests apply with. */
export const TEST_SHIPPING_ADDRESS = {
  recipient: 'Mei Chan',
  line1: '1 Queen’s Road Central',
  city: 'Hong Kong',
  country: 'HK',
  phone: '+852 5555 0100',
};

/**
 * The calls the cards API tests make, on the test app `app()` returns (created in `beforeAll`, so
 * read late): users holding USDT, HTTP calls with their session, a card applied for (through HTTP
 * with its security check, or through the service), a top-up quote and its use, and webhooks
 * signed with `secret` as the sandbox processor signs them.
 */
export function cardsTestCalls(app: () => TestApp, secret: string) {
  const post = (session: TestSession, url: string, payload: object, headers: Record<string, string> = {}) =>
    app().app.inject({ method: 'POST', url, headers: { ...session.headers, ...headers }, payload });
  const put = (session: TestSession, url: string, payload: object) =>
    app().app.inject({ method: 'PUT', url, headers: session.headers, payload });
  const get = (session: TestSession, url: string) =>
    app().app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

  async function depositUsdt(userId: string, amountMinor: bigint): Promise<void> {
    await postEntry(app().database.db, {
      kind: 'DEPOSIT',
      reference: `test:${userId}`,
      idempotencyKey: `test:${randomUUID()}`,
      postings: transfer(
        platformAccount('PLATFORM_HOT_WALLET', 'USDT'),
        userAccount(userId, 'USER_AVAILABLE', 'USDT'),
        amountMinor,
      ),
    });
  }

  /** Let the user's next security code be sent at once (the resend wait counts from the last one). */
  async function ageCodes(session: TestSession): Promise<void> {
    await app().database.db.execute(
      sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
    );
  }

  /** A signed-in user at level 1 holding `usdtMinor` USDT. */
  async function holder(usdtMinor = 0n): Promise<TestSession> {
    const session = await registerAndLogin(app().app);
    await app().app.identity.setKycLevel(session.userId, 1);
    if (usdtMinor > 0n) await depositUsdt(session.userId, usdtMinor);
    return session;
  }

  /** `POST card/apply` with its emailed code and an idempotency key. */
  async function apply(session: TestSession, body: object, key: string = randomUUID()) {
    await ageCodes(session);
    const emailCaptcha = await sensitiveCode(app().app, session, 'CARD_APPLY');
    return (
      await post(
        session,
        '/api/card/apply',
        { network: 'VISA', currency: 'EUR', cardholderName: 'MEI CHAN', ...body, emailCaptcha },
        { [HEADER_IDEMPOTENCY_KEY]: key },
      )
    ).json();
  }

  /** A virtual card, applied through the service (the security check of the HTTP call is shown in 'applying'). */
  async function virtualCard(session: TestSession, currency: 'EUR' | 'USD' = 'EUR'): Promise<number> {
    const card = await app().app.cards.apply(
      session.userId,
      { kind: 'VIRTUAL', network: 'VISA', currency, cardholderName: 'MEI CHAN' },
      randomUUID(),
    );
    return card.id;
  }

  async function quote(session: TestSession, cardId: number, amount: string, coin = 'USDT') {
    return (await post(session, `/api/card/${cardId}/topup/quote`, { coin, amount })).json();
  }

  /** `POST card/{id}/topup` with its emailed code and an idempotency key. */
  async function topUp(session: TestSession, cardId: number, quoteId: string, key: string = randomUUID()) {
    await ageCodes(session);
    const emailCaptcha = await sensitiveCode(app().app, session, 'CARD_TOPUP');
    return (
      await post(session, `/api/card/${cardId}/topup`, { quoteId, emailCaptcha }, { [HEADER_IDEMPOTENCY_KEY]: key })
    ).json();
  }

  /** A EUR card topped up with `usdtAmount` USDT at the table's 0.92 (through the service). */
  async function fundedCard(session: TestSession, usdtAmount: string): Promise<number> {
    const cardId = await virtualCard(session);
    const q = await app().app.cards.quoteTopUp(session.userId, cardId, 'USDT', BigInt(usdtAmount) * 1_000_000n);
    await app().app.cards.topUp(session.userId, cardId, q.quoteId, randomUUID());
    return cardId;
  }

  /** Post a body signed (or not) to a signed route, as the processor / CLI does. */
  async function signed(url: string, body: object, signature?: string) {
    const raw = JSON.stringify(body);
    return (
      await app().app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          [HEADER_CARD_SIGNATURE]: signature ?? signCardWebhook(secret, raw),
        },
        payload: raw,
      })
    ).json();
  }

  /** A sandbox authorisation of `amount` EUR at Example Books (online, no 3-D Secure unless `extra` says). */
  async function authorize(cardId: number, amount: string, extra: object = {}) {
    return signed('/api/card/sandbox/authorize', {
      card: cardId,
      amount,
      currency: 'EUR',
      merchantName: 'Example Books',
      mcc: '5734',
      isOnline: true,
      isThreeDs: false,
      ...extra,
    });
  }

  return {
    post,
    put,
    get,
    depositUsdt,
    ageCodes,
    holder,
    apply,
    virtualCard,
    quote,
    topUp,
    fundedCard,
    signed,
    authorize,
  };
}
