import { eq, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationHeaders, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { type AnvilNode, anvilClients, deployTestToken, mintTestToken, sendTestEther } from './chain.anvil.ts';
import { chainDeposits } from './chain.tables.ts';
import { type ChainTestBed, startChainTestApp } from './chain.test-kit.ts';

/**
 * The chain back office (docs/chain.md "Back office") through the API on a fresh database, against
 * Anvil started by this file: the watcher's state (head, cursor, lag, queues); review items released
 * (credited once through the wallet, a large one only after a second finance operator's approval)
 * or rejected; unknown tokens never credited; reorganisation alarms acknowledged and resolved once,
 * the hold released to the user or recovered to the hot wallet; roles, field errors and the audit log.
 */
const CONFIRMATIONS = 2;
let anvil: AnvilNode;
let t: TestApp;
let usdt: Address;
let f1: string;
let f2: string;
let support: string;

let bed: ChainTestBed | undefined;
beforeAll(async () => {
  bed = await startChainTestApp({
    confirmations: CONFIRMATIONS,
    // USDT below 50,000 is held for review: small and large (over LARGE_WITHDRAWAL_USD, 10,000) items.
    env: { EVM_DEPOSIT_MINIMUMS: 'ETH=0.001,USDT=50000,USDC=1' },
  });
  ({ anvil, t, usdt } = bed);
  await seedWallet(t.database.db);
  f1 = (await t.app.admin.createOperator('chain-f1@example.com', 'finance')).token;
  f2 = (await t.app.admin.createOperator('chain-f2@example.com', 'finance')).token;
  support = (await t.app.admin.createOperator('chain-s1@example.com', 'support')).token;
  await t.app.chain.pollOnce(); // the cursor starts at the tip
}, 180_000);

afterAll(async () => {
  await bed?.close();
});

const mine = async (blocks: number) => anvilClients(anvil.rpcUrl).test.mine({ blocks });

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object, locale = 'en-US') {
  return t.app.inject({
    method,
    url: `/api/admin/chain${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}`, 'user-lang': locale },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function newDepositor() {
  const session = await registerAndLogin(t.app);
  const { address } = await t.app.wallet.depositAddress(session.userId, 'ETH', 'Ethereum');
  return { userId: session.userId, address: address as Address };
}

const balance = (userId: string, kind: 'USER_AVAILABLE' | 'USER_FROZEN', coin: 'USDT' | 'ETH' = 'USDT') =>
  accountBalance(t.database.db, userAccount(userId, kind, coin));

async function reviewItemOf(userId: string) {
  const [row] = await t.database.db.select().from(chainDeposits).where(eq(chainDeposits.userId, userId));
  return row!;
}

async function auditActions(targetId: number) {
  const rows = await queryRows<{ action: string; outcome_code: number }>(
    t.database.db,
    sql`SELECT action, outcome_code FROM audit_log WHERE target_id = ${String(targetId)} ORDER BY id`,
  );
  return rows.map((row) => `${row.action}:${row.outcome_code}`);
}

describe('chain back office', () => {
  it('shows the head, the cursor, the lag and a pending deposit with its confirmations', async () => {
    const { address } = await newDepositor();
    await sendTestEther(anvil.rpcUrl, address, '0.5');
    await t.app.chain.pollOnce();
    await mine(3); // not read yet: the watcher is 3 blocks behind
    const state = (await call(f1, 'GET', '/state')).json();
    expect(state.statusCode).toBe(200);
    const content = state.content;
    expect(content).toMatchObject({ isWatcherEnabled: true, chainId: 31337, lagBlocks: 3, nodeError: null });
    expect(content.headBlock - content.cursorBlock).toBe(3);
    expect(content.lagSeconds).toBeGreaterThanOrEqual(0);
    const pending = content.pending.find((row: { toAddress: string }) => row.toAddress === address.toLowerCase());
    expect(pending).toMatchObject({
      coinCode: 'ETH',
      amount: '0.50000000',
      confirmations: 1,
      confirmationsRequired: 2,
    });
    await t.app.chain.pollOnce();
    expect((await call(f1, 'GET', '/state')).json().content.lagBlocks).toBe(0);
    expect((await call(support, 'GET', '/state')).json().statusCode).toBe(102);
  });

  it('releases a small review item once through the wallet, with a note, in the audit log', async () => {
    const { userId, address } = await newDepositor();
    await mintTestToken(anvil.rpcUrl, usdt, address, 25_000_000n); // 25 USDT < 50,000
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    const item = await reviewItemOf(userId);
    expect(item).toMatchObject({ status: 'REVIEW', reason: 'below_minimum' });
    const listed = (await call(f1, 'GET', '/state')).json().content.review;
    expect(listed.find((row: { id: number }) => row.id === item.id)).toMatchObject({
      amount: '25.000000',
      needsSecondApproval: false,
    });
    // A note is required, named in both languages, and nothing changes.
    const missing = await call(f1, 'POST', `/review/${item.id}/release`, { note: ' ' });
    const noteError = { statusCode: 120, content: { fields: [expect.objectContaining({ field: 'note' })] } };
    expect(missing.json()).toMatchObject(noteError);
    const missingZh = await call(f1, 'POST', `/review/${item.id}/release`, { note: '' }, 'zh-HK');
    expect(missingZh.json()).toMatchObject(noteError);
    expect(missingZh.json().content.fields[0].message).not.toBe(missing.json().content.fields[0].message);
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(0n);
    const released = await call(f1, 'POST', `/review/${item.id}/release`, {
      note: 'Below minimum, credited on request',
    });
    expect(released.json()).toMatchObject({
      statusCode: 200,
      content: { status: 'CREDITED', reviewedBy: 'chain-f1@example.com' },
    });
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(25_000_000n);
    const again = await call(f2, 'POST', `/review/${item.id}/release`, { note: 'again' });
    expect(again.json().statusCode).toBe(330);
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(25_000_000n);
    // Later polls credit nothing more; one DEPOSIT entry.
    await mine(1);
    await t.app.chain.pollOnce();
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(25_000_000n);
    expect(await auditActions(item.id)).toEqual([
      'releaseReview:120',
      'releaseReview:120',
      'releaseReview:200',
      'releaseReview:330',
    ]);
  });

  it('needs a second finance operator to release a large review item', async () => {
    const { userId, address } = await newDepositor();
    await mintTestToken(anvil.rpcUrl, usdt, address, 15_000_000_000n); // 15,000 USDT: large
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    const item = await reviewItemOf(userId);
    const early = await call(f1, 'POST', `/review/${item.id}/release`, { note: 'Confirmed with the client' });
    expect(early.json().statusCode).toBe(332);
    const approved = await call(f1, 'POST', `/review/${item.id}/approve`);
    expect(approved.json()).toMatchObject({
      statusCode: 200,
      content: { status: 'REVIEW', needsSecondApproval: true, approvedBy: 'chain-f1@example.com' },
    });
    const self = await call(f1, 'POST', `/review/${item.id}/release`, { note: 'Confirmed with the client' });
    expect(self.json().statusCode).toBe(153);
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(0n);
    const second = await call(f2, 'POST', `/review/${item.id}/release`, { note: 'Confirmed with the client' });
    expect(second.json().content).toMatchObject({ status: 'CREDITED', reviewedBy: 'chain-f2@example.com' });
    expect(await balance(userId, 'USER_AVAILABLE')).toBe(15_000_000_000n);
  });

  it('rejects a review item without crediting it, and never credits an unknown token', async () => {
    const { userId, address } = await newDepositor();
    const other = await deployTestToken(anvil.rpcUrl, 'OTHER', 18);
    await mintTestToken(anvil.rpcUrl, other, address, 10n ** 18n);
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    const item = await reviewItemOf(userId);
    expect(item.reason).toBe('unknown_token');
    expect((await call(f1, 'POST', `/review/${item.id}/release`, { note: 'try' })).json().statusCode).toBe(331);
    const rejected = await call(f1, 'POST', `/review/${item.id}/reject`, { note: 'Unsupported token, returned' });
    expect(rejected.json().content).toMatchObject({ status: 'REJECTED', reviewNote: 'Unsupported token, returned' });
    expect((await call(f2, 'POST', `/review/${item.id}/reject`, { note: 'again' })).json().statusCode).toBe(330);
    expect((await call(f1, 'POST', '/review/999999999/reject', { note: 'x' })).json().statusCode).toBe(104);
    expect((await call(support, 'POST', `/review/${item.id}/reject`, { note: 'x' })).json().statusCode).toBe(102);
  });

  it('acknowledges a reorganisation alarm, then resolves it once, releasing or recovering the hold', async () => {
    const users = [await newDepositor(), await newDepositor()];
    for (const { address } of users) await sendTestEther(anvil.rpcUrl, address, '1');
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    for (const { userId } of users) expect(await balance(userId, 'USER_AVAILABLE', 'ETH')).toBe(100_000_000n);
    await anvilClients(anvil.rpcUrl).test.request({
      method: 'anvil_reorg' as never,
      params: [CONFIRMATIONS + 3, []] as never,
    });
    await t.app.chain.pollOnce();
    const alarms = (await call(f1, 'GET', '/state')).json().content.alarms as { id: number; userId: string }[];
    const [release, recover] = users.map(({ userId }) => alarms.find((alarm) => alarm.userId === userId)!);
    expect(release).toMatchObject({ status: 'open', coinCode: 'ETH', amount: '1.00000000', held: '1.00000000' });
    const acknowledged = await call(f1, 'POST', `/alarms/${release!.id}/acknowledge`, {});
    expect(acknowledged.json().content).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: 'chain-f1@example.com',
    });
    expect((await call(f1, 'POST', `/alarms/${release!.id}/acknowledge`, {})).json().statusCode).toBe(330);
    const badResolution = await call(f2, 'POST', `/alarms/${release!.id}/resolve`, { resolution: 'KEEP', note: 'x' });
    expect(badResolution.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'resolution' })] },
    });
    const hotBefore = await accountBalance(t.database.db, platformAccount('PLATFORM_HOT_WALLET', 'ETH'));
    const resolved = await call(f2, 'POST', `/alarms/${release!.id}/resolve`, {
      resolution: 'RELEASE_HOLD',
      note: 'Transfer re-mined on the new branch',
    });
    expect(resolved.json().content).toMatchObject({ status: 'resolved', resolution: 'RELEASE_HOLD' });
    expect(await balance(users[0]!.userId, 'USER_AVAILABLE', 'ETH')).toBe(100_000_000n);
    expect(await balance(users[0]!.userId, 'USER_FROZEN', 'ETH')).toBe(0n);
    const twice = await call(f2, 'POST', `/alarms/${release!.id}/resolve`, { resolution: 'RECOVER', note: 'again' });
    expect(twice.json().statusCode).toBe(330);
    await call(f1, 'POST', `/alarms/${recover!.id}/resolve`, { resolution: 'RECOVER', note: 'Transfer gone' });
    expect(await balance(users[1]!.userId, 'USER_FROZEN', 'ETH')).toBe(0n);
    expect(await balance(users[1]!.userId, 'USER_AVAILABLE', 'ETH')).toBe(0n);
    expect(await accountBalance(t.database.db, platformAccount('PLATFORM_HOT_WALLET', 'ETH'))).toBe(
      hotBefore + 100_000_000n,
    );
    const open = (await call(f1, 'GET', '/state')).json().content.alarms as { id: number }[];
    expect(open.map((alarm) => alarm.id)).not.toContain(release!.id);
    expect(await auditActions(release!.id)).toContain('resolveAlarm:200');
  });
});
