import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { eventMessages, messageCount } from '../notices/notices.test-kit.ts';

/**
 * Entrusting BTC to a trust and withdrawing it each write exactly one message to the settlor in
 * the movement's transaction (docs/notices.md "Money events"), read in en-US and zh-HK with the
 * amounts formatted; none for a refused movement, none again for a replay.
 */
let t: TestApp;

async function settlor(btcMinor: bigint): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 2);
  await postEntry(t.database.db, {
    kind: 'DEPOSIT',
    reference: `test:${session.userId}`,
    idempotencyKey: `test:${session.userId}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
      userAccount(session.userId, 'USER_AVAILABLE', 'BTC'),
      btcMinor,
    ),
  });
  return session;
}

async function move(session: TestSession, trustId: number, kind: 'fund' | 'withdraw', amount: string, key: string) {
  await t.database.db.execute(
    sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
  );
  const emailCaptcha = await sensitiveCode(t.app, session, kind === 'fund' ? 'TRUST_FUND' : 'TRUST_WITHDRAW');
  return (
    await t.app.inject({
      method: 'POST',
      url: `/api/trust/${trustId}/${kind}`,
      headers: { ...session.headers, [HEADER_IDEMPOTENCY_KEY]: key },
      payload: { amount, emailCaptcha },
    })
  ).json();
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('trust money events', () => {
  it('funding and withdrawing write one message each; a replay and a refusal write none', async () => {
    const session = await settlor(50_000_000n);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/trust/create',
      headers: session.headers,
      payload: {
        name: 'Family reserve',
        termMonths: 120,
        isRevocable: true,
        inactivityMonths: 6,
        beneficiaries: [{ name: 'Mei Chan', email: 'mei@example.com', sharePct: '100' }],
      },
    });
    const trustId: number = created.json().content.id;
    expect((await move(session, trustId, 'fund', '0.1', 'fund-1')).statusCode).toBe(200);
    expect((await move(session, trustId, 'fund', '0.1', 'fund-1')).statusCode).toBe(200);
    const before = await messageCount(t.database.db, session.userId);
    expect((await move(session, trustId, 'fund', '1', 'fund-2')).statusCode).toBe(130);
    expect(await messageCount(t.database.db, session.userId)).toBe(before);

    const funded = await eventMessages(t.app, t.database.db, session, 'trust.funded');
    expect(funded.count).toBe(1);
    expect(funded['en-US'][0]).toMatchObject({
      category: 'TRUST',
      title: 'Entrusted to trust "Family reserve"',
      body: '0.10000000 BTC left your wallet for your trust "Family reserve": 0.09800000 BTC is now held in trust and the 2% fee was 0.00200000 BTC.',
      link: `/product/trust/${trustId}`,
    });
    expect(funded['zh-HK'][0]).toMatchObject({
      title: '已注資信託「Family reserve」',
      body: '0.10000000 BTC 已由你的錢包轉入信託「Family reserve」：信託持有 0.09800000 BTC，2% 手續費為 0.00200000 BTC。',
    });

    expect((await move(session, trustId, 'withdraw', '0.05', 'withdraw-1')).statusCode).toBe(200);
    const withdrawn = await eventMessages(t.app, t.database.db, session, 'trust.withdrawn');
    expect(withdrawn.count).toBe(1);
    expect(withdrawn['en-US'][0]!.body).toBe(
      '0.05000000 BTC was returned from your trust "Family reserve" to your wallet.',
    );
    expect(withdrawn['zh-HK'][0]!.body).toBe('0.05000000 BTC 已由信託「Family reserve」退回你的錢包。');
  });
});
