import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { inProcessLeader } from './chain.leader.ts';
import type { EvmBlock, EvmNode, EvmTransfer } from './chain.types.ts';
import { EvmWatcher } from './chain.watcher.ts';

/**
 * A block's deposits are recorded, credited and announced set-based (docs/chain.md "Batched
 * credit"): against a node held in memory (no Anvil), each credit still gives its owner one
 * "Deposit credited" message in the owner's language, once, and one ledger credit.
 */
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { JOBS_ENABLED: 'false' } });
  await seedWallet(t.database.db);
}, 120_000);

afterAll(async () => {
  await t.close();
});

/** A node whose tip is `tip.value`; block n holds `transfers.get(n)` (none when absent). */
function memoryNode(tip: { value: number }, transfers: Map<number, EvmTransfer[]>): EvmNode {
  const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  return {
    chainId: async () => 31_337,
    latestBlockNumber: async () => tip.value,
    finalizedBlockNumber: async () => null,
    blockHash: async (n) => (n <= tip.value ? hashOf(n) : null),
    tokenDecimals: async () => 6,
    readBlock: async (n): Promise<EvmBlock | null> =>
      n > tip.value
        ? null
        : { number: n, hash: hashOf(n), parentHash: hashOf(n - 1), transfers: transfers.get(n) ?? [] },
  };
}

async function messagesOf(userId: string) {
  return queryRows<{ title: string; body: string }>(
    t.database.db,
    sql`SELECT title, body FROM notice_messages WHERE user_id = ${userId} AND category = 'DEPOSIT' ORDER BY created_at, id`,
  );
}

describe('a block of deposits at once', () => {
  it('credits each deposit once and writes one message per deposit in its reader’s language', async () => {
    const english = await registerAndLogin(t.app);
    const chinese = await registerAndLogin(t.app);
    await t.database.db.execute(sql`UPDATE users SET locale = 'zh-HK' WHERE id = ${chinese.userId}`);
    const addressOf = async (userId: string) =>
      (await t.app.wallet.depositAddress(userId, 'USDT', 'ERC20')).address.toLowerCase();
    const [toEnglish, toChinese] = [await addressOf(english.userId), await addressOf(chinese.userId)];
    const transfer = (to: string, value: bigint, logIndex: number): EvmTransfer => ({
      txHash: hex(32),
      logIndex,
      token: USDT,
      from: hex(20),
      to,
      value,
    });
    const tip = { value: 100 };
    const node = memoryNode(
      tip,
      new Map([
        [
          101,
          [transfer(toEnglish, 12_500_000n, 0), transfer(toChinese, 3_000_000n, 1), transfer(toEnglish, 1_000_000n, 2)],
        ],
      ]),
    );
    const watcher = new EvmWatcher({
      db: t.database.db,
      node,
      wallet: t.app.wallet,
      coins: { confirmationsFor: async () => 2, minimumOf: () => '0.5', tokens: { USDT } },
      leader: inProcessLeader(),
      pollIntervalMs: 1000,
      blocksPerPoll: 10,
      startBlock: 101,
      now: () => new Date(),
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    tip.value = 101;
    expect(await watcher.pollOnce()).toMatchObject({ depositsFound: 3, depositsCredited: 0 });
    expect(await messagesOf(english.userId)).toEqual([]);
    tip.value = 102; // block 101 reaches 2 confirmations: credited by the confirmation pass
    expect(await watcher.pollOnce()).toMatchObject({ depositsCredited: 3 });
    tip.value = 104;
    expect(await watcher.pollOnce()).toMatchObject({ depositsCredited: 0 });

    const englishMessages = await messagesOf(english.userId);
    expect(englishMessages.map((message) => message.title)).toEqual(['Deposit credited', 'Deposit credited']);
    expect(englishMessages.map((message) => message.body).sort()).toEqual([
      '1.00 USDT has been credited to your wallet.',
      '12.50 USDT has been credited to your wallet.',
    ]);
    expect(await messagesOf(chinese.userId)).toEqual([{ title: '充值已到帳', body: '3.00 USDT 已存入你的錢包。' }]);
    const available = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'USDT'));
    expect(await available(english.userId)).toBe(13_500_000n);
    expect(await available(chinese.userId)).toBe(3_000_000n);
    const [entries] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM deposits WHERE user_id IN (${english.userId}, ${chinese.userId}) AND status = 'CREDITED' AND entry_id IS NOT NULL`,
    );
    expect(entries!.n).toBe(3);
  });
});
