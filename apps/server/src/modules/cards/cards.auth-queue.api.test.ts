import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testRunClock } from '../../../test/helpers.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { cardAccount, platformAccount, transfer } from '../ledger/ledger.types.ts';
import { decideCardBatch, type QueuedAuthorisation } from './cards.auth-queue.ts';
import type { AuthorizationEvent } from './cards.event-rows.ts';
import { cardsTestCalls, extendCardPromotion } from './cards.test-kit.ts';

/**
 * A hot card's queue (docs/cards.md "Hot cards: one commit for a card's queue"): the decisions of
 * `card_authorize_batch` are those of the same authorisations decided one after another (balance,
 * daily limit, a replay, a wrong PIN), a failed item leaves the others' decisions and money alone,
 * and concurrent webhooks on one card (which the per-card queue groups) approve exactly what the
 * balance affords, each once. Runs on PGlite and PostgreSQL; the ledger check runs after the file.
 * On PostgreSQL the concurrent webhooks below do go in groups (batches of 13 to 32 were seen); on
 * PGlite each query completes in the server's own thread before the next request reaches the
 * queue, so there they go one by one and the `decideCardBatch` tests are what prove the grouped SQL.
 */
const SECRET = 'card-webhook-test-secret-'.padEnd(48, 'q');
let t: TestApp;
const clock = { now: () => testRunClock.now() };
const { holder, fundedCard, signed } = cardsTestCalls(() => t, SECRET);
const available = (cardId: number) => accountBalance(t.database.db, cardAccount(cardId, 'CARD_AVAILABLE', 'EUR'));
const held = (cardId: number) => accountBalance(t.database.db, cardAccount(cardId, 'CARD_HELD', 'EUR'));
const rowsOf = async (query: SQL) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The card's processor token. */
const tokenOf = async (cardId: number): Promise<string> => (await t.app.cards.tokenOf(cardId))!;

beforeAll(async () => {
  t = await createTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET }, clock });
  await extendCardPromotion(t);
});
afterAll(async () => t.close());

/** An online EUR authorisation of `amount` on the card `cardToken` (no 3-D Secure). */
function event(cardToken: string, amount: string, extra: Partial<AuthorizationEvent> = {}): AuthorizationEvent {
  return {
    type: 'authorization',
    authorizationId: `q_${randomUUID()}`,
    cardToken,
    amount,
    currency: 'EUR',
    merchantName: 'Queue Books',
    mcc: '5734',
    isOnline: true,
    isThreeDs: false,
    pinResult: 'NOT_PRESENT',
    isExpiryCorrect: true,
    ...extra,
  };
}

const queued = (e: AuthorizationEvent): QueuedAuthorisation => ({
  event: e,
  amountMinor: BigInt(Math.round(Number(e.amount) * 100)),
  amountCurrency: 'EUR',
  now: clock.now(),
});

/**
 * An authorisation whose hold cannot be posted: its hold's idempotency key is already taken by
 * another entry (+0.01 EUR on the card), so card_authorize raises for it.
 */
async function brokenAuthorisation(cardId: number, token: string): Promise<AuthorizationEvent> {
  const broken = event(token, '2.00');
  await postEntry(t.database.db, {
    kind: 'CARD_TOPUP',
    reference: `card:${cardId}`,
    idempotencyKey: `card-hold:${broken.authorizationId}`,
    postings: transfer(
      platformAccount('PLATFORM_CARD_FUNDING', 'EUR'),
      cardAccount(cardId, 'CARD_AVAILABLE', 'EUR'),
      1n,
    ),
  });
  return broken;
}

const webhook = (e: AuthorizationEvent) =>
  signed('/api/card/processor/webhook', { deliveryId: randomUUID(), sentAt: clock.now().toISOString(), event: e });

