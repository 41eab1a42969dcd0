import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { signCustodyBody } from './wallet.routes.ts';
import { seedWallet } from './wallet.seed.ts';
import { withdrawals } from './wallet.tables.ts';

/**
 * Large withdrawals (docs/back-office.md "Four eyes"): a withdrawal whose USD value at request time is over
 * LARGE_WITHDRAWAL_USD (500 here) needs a second finance operator's approval (`approveWithdrawal`) before a different
 * operator processes it; smaller ones do not. The wallet service's operator transitions, on a fresh database (the
 * back-office route `admin/withdrawals/:id/approve` calls `approveWithdrawal`).
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET, LARGE_WITHDRAWAL_USD: '500' } });
  await seedWallet(t.database.db);
});
afterAll(async () => t?.close());

async function reportDeposit(userId: string, amount: string): Promise<void> {
  const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: t.app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount,
      confirmations: 20,
    },
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(response.json().statusCode).toBe(200);
}

/** A level-1 user holding `amount` USDT whose trade configuration asks no code. */
async function withdrawer(amount: string): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 1);
  await t.database.db.execute(sql`UPDATE users SET is_trade_email_on = false WHERE id = ${session.userId}`);
  await reportDeposit(session.userId, amount);
  return session;
}

/** Request an OUTER withdrawal of `amount` USDT on TRC20; its id. */
async function withdraw(session: TestSession, amount: string): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/wallet/withdraw',
    headers: { ...session.headers, 'api-version': '2.0' },
    payload: { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount },
  });
  expect(response.json().statusCode).toBe(200);
  return Number(response.json().content.id);
}

const rowOf = async (id: number) => (await t.database.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;

describe('large withdrawals need a second operator', () => {
  it('lets a small withdrawal be processed without approval, and refuses to approve it', async () => {
    const session = await withdrawer('200');
    const id = await withdraw(session, '100');
    const page = await t.app.wallet.listForOperators({ pageID: 1, pageSize: 50, status: 0 });
    const listed = page.list.find((row) => Number(row.id) === id);
    expect(listed).toMatchObject({ needsSecondApproval: false, approvedBy: null });
    expect(listed?.usdValue).toMatch(/^\d+\.\d{2}$/);

    await expect(t.app.wallet.approveWithdrawal('f1@example.com', id)).rejects.toMatchObject({
      code: 'WITHDRAW_STATE_CHANGED',
      content: { status: 0, needsSecondApproval: false },
    });
    const processed = await t.app.wallet.processWithdrawal('f1@example.com', id);
    expect(processed).toMatchObject({ status: 1, needsSecondApproval: false, approvedBy: null });
  });

  it('refuses to process a large withdrawal before its approval (155), or by its approver (153)', async () => {
    const session = await withdrawer('2000');
    const id = await withdraw(session, '1000');
    const usdValue = (await rowOf(id)).usdValue!;
    expect(Number(usdValue)).toBeGreaterThan(500);

    await expect(t.app.wallet.processWithdrawal('f2@example.com', id)).rejects.toMatchObject({
      code: 'SECOND_APPROVAL_REQUIRED',
    });
    expect((await rowOf(id)).status).toBe(0);

    const approved = await t.app.wallet.approveWithdrawal('f1@example.com', id);
    expect(approved).toMatchObject({ status: 0, usdValue, needsSecondApproval: true, approvedBy: 'f1@example.com' });
    expect((await rowOf(id)).approvedAt).toBeInstanceOf(Date);
    // Approved once: a second approval (by anyone) is refused.
    await expect(t.app.wallet.approveWithdrawal('f2@example.com', id)).rejects.toMatchObject({
      code: 'WITHDRAW_STATE_CHANGED',
      content: { approvedBy: 'f1@example.com' },
    });

    await expect(t.app.wallet.processWithdrawal('f1@example.com', id)).rejects.toMatchObject({
      code: 'FOUR_EYES_REQUIRED',
    });
    expect((await rowOf(id)).status).toBe(0);

    const processed = await t.app.wallet.processWithdrawal('f2@example.com', id);
    expect(processed).toMatchObject({ status: 1, approvedBy: 'f1@example.com', operatorEmail: 'f2@example.com' });
    const completed = await t.app.wallet.completeWithdrawal('f2@example.com', id, `0x${'ab'.repeat(32)}`);
    expect(completed.status).toBe(2);
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_FROZEN', 'USDT'))).toBe(0n);
  });

  it('approves only waiting withdrawals, and answers NOT_FOUND for an unknown one', async () => {
    const session = await withdrawer('2000');
    const id = await withdraw(session, '1000');
    await t.app.wallet.failWithdrawal('f1@example.com', id, 'address flagged');
    await expect(t.app.wallet.approveWithdrawal('f1@example.com', id)).rejects.toMatchObject({
      code: 'WITHDRAW_STATE_CHANGED',
      content: { status: 3 },
    });
    await expect(t.app.wallet.approveWithdrawal('f1@example.com', 987_654)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('never lets a racing process slip past a racing approval', async () => {
    for (let round = 0; round < 3; round += 1) {
      const session = await withdrawer('2000');
      const id = await withdraw(session, '1000');
      const [approval, processing] = await Promise.allSettled([
        t.app.wallet.approveWithdrawal('f1@example.com', id),
        t.app.wallet.processWithdrawal('f2@example.com', id),
      ]);
      expect(approval.status).toBe('fulfilled');
      const row = await rowOf(id);
      if (processing.status === 'fulfilled') expect(row).toMatchObject({ status: 1, approvedBy: 'f1@example.com' });
      else {
        expect(processing.reason).toMatchObject({ code: 'SECOND_APPROVAL_REQUIRED' });
        expect(row).toMatchObject({ status: 0, approvedBy: 'f1@example.com' });
      }
    }
  });
});
