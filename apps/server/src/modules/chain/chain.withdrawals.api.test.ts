import { randomUUID } from 'node:crypto';
import { toDecimalString } from '@meridian/contracts/money';
import { withdrawBodySchema } from '@meridian/contracts/wallet';
import { eq, sql } from 'drizzle-orm';
import { type Address, erc20Abi, type Hex, parseEther } from 'viem';
import { privateKeyToAddress, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { manualClock } from '../../platform/clock/clock.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { type AnvilNode, anvilClients, mintTestToken, sendTestEther } from './chain.anvil.ts';
import { gasEntryKey } from './chain.gas.ts';
import { openHotWalletSigner } from './chain.nonces.ts';
import { chainHotWallets, chainWithdrawals, chainWithdrawalTxs } from './chain.tables.ts';
import { type ChainTestBed, startChainTestApp } from './chain.test-kit.ts';
import { createWithdrawalSender, type WithdrawalSender } from './chain.withdrawals.ts';

/**
 * Withdrawals sent from the hot wallet against a real node: Anvil started by this file (its own
 * child, stopped at the end), test USDT and USDC deployed from the committed bytecode, the sender
 * run by hand (JOBS_ENABLED=false) on a clock the tests move. 2 confirmations per coin.
 */
const CONFIRMATIONS = 2;
const REPLACE_AFTER_MS = 60_000;
const VAULT_KEY = 'chain-vault-key-of-the-withdrawal-tests-0123456789';
const OPERATOR = 'finance@meridian.test';
const clock = manualClock('2026-11-20T12:00:00Z');
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };
let anvil: AnvilNode;
let t: TestApp;
let usdt: Address;
let usdc: Address;
let hotWallet: Address;

const clients = () => anvilClients(anvil.rpcUrl);
const sender = (): WithdrawalSender => t.app.chain.withdrawals!.sender;
const mine = async (blocks: number) => clients().test.mine({ blocks });

let bed: ChainTestBed | undefined;
beforeAll(async () => {
  bed = await startChainTestApp({
    confirmations: CONFIRMATIONS,
    clock,
    env: {
      EVM_HOT_WALLET_MIN: 'ETH=10',
      EVM_HOT_WALLET_MAX: 'ETH=5000',
      CHAIN_REPLACE_AFTER_MS: String(REPLACE_AFTER_MS),
      CHAIN_VAULT_KEY: VAULT_KEY,
      EVM_EXPLORER_TX_URL: 'https://explorer.test/tx/{hash}',
    },
  });
  ({ anvil, t, usdt, usdc } = bed);
  await seedWallet(t.database.db);
  hotWallet = (await sender().hotWallet()).address as Address;
  await sendTestEther(anvil.rpcUrl, hotWallet, '1000');
  await mintTestToken(anvil.rpcUrl, usdt, hotWallet, 1_000_000_000_000n);
  await mintTestToken(anvil.rpcUrl, usdc, hotWallet, 1_000_000_000_000n);
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

/** A level-3 user credited `amount` of `coin` (as a final deposit on its EVM network). */
async function withdrawer(coin: 'ETH' | 'USDT' | 'USDC', amountMinor: bigint): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 3);
  const network = coin === 'ETH' ? 'Ethereum' : 'ERC20';
  const { address } = await t.app.wallet.depositAddress(session.userId, coin, network);
  await t.database.db.transaction((tx) =>
    t.app.wallet.recordDepositInTx(tx, {
      network,
      coin,
      address,
      txHash: `0x${randomUUID().replaceAll('-', '')}`,
      outputIndex: 0,
      amountMinor,
      confirmations: 100,
      isFinal: true,
    }),
  );
  return session;
}

/** Request and approve (status 1, processing) a withdrawal of `amount` to a fresh address; its id and the address. */
async function approvedWithdrawal(session: TestSession, coin: 'ETH' | 'USDT' | 'USDC', amount: string) {
  const to = privateKeyToAddress(generatePrivateKey());
  const body = withdrawBodySchema.parse({ coin, network: coin === 'ETH' ? 'Ethereum' : 'ERC20', address: to, amount });
  const record = await t.app.wallet.requestWithdrawal(session.userId, body, undefined);
  await t.app.wallet.processWithdrawal(OPERATOR, Number(record.id));
  return { id: Number(record.id), to };
}