describe('card_authorize_batch', () => {
  it('decides each item as it would be decided alone, in order: balance, daily limit, replay, wrong PIN', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const token = await tokenOf(cardId);
    await t.database.db.execute(sql`UPDATE cards SET limit_daily_minor = 900 WHERE id = ${cardId}`);
    const first = event(token, '3.00');
    const items = [
      first, // 3.00 approved: 6.20 left, 3.00 spent today
      event(token, '5.00'), // approved: 1.20 left, 8.00 spent
      event(token, '2.00'), // 10.00 > the 9.00 daily limit: LIMIT_EXCEEDED (before the balance)
      { ...first }, // the first again: its decision, no second hold
      event(token, '1.00', { pinResult: 'WRONG' }), // a wrong PIN counts: WRONG_PIN
      event(token, '1.00'), // 9.00 spent ≤ 9.00: approved, 0.20 left
      event(token, '0.50'), // the daily limit again
    ].map(queued);
    const rows = await decideCardBatch(t.database.db, token, items);
    const decisions = rows.map((row) =>
      row instanceof Error ? row.message : [row.o_transaction_status, row.o_decline_reason, row.o_is_replay],
    );
    expect(decisions).toEqual([
      ['AUTHORIZED', null, false],
      ['AUTHORIZED', null, false],
      ['DECLINED', 'LIMIT_EXCEEDED', false],
      ['AUTHORIZED', null, true],
      ['DECLINED', 'WRONG_PIN', false],
      ['AUTHORIZED', null, false],
      ['DECLINED', 'LIMIT_EXCEEDED', false],
    ]);
    expect(rows[3]).toMatchObject({ o_transaction_id: (rows[0] as { o_transaction_id: unknown }).o_transaction_id });
    expect(await available(cardId)).toBe(20n);
    expect(await held(cardId)).toBe(900n);
    const [card] = await rowsOf(sql`SELECT pin_wrong_count FROM cards WHERE id = ${cardId}`);
    expect(card).toEqual({ pin_wrong_count: 1 });
    const [holds] = await rowsOf(
      sql`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'CARD_HOLD' AND reference = ${`card:${cardId}`}`,
    );
    expect(holds).toEqual({ n: 3 });
  });

  it('declines over the balance in order, then approves a smaller one that still fits', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const token = await tokenOf(cardId);
    const rows = await decideCardBatch(
      t.database.db,
      token,
      ['3.00', '5.00', '2.00', '1.00'].map((amount) => queued(event(token, amount))),
    );
    expect(rows.map((row) => !(row instanceof Error) && [row.o_transaction_status, row.o_decline_reason])).toEqual([
      ['AUTHORIZED', null],
      ['AUTHORIZED', null],
      ['DECLINED', 'INSUFFICIENT_FUNDS'],
      ['AUTHORIZED', null],
    ]);
    expect(await available(cardId)).toBe(20n);
    expect(await held(cardId)).toBe(900n);
  });

  it('writes nothing of any item when one item raises (the caller then decides them one by one)', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const token = await tokenOf(cardId);
    const broken = await brokenAuthorisation(cardId, token);
    await expect(
      decideCardBatch(t.database.db, token, [
        queued(event(token, '1.00')),
        queued(broken),
        queued(event(token, '4.00')),
      ]),
    ).rejects.toThrow();
    expect(await held(cardId)).toBe(0n);
    expect(await available(cardId)).toBe(921n);
    const [written] = await rowsOf(
      sql`SELECT count(*)::int AS n FROM card_transactions WHERE card_id = ${cardId} AND kind = 'PURCHASE'`,
    );
    expect(written).toEqual({ n: 0 });
  });
});

describe('the per-card queue', () => {
  it('approves exactly the affordable ones of 100 concurrent webhooks on a card it knows, each once', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const token = await tokenOf(cardId);
    // The first decision teaches the process the card's currency; the next ones queue per card.
    expect((await webhook(event(token, '1.00'))).content.decision).toBe('APPROVED');
    const events = Array.from({ length: 100 }, () => event(token, '1.00'));
    const answers = await Promise.all([...events, ...events.slice(0, 10)].map((e) => webhook(e)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const firstAnswers = answers.slice(0, 100).map((answer) => answer.content);
    expect(firstAnswers.filter((answer) => answer.decision === 'APPROVED')).toHaveLength(8);
    expect(firstAnswers.filter((answer) => answer.declineReason === 'INSUFFICIENT_FUNDS')).toHaveLength(92);
    // A webhook delivered twice answers the same decision and transaction.
    expect(answers.slice(100).map((answer) => answer.content)).toEqual(firstAnswers.slice(0, 10));
    expect(await held(cardId)).toBe(900n);
    expect(await available(cardId)).toBe(20n);
    const [rows] = await rowsOf(
      sql`SELECT count(*)::int AS n FROM card_transactions WHERE card_id = ${cardId} AND kind = 'PURCHASE'`,
    );
    expect(rows).toEqual({ n: 101 });
  });

  it('fails only the webhook whose decision raises; the ones queued with it are decided in order', async () => {
    const session = await holder(100_000_000n);
    const cardId = await fundedCard(session, '10'); // 9.20 EUR
    const token = await tokenOf(cardId);
    const broken = await brokenAuthorisation(cardId, token); // +0.01: 9.21 EUR
    expect((await webhook(event(token, '0.21'))).content.decision).toBe('APPROVED');
    const events = Array.from({ length: 30 }, (_unused, index) => (index === 7 ? broken : event(token, '0.50')));
    const answers = await Promise.all(events.map((e) => webhook(e)));
    expect(answers[7]!.statusCode).not.toBe(200);
    const others = answers.filter((_answer, index) => index !== 7);
    expect(others.filter((answer) => answer.content?.decision === 'APPROVED')).toHaveLength(18);
    expect(others.filter((answer) => answer.content?.declineReason === 'INSUFFICIENT_FUNDS')).toHaveLength(11);
    expect(await held(cardId)).toBe(921n);
    expect(await available(cardId)).toBe(0n);
    const written = await rowsOf(
      sql`SELECT count(*)::int AS n FROM card_transactions WHERE processor_auth_id = ${broken.authorizationId}`,
    );
    expect(written).toEqual([{ n: 0 }]);
  });

  it('keeps the cards of concurrent webhooks apart', async () => {
    const session = await holder(200_000_000n);
    const cardIds = [await fundedCard(session, '10'), await fundedCard(session, '10')];
    const tokens = await Promise.all(cardIds.map(tokenOf));
    for (const token of tokens) await webhook(event(token, '0.20'));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_unused, index) => webhook(event(tokens[index % 2]!, '0.50'))),
    );
    expect(answers.filter((answer) => answer.content.decision === 'APPROVED')).toHaveLength(36);
    for (const cardId of cardIds) {
      expect(await held(cardId)).toBe(920n);
      expect(await available(cardId)).toBe(0n);
    }
  });
});
