import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../platform/db/rows.ts';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type TestApp, testDatabaseKind } from '../../../test/helpers.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { type AnvilNode, anvilClients, deployTestToken, mintTestToken, sendTestEther } from './chain.anvil.ts';
import { inProcessLeader, postgresLeader } from './chain.leader.ts';
import { createViemNode } from './chain.node.ts';
import { chainDeposits, chainReorgAlarms } from './chain.tables.ts';
import { type ChainTestBed, startChainTestApp } from './chain.test-kit.ts';
import { EvmWatcher, type WatcherFaultPoint } from './chain.watcher.ts';

/**
 * The EVM deposit watcher against a real node: Anvil started by this file on a free port (its own
 * child, stopped at the end), test USDT and USDC deployed from the committed bytecode. The watcher
 * is polled by hand (JOBS_ENABLED=false), 3 confirmations per coin.
 */
const CONFIRMATIONS = 3;
let anvil: AnvilNode;
let t: TestApp;
let usdt: Address;
let usdc: Address;
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

let bed: ChainTestBed | undefined;
beforeAll(async () => {
  bed = await startChainTestApp({
    confirmations: CONFIRMATIONS,
    env: { EVM_DEPOSIT_MINIMUMS: 'ETH=0.001,USDT=1,USDC=1' },
  });
  ({ anvil, t, usdt, usdc } = bed);
  await seedWallet(t.database.db);
  await t.app.chain.pollOnce(); // the cursor starts at the tip
}, 180_000);

afterAll(async () => {
  await bed?.close();
});

const clients = () => anvilClients(anvil.rpcUrl);
const mine = async (blocks: number) => clients().test.mine({ blocks });

async function newDepositor() {
  const session = await registerAndLogin(t.app);
  const { address } = await t.app.wallet.depositAddress(session.userId, 'ETH', 'Ethereum');
  return { session, address: address as Address };
}

async function available(userId: string, coin: 'ETH' | 'USDT' | 'USDC') {
  return accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', coin));
}

/** The wallet's deposits of `userId`, oldest first (read as the back office would, by SQL). */
async function depositsOf(userId: string) {
  const rows = await queryRows<{ id: string; status: string; amount_minor: string }>(
    t.database.db,
    sql`SELECT id, status, amount_minor FROM deposits WHERE user_id = ${userId} ORDER BY id`,
  );
  return rows.map((row) => ({ id: Number(row.id), status: row.status, amountMinor: BigInt(row.amount_minor) }));
}

async function records(session: { cookie: string }) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/wallet/record?action=deposit&pageID=1&pageSize=20',
    headers: { cookie: session.cookie },
  });
  return response.json().content.list as {
    coinCode: string;
    status: number;
    confirmations: number;
    confirmationsRequired: number;
  }[];
}