/** The wallet's withdrawal `id` (read as the back office would, by SQL). */
async function walletRow(id: number) {
  const [row] = await queryRows<{ status: number; tx_hash: string | null; failure_reason: string | null }>(
    t.database.db,
    sql`SELECT status, tx_hash, failure_reason FROM withdrawals WHERE id = ${id}`,
  );
  return { status: Number(row!.status), txHash: row!.tx_hash, failureReason: row!.failure_reason };
}
const chainRow = async (id: number) =>
  (await t.database.db.select().from(chainWithdrawals).where(eq(chainWithdrawals.withdrawalId, id)))[0];
/** The CHAIN_GAS entries, with their key and the postings' account types and amounts. */
async function gasEntries() {
  return queryRows<{ idempotency_key: string; type: string; amount_minor: string }>(
    t.database.db,
    sql`SELECT e.idempotency_key, a.type, p.amount_minor::text AS amount_minor
          FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.account_id
         WHERE e.kind = 'CHAIN_GAS' ORDER BY e.id, a.type`,
  );
}
/** What the mined transaction `hash` paid in gas: wei, and ETH minor units rounded down (10^10 wei each). */
async function gasPaid(hash: string) {
  const receipt = await clients().public.getTransactionReceipt({ hash: hash as Hex });
  const wei = receipt.gasUsed * receipt.effectiveGasPrice;
  return { wei, minor: wei / 10n ** 10n };
}
const gasAccount = () => accountBalance(t.database.db, platformAccount('PLATFORM_CHAIN_GAS', 'ETH'));
const tokenBalance = async (token: Address, owner: Address) =>
  clients().public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

