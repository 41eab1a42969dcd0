import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { signCustodyBody } from '../wallet/wallet.routes.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * The back office's deposits list through the API on a fresh database:
 * finance, compliance and support may read it (an operator of no listed role cannot exist, so the
 * refusal is checked without a token: 101); newest first, filtered by status and coin, paged, with
 * the owner's email and the amount as a decimal string.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
let t: TestApp;
let finance: string;
let compliance: string;
let support: string;

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
  finance = (await t.app.admin.createOperator('f1@example.com', 'finance')).token;
  compliance = (await t.app.admin.createOperator('c1@example.com', 'compliance')).token;
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
});
afterAll(async () => {
  await t.close();
});

function list(token: string | null, query = '') {
  return t.app.inject({
    method: 'GET',
    url: `/api/admin/deposits${query}`,
    headers: { ...mutationHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** Custody reports a USDT deposit to the user with `confirmations`; answers the chain tx hash. */
async function reportDeposit(userId: string, amount: string, confirmations: number): Promise<string> {
  const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
  const txHash = `tx-${randomUUID()}`;
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: t.app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash,
      outputIndex: 0,
      amount,
      confirmations,
      fromAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    },
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(response.json().statusCode).toBe(200);
  return txHash;
}

describe('deposits', () => {
  it('lists pending, credited and frozen deposits newest first with the owner, by status and coin, paged', async () => {
    const user = await registerAndLogin(t.app);
    const creditedTx = await reportDeposit(user.userId, '25.5', 20);
    const pendingTx = await reportDeposit(user.userId, '3', 1);
    const frozenTx = await reportDeposit(user.userId, '7.25', 1);
    // Frozen as the screening of its source would leave it (the wallet's table, read by SQL in tests).
    await t.database.db.execute(sql`UPDATE deposits SET status = 'FROZEN' WHERE tx_hash = ${frozenTx}`);

    const all = await list(finance);
    expect(all.json().statusCode).toBe(200);
    const page = all.json().content;
    expect(page.totalCount).toBe(3);
    expect(page.list.map((d: { txHash: string }) => d.txHash)).toEqual([frozenTx, pendingTx, creditedTx]);
    expect(page.list[2]).toMatchObject({
      userId: user.userId,
      userEmail: user.email,
      coinCode: 'USDT',
      network: 'TRC20',
      amount: '25.500000',
      fromAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      confirmations: 20,
      status: 'credited',
      type: 'OUTER',
    });
    expect(typeof page.list[2].creditedAt).toBe('string');
    expect(page.list[1]).toMatchObject({ status: 'pending', amount: '3.000000', creditedAt: null });

    const pending = (await list(compliance, '?status=pending')).json().content;
    expect(pending.list.map((d: { txHash: string }) => d.txHash)).toEqual([pendingTx]);
    const frozen = (await list(support, '?status=frozen&coin=USDT')).json().content;
    expect(frozen.list.map((d: { txHash: string }) => d.txHash)).toEqual([frozenTx]);
    expect((await list(support, '?coin=BTC')).json().content.totalCount).toBe(0);

    const second = (await list(finance, '?pageID=2&pageSize=2')).json().content;
    expect(second).toMatchObject({ pageID: 2, pageSize: 2, totalPage: 2, totalCount: 3 });
    expect(second.list.map((d: { txHash: string }) => d.txHash)).toEqual([creditedTx]);
  });

  it('refuses a bad filter naming it, and a caller without an operator (101)', async () => {
    const bad = await list(finance, '?status=lost');
    expect(bad.json().statusCode).toBe(120);
    expect(bad.json().content.fields[0].field).toBe('status');
    expect((await list(null)).json().statusCode).toBe(101);
  });
});