describe('EVM deposits', () => {
  it('shows ETH, USDT and USDC deposits as pending k of N at once and credits each once at N', async () => {
    const { session, address } = await newDepositor();
    const shown = async () =>
      Object.fromEntries(
        (await records(session)).map((record) => [
          record.coinCode,
          `${record.status}:${record.confirmations}/${record.confirmationsRequired}`,
        ]),
      );
    await sendTestEther(anvil.rpcUrl, address, '1.5');
    await t.app.chain.pollOnce();
    expect(await shown()).toEqual({ ETH: '0:1/3' });
    await mintTestToken(anvil.rpcUrl, usdt, address, 250_000_000n); // 250 USDT
    await t.app.chain.pollOnce();
    expect(await shown()).toEqual({ ETH: '0:2/3', USDT: '0:1/3' });
    await mintTestToken(anvil.rpcUrl, usdc, address, 40_500_000n); // 40.5 USDC
    await t.app.chain.pollOnce();
    expect(await shown()).toEqual({ ETH: '2:3/3', USDT: '0:2/3', USDC: '0:1/3' });
    expect(await available(session.userId, 'ETH')).toBe(150_000_000n);
    expect(await available(session.userId, 'USDT')).toBe(0n);
    await mine(1);
    await t.app.chain.pollOnce();
    expect(await shown()).toEqual({ ETH: '2:3/3', USDT: '2:3/3', USDC: '0:2/3' });
    await mine(1);
    await t.app.chain.pollOnce();
    expect(await shown()).toEqual({ ETH: '2:3/3', USDT: '2:3/3', USDC: '2:3/3' });
    expect(await available(session.userId, 'ETH')).toBe(150_000_000n);
    expect(await available(session.userId, 'USDT')).toBe(250_000_000n);
    expect(await available(session.userId, 'USDC')).toBe(40_500_000n);
    // More polls and blocks credit nothing again.
    await mine(2);
    await t.app.chain.pollOnce();
    await t.app.chain.pollOnce();
    expect(await available(session.userId, 'USDT')).toBe(250_000_000n);
    const rows = await depositsOf(session.userId);
    expect(rows).toHaveLength(3);
    const [credits] = await queryRows<{ n: string }>(
      t.database.db,
      sql`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'DEPOSIT' AND reference IN (${sql.join(
        rows.map((row) => sql`${`deposit:${row.id}`}`),
        sql`, `,
      )})`,
    );
    expect(Number(credits!.n)).toBe(3);
  });

  it('drops a pending deposit orphaned by a reorganisation below N and credits the one on the new branch', async () => {
    const { session, address } = await newDepositor();
    await sendTestEther(anvil.rpcUrl, address, '2');
    await t.app.chain.pollOnce();
    expect((await depositsOf(session.userId)).map((row) => row.status)).toEqual(['PENDING']);
    // Replace the last block by one holding another transfer to the same address (0.5 ETH).
    await clients().test.request({
      method: 'anvil_reorg' as never,
      params: [1, [[{ from: anvil.funder, to: address, value: '0x6f05b59d3b20000' }, 0]]] as never,
    });
    await t.app.chain.pollOnce();
    const after = await depositsOf(session.userId);
    expect(after).toHaveLength(1);
    expect(after[0]!.amountMinor).toBe(50_000_000n);
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    expect(await available(session.userId, 'ETH')).toBe(50_000_000n);
    const orphaned = await t.database.db.select().from(chainDeposits).where(eq(chainDeposits.userId, session.userId));
    expect(orphaned.map((row) => row.status).sort()).toEqual(['CREDITED', 'ORPHANED']);
  });

  it('raises the alarm and holds the amount when a credited deposit is orphaned by a deeper reorganisation', async () => {
    const { session, address } = await newDepositor();
    await mintTestToken(anvil.rpcUrl, usdt, address, 75_000_000n);
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    expect(await available(session.userId, 'USDT')).toBe(75_000_000n);
    await clients().test.request({ method: 'anvil_reorg' as never, params: [CONFIRMATIONS + 2, []] as never });
    await t.app.chain.pollOnce();
    const alarms = await t.database.db
      .select()
      .from(chainReorgAlarms)
      .where(eq(chainReorgAlarms.userId, session.userId));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      coinCode: 'USDT',
      amountMinor: 75_000_000n,
      heldMinor: 75_000_000n,
      status: 'open',
    });
    expect(await available(session.userId, 'USDT')).toBe(0n);
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_FROZEN', 'USDT'))).toBe(75_000_000n);
    // The wallet's deposit stays credited: never reversed silently.
    expect((await depositsOf(session.userId)).map((row) => row.status)).toEqual(['CREDITED']);
    expect((await t.app.chain.listReorgAlarms('open')).some((alarm) => alarm.userId === session.userId)).toBe(true);
  });

  it('holds deposits below the minimum and of unknown tokens for review, crediting nothing', async () => {
    const { session, address } = await newDepositor();
    const other = await deployTestToken(anvil.rpcUrl, 'OTHER', 18);
    await sendTestEther(anvil.rpcUrl, address, '0.0005');
    await mintTestToken(anvil.rpcUrl, other, address, 10n ** 18n);
    await mine(CONFIRMATIONS);
    await t.app.chain.pollOnce();
    const held = await t.database.db.select().from(chainDeposits).where(eq(chainDeposits.userId, session.userId));
    expect(held.map((row) => row.reason).sort()).toEqual(['below_minimum', 'unknown_token']);
    expect(held.every((row) => row.status === 'REVIEW')).toBe(true);
    expect(await depositsOf(session.userId)).toHaveLength(0);
    expect((await t.app.chain.listReviewItems()).length).toBeGreaterThanOrEqual(2);
  });

  it('resumes after being killed mid-way without crediting anything twice', async () => {
    const { session, address } = await newDepositor();
    await mintTestToken(anvil.rpcUrl, usdc, address, 12_000_000n);
    await sendTestEther(anvil.rpcUrl, address, '0.25');
    const watcherThatDies = (point: WatcherFaultPoint) =>
      new EvmWatcher({
        db: t.database.db,
        node: createViemNode(anvil.rpcUrl),
        wallet: t.app.wallet,
        coins: {
          confirmationsFor: async () => CONFIRMATIONS,
          minimumOf: () => '0.001',
          tokens: { USDT: usdt, USDC: usdc },
        },
        leader: inProcessLeader(),
        pollIntervalMs: 1000,
        blocksPerPoll: 100,
        now: () => t.app.clock.now(),
        log: silentLog,
        faultPoint: (at) => {
          if (at === point) throw new Error(`killed at ${at}`);
        },
      });
    // Killed while recording the transfers' blocks: nothing of them was committed.
    await expect(watcherThatDies('block-recorded').pollOnce()).rejects.toThrow(/killed/);
    expect(await depositsOf(session.userId)).toHaveLength(0);
    await t.app.chain.pollOnce();
    expect((await depositsOf(session.userId)).map((row) => row.status)).toEqual(['PENDING', 'PENDING']);
    // Killed while crediting them at N confirmations: the credits roll back with the kill.
    await mine(CONFIRMATIONS);
    await expect(watcherThatDies('confirmations-recorded').pollOnce()).rejects.toThrow(/killed/);
    expect(await available(session.userId, 'USDC')).toBe(0n);
    // The restarted watcher credits each once, and again nothing after.
    await t.app.chain.pollOnce();
    await t.app.chain.pollOnce();
    expect(await available(session.userId, 'USDC')).toBe(12_000_000n);
    expect(await available(session.userId, 'ETH')).toBe(25_000_000n);
    expect(await depositsOf(session.userId)).toHaveLength(2);
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'lets one process lead a chain at a time (session advisory lock)',
    async () => {
      const url = t.database.url!;
      const first = postgresLeader(url, async () => 31337, silentLog);
      const second = postgresLeader(url, async () => 31337, silentLog);
      try {
        expect(await first.acquire()).toBe(true);
        expect(await second.acquire()).toBe(false);
        await first.release();
        expect(await second.acquire()).toBe(true);
      } finally {
        await first.release();
        await second.release();
      }
    },
  );
});