describe('EVM withdrawals from the hot wallet', () => {
  it('sends an ETH withdrawal, settles it at N confirmations and shows its hash with the explorer link', async () => {
    const session = await withdrawer('ETH', 200_000_000n); // 2 ETH
    const { id, to } = await approvedWithdrawal(session, 'ETH', '0.5');
    expect((await sender().runOnce()).sent).toBe(1);
    expect((await chainRow(id))?.status).toBe('MINED'); // Anvil mines it at once: 1 of 2
    expect((await walletRow(id)).status).toBe(1);
    await mine(1);
    expect((await sender().runOnce()).confirmed).toBe(1);
    const row = (await chainRow(id))!;
    expect(row.status).toBe('CONFIRMED');
    expect(await clients().public.getBalance({ address: to })).toBe(parseEther('0.5'));
    const settled = await walletRow(id);
    expect(settled.status).toBe(2);
    expect(settled.txHash).toBe(row.txHash);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/wallet/withdraw/${id}/chain`,
      headers: { cookie: session.cookie },
    });
    expect(response.json().content).toEqual({
      status: 'CONFIRMED',
      txHash: row.txHash,
      explorerUrl: `https://explorer.test/tx/${row.txHash}`,
    });
    // Amount + fee left the user: 2 − 0.5 − 0.002.
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_AVAILABLE', 'ETH'))).toBe(
      149_800_000n,
    );
  });

  it('books the gas of a mined withdrawal once, in ETH minor units rounded down, also after a restart', async () => {
    const session = await withdrawer('ETH', 100_000_000n);
    const { id } = await approvedWithdrawal(session, 'ETH', '0.1');
    const gasBefore = await gasAccount();
    await sender().runOnce();
    expect(await gasAccount()).toBe(gasBefore); // mined, 1 of 2: nothing booked yet
    await mine(1);
    expect((await sender().runOnce()).confirmed).toBe(1);
    const row = (await chainRow(id))!;
    const paid = await gasPaid(row.txHash!);
    expect(paid.minor).toBeGreaterThan(0n);
    const chainId = await clients().public.getChainId();
    const mine1 = (await gasEntries()).filter((entry) => entry.idempotency_key === gasEntryKey(chainId, row.txHash!));
    expect(mine1).toEqual([
      {
        idempotency_key: gasEntryKey(chainId, row.txHash!),
        type: 'PLATFORM_CHAIN_GAS',
        amount_minor: String(-paid.minor),
      },
      {
        idempotency_key: gasEntryKey(chainId, row.txHash!),
        type: 'PLATFORM_HOT_WALLET',
        amount_minor: String(paid.minor),
      },
    ]);
    expect(await gasAccount()).toBe(gasBefore - paid.minor);
    // A pass that died after the settlement committed, before the row was marked: the next pass
    // finds the withdrawal settled and books nothing more (the entry's key is the hash).
    const entriesBefore = (await gasEntries()).length;
    await t.database.db.update(chainWithdrawals).set({ status: 'MINED' }).where(eq(chainWithdrawals.id, row.id));
    await sender().runOnce();
    await sender().runOnce();
    expect((await chainRow(id))?.status).toBe('CONFIRMED');
    expect((await gasEntries()).length).toBe(entriesBefore);
    expect(await gasAccount()).toBe(gasBefore - paid.minor);
  });

  it('sends a USDT withdrawal with transfer() and settles it once', async () => {
    const session = await withdrawer('USDT', 1_000_000_000n); // 1000 USDT
    const { id, to } = await approvedWithdrawal(session, 'USDT', '250');
    await sender().runOnce();
    await mine(1);
    await sender().runOnce();
    await sender().runOnce();
    expect(await tokenBalance(usdt, to)).toBe(250_000_000n);
    expect((await chainRow(id))?.status).toBe('CONFIRMED');
    expect((await walletRow(id)).status).toBe(2);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/wallet/withdraw/${id}/chain`,
      headers: { cookie: (await registerAndLogin(t.app)).cookie },
    });
    expect(other.json().content).toEqual({ status: null, txHash: null, explorerUrl: null });
  });

  it('gives 100 racing withdrawals the nonces after the last one, each once, without a gap', async () => {
    const session = await withdrawer('ETH', 300_000_000n); // 3 ETH
    const ids: number[] = [];
    for (let i = 0; i < 100; i += 1) ids.push((await approvedWithdrawal(session, 'ETH', '0.01')).id);
    const [before] = await t.database.db.select().from(chainHotWallets);
    // Three senders at once, as three processes would be (the lead moved between them).
    const chainId = await clients().public.getChainId();
    const { signer } = await openHotWalletSigner(t.database.db, chainId, VAULT_KEY);
    const others = [0, 1].map(() =>
      createWithdrawalSender({
        db: t.database.db,
        client: clients().public,
        signer,
        chainId,
        now: () => clock.now(),
        wallet: t.app.wallet,
        confirmationsFor: async () => CONFIRMATIONS,
        replaceAfterMs: REPLACE_AFTER_MS,
        maxFeeWei: 200_000_000_000n,
        log: silentLog,
        tokens: { USDT: usdt, USDC: usdc },
        hotWalletMin: {},
        hotWalletMax: {},
        leader: { acquire: async () => true, isHeld: () => true, release: async () => {} },
        pollIntervalMs: 1000,
      }),
    );
    const reports = await Promise.all([sender().sendQueued(), ...others.map((other) => other.sendQueued())]);
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(100);
    const rows = await t.database.db.select().from(chainWithdrawals);
    const nonces = rows.map((row) => row.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, index) => index));
    const [after] = await t.database.db.select().from(chainHotWallets);
    expect(after!.nextNonce).toBe(before!.nextNonce + 100);
    expect(after!.nextNonce).toBe(rows.length);
    await mine(1);
    await sender().runOnce();
    const mined = await t.database.db.select().from(chainWithdrawals);
    expect(mined.filter((row) => ids.includes(row.withdrawalId)).every((row) => row.status === 'CONFIRMED')).toBe(true);
    expect(await clients().public.getTransactionCount({ address: hotWallet })).toBe(after!.nextNonce);
  }, 120_000);

  it('replaces a transaction not mined in time with a higher fee, mined once', async () => {
    const session = await withdrawer('USDC', 500_000_000n);
    await clients().test.setAutomine(false);
    try {
      const { id, to } = await approvedWithdrawal(session, 'USDC', '100');
      await sender().runOnce();
      const first = (await chainRow(id))!;
      expect(first.status).toBe('BROADCAST');
      clock.advance(REPLACE_AFTER_MS - 1000);
      expect((await sender().runOnce()).replaced).toBe(0);
      clock.advance(2000);
      expect((await sender().runOnce()).replaced).toBe(1);
      const second = (await chainRow(id))!;
      expect(second.attempts).toBe(2);
      expect(second.nonce).toBe(first.nonce);
      expect(second.txHash).not.toBe(first.txHash);
      expect(second.maxFeePerGasWei * 100n).toBeGreaterThanOrEqual(first.maxFeePerGasWei * 110n);
      expect(second.maxPriorityFeePerGasWei * 100n).toBeGreaterThanOrEqual(first.maxPriorityFeePerGasWei * 110n);
      await mine(CONFIRMATIONS);
      await sender().runOnce();
      const done = (await chainRow(id))!;
      expect(done.status).toBe('CONFIRMED');
      expect(done.txHash).toBe(second.txHash);
      expect(await tokenBalance(usdc, to)).toBe(100_000_000n);
      const sent = await t.database.db
        .select()
        .from(chainWithdrawalTxs)
        .where(eq(chainWithdrawalTxs.chainWithdrawalId, done.id));
      const receipts = await Promise.all(
        sent.map((row) =>
          clients()
            .public.getTransactionReceipt({ hash: row.txHash as Hex })
            .catch(() => null),
        ),
      );
      expect(receipts.filter(Boolean)).toHaveLength(1);
    } finally {
      await clients().test.setAutomine(true);
    }
  });

  it('fills the nonce of a dropped transaction holding later ones back; its withdrawal fails, the filler gas is booked', async () => {
    const session = await withdrawer('ETH', 200_000_000n); // 2 ETH
    const chainId = await clients().public.getChainId();
    let stuck: { id: number };
    let later: { id: number };
    let first: Awaited<ReturnType<typeof chainRow>>;
    await clients().test.setAutomine(false);
    try {
      stuck = await approvedWithdrawal(session, 'ETH', '0.5');
      later = await approvedWithdrawal(session, 'ETH', '0.01');
      expect((await sender().runOnce()).sent).toBe(2);
      first = (await chainRow(stuck.id))!;
      expect((await chainRow(later.id))!.nonce).toBe(first.nonce + 1);
      // The node drops the first and now refuses it (the hot wallet cannot pay 0.5 ETH any more).
      await clients().test.dropTransaction({ hash: first.txHash as Hex });
      await clients().test.setBalance({ address: hotWallet, value: parseEther('0.1') });
      clock.advance(REPLACE_AFTER_MS * 2 - 1000);
      expect((await sender().runOnce()).filled).toBe(0); // not yet twice CHAIN_REPLACE_AFTER_MS
      clock.advance(2000);
      expect((await sender().runOnce()).filled).toBe(1);
      const filling = (await chainRow(stuck.id))!;
      expect(filling.nonce).toBe(first.nonce);
      expect(filling.attempts).toBe(first.attempts + 2); // a replacement the node refused, then the filler
      await clients().test.setBalance({ address: hotWallet, value: parseEther('1000') });
      await mine(CONFIRMATIONS);
      await sender().runOnce();
    } finally {
      await clients().test.setBalance({ address: hotWallet, value: parseEther('1000') });
      await clients().test.setAutomine(true);
    }
    const filled = (await chainRow(stuck.id))!;
    expect(filled.status).toBe('REVERTED');
    expect(filled.failureReason).toMatch(/^nonce filled on chain: 0x/);
    const onChain = await clients().public.getTransaction({ hash: filled.txHash as Hex });
    expect([onChain.to?.toLowerCase(), onChain.value, onChain.nonce]).toEqual([
      hotWallet.toLowerCase(),
      0n,
      first!.nonce,
    ]);
    expect((await walletRow(stuck.id)).status).toBe(3);
    expect((await chainRow(later.id))?.status).toBe('CONFIRMED');
    expect((await walletRow(later.id)).status).toBe(2);
    // The filled withdrawal's 0.5 + 0.002 came back: 2 − 0.01 − 0.002 left.
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_AVAILABLE', 'ETH'))).toBe(
      198_800_000n,
    );
    const paid = await gasPaid(filled.txHash!);
    const entry = (await gasEntries()).filter((row) => row.idempotency_key === gasEntryKey(chainId, filled.txHash!));
    expect(entry.map((row) => row.amount_minor)).toEqual([String(-paid.minor), String(paid.minor)]);
  });

  it('fails a reverted token transfer and returns the funds through the ledger', async () => {
    const session = await withdrawer('USDC', 500_000_000n);
    const original = await clients().public.getCode({ address: usdc });
    await clients().test.setAutomine(false);
    let id: number;
    try {
      ({ id } = await approvedWithdrawal(session, 'USDC', '100'));
      await sender().runOnce();
      // The token's code now reverts every call (PUSH1 0 PUSH1 0 REVERT) while it is mined.
      await clients().test.setCode({ address: usdc, bytecode: '0x60006000fd' });
      await mine(1);
      await clients().test.setCode({ address: usdc, bytecode: original! });
    } finally {
      await clients().test.setAutomine(true);
    }
    await sender().runOnce();
    expect((await chainRow(id))?.status).toBe('MINED');
    await mine(1);
    expect((await sender().runOnce()).reverted).toBe(1);
    expect((await chainRow(id))?.status).toBe('REVERTED');
    const failed = await walletRow(id);
    expect(failed.status).toBe(3);
    expect(failed.failureReason).toMatch(/^reverted on chain: 0x/);
    // The reverted transaction still paid its gas: booked with the failure.
    const reverted = (await chainRow(id))!;
    const paid = await gasPaid(reverted.txHash!);
    const chainId = await clients().public.getChainId();
    const entry = (await gasEntries()).filter((row) => row.idempotency_key === gasEntryKey(chainId, reverted.txHash!));
    expect(entry.map((row) => [row.type, row.amount_minor])).toEqual([
      ['PLATFORM_CHAIN_GAS', String(-paid.minor)],
      ['PLATFORM_HOT_WALLET', String(paid.minor)],
    ]);
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_AVAILABLE', 'USDC'))).toBe(
      500_000_000n,
    );
    expect(await accountBalance(t.database.db, userAccount(session.userId, 'USER_FROZEN', 'USDC'))).toBe(0n);
  });

  it('queues withdrawals while the hot wallet is low and tells the back office, then sends them', async () => {
    const session = await withdrawer('ETH', 200_000_000n);
    await clients().test.setBalance({ address: hotWallet, value: parseEther('5') });
    const { id } = await approvedWithdrawal(session, 'ETH', '0.1');
    expect((await sender().runOnce()).queued).toBe(1);
    expect(await chainRow(id)).toBeUndefined();
    expect((await walletRow(id)).status).toBe(1);
    const low = await t.app.chain.withdrawals!.reads.hotWallet();
    expect(low.alerts.filter((alert) => alert.status === 'open')).toMatchObject([
      { coinCode: 'ETH', kind: 'low', balance: '5.00000000', limit: '10.00000000' },
    ]);
    await clients().test.setBalance({ address: hotWallet, value: parseEther('6000') });
    expect((await sender().runOnce()).sent).toBe(1);
    const alerts = (await t.app.chain.withdrawals!.reads.hotWallet()).alerts;
    expect(alerts.filter((alert) => alert.status === 'open')).toMatchObject([{ coinCode: 'ETH', kind: 'excess' }]);
    expect(alerts.find((alert) => alert.kind === 'low')?.status).toBe('resolved');
    await clients().test.setBalance({ address: hotWallet, value: parseEther('1000') });
    await mine(1);
    await sender().runOnce();
    expect((await walletRow(id)).status).toBe(2);
    expect((await t.database.db.select().from(chainWithdrawals)).length).toBeGreaterThan(100);
  });

  it('lists the chain withdrawals and the hot wallet to finance, not to support', async () => {
    const finance = (await t.app.admin.createOperator('chain-finance@example.com', 'finance')).token;
    const support = (await t.app.admin.createOperator('chain-support@example.com', 'support')).token;
    const get = (token: string, url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const page = (await get(finance, '/api/admin/chain/withdrawals?status=REVERTED&pageSize=5')).json().content;
    expect(page.totalCount).toBe(2); // the USDC transfer that reverted, the ETH one whose nonce was filled
    expect(page.list[0]).toMatchObject({ coinCode: 'USDC', status: 'REVERTED', attempts: 1 });
    expect(page.list[0].explorerUrl).toBe(`https://explorer.test/tx/${page.list[0].txHash}`);
    expect(Number(page.list[0].maxFeePerGasGwei)).toBeGreaterThan(0);
    const wallet = (await get(finance, '/api/admin/chain/hot-wallet')).json().content;
    expect(wallet.address).toBe(hotWallet);
    expect(wallet.nextNonce).toBe(await clients().public.getTransactionCount({ address: hotWallet }));
    // Each coin's balance as the node has it now, against EVM_HOT_WALLET_MIN / _MAX (not set: null).
    const eth = await clients().public.getBalance({ address: hotWallet });
    expect(wallet.balances.map((row: { coinCode: string }) => row.coinCode)).toEqual(['ETH', 'USDT', 'USDC']);
    expect(wallet.balances[0]).toEqual({
      coinCode: 'ETH',
      balance: toDecimalString(eth / 10n ** 10n, 'ETH'),
      min: '10.00000000',
      max: '5000.00000000',
    });
    expect(wallet.balances[1]).toMatchObject({ coinCode: 'USDT', min: null, max: null });
    expect((await get(support, '/api/admin/chain/withdrawals')).json().statusCode).not.toBe(200);
  });

  it('has booked one gas entry per settled or failed transaction, summing to the gas account', async () => {
    const chainId = await clients().public.getChainId();
    const done = (await t.database.db.select().from(chainWithdrawals)).filter(
      (row) => row.status === 'CONFIRMED' || row.status === 'REVERTED',
    );
    const entries = await gasEntries();
    const keys = new Set(entries.map((entry) => entry.idempotency_key));
    expect(keys).toEqual(new Set(done.map((row) => gasEntryKey(chainId, row.txHash!))));
    let total = 0n;
    for (const row of done) total += (await gasPaid(row.txHash!)).minor;
    expect(await gasAccount()).toBe(-total);
  }, 120_000);
});
