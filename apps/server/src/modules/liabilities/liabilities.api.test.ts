import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiabilitiesProof, verifyLiabilitiesProof } from '@meridian/contracts/liabilities';
import { custodyWebhookBodySchema } from '@meridian/contracts/wallet';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { seedDemo } from '../../seed.ts';
import { liabilitiesAndHoldings, userBalances } from '../ledger/ledger.service.ts';

/** The standalone verifier a user runs (`node scripts/verify-liabilities-proof.mjs proof.json`). */
const VERIFIER = join(dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/verify-liabilities-proof.mjs');

let t: TestApp;
let alice: TestSession;
let bob: TestSession;
let newcomer: TestSession;
let financeToken: string;
let supportToken: string;
let workDir: string;

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const ops = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/admin${url}`, headers: { authorization: `Bearer ${token}` } });

async function deposit(userId: string, coin: 'USDT' | 'BTC', network: string, amount: string): Promise<void> {
  await t.app.identity.setKycLevel(userId, 1);
  const { address } = await t.app.wallet.depositAddress(userId, coin, network);
  await t.app.wallet.handleCustodyDelivery(
    custodyWebhookBodySchema.parse({
      deliveryId: randomUUID(),
      sentAt: t.app.clock.now().toISOString(),
      event: {
        type: 'deposit',
        network,
        coin,
        address,
        txHash: `tx-${randomUUID()}`,
        outputIndex: 0,
        amount,
        confirmations: 30,
      },
    }),
  );
}

/** Run the scheduler once as the leader of the period would; @returns the liabilities job's outcome. */
async function runDailyJob(): Promise<string | undefined> {
  return (await t.app.scheduler.tick())['liabilities.daily'];
}

function runVerifier(proof: unknown): { status: number | null; stdout: string; stderr: string } {
  const file = join(workDir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(proof));
  const result = spawnSync(process.execPath, [VERIFIER, file], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'meridian-pol-'));
  t = await createTestApp();
  await seedDemo(t.database.db);
  financeToken = (await t.app.admin.createOperator('finance@example.com', 'finance')).token;
  supportToken = (await t.app.admin.createOperator('support@example.com', 'support')).token;
  [alice, bob, newcomer] = [
    await registerAndLogin(t.app),
    await registerAndLogin(t.app),
    await registerAndLogin(t.app),
  ];
  await deposit(alice.userId, 'USDT', 'TRC20', '250');
  await deposit(bob.userId, 'USDT', 'TRC20', '1000.5');
  await deposit(bob.userId, 'BTC', 'Bitcoin', '0.25');
  // Bob entrusts 0.05 BTC: the trust's holding (0.049 BTC after the 2 % fee) stays his liability.
  const trust = await t.app.trust.create(bob.userId, {
    name: 'Family',
    termMonths: null,
    isRevocable: true,
    inactivityMonths: 12,
    beneficiaries: [{ name: 'Carol', email: 'carol@example.com', sharePct: '100' }],
  });
  await t.app.trust.fund(bob.userId, trust.id, 5_000_000n, randomUUID());
});

afterAll(async () => {
  await t.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('proof of liabilities', () => {
  it('has no snapshot before the first run: the page says so, a proof is refused with 240 in both languages', async () => {
    expect((await get('/api/liabilities/snapshots')).json().content).toEqual({ latest: null, history: [] });
    const en = (await get('/api/liabilities/proof', { cookie: alice.cookie })).json();
    expect(en.statusCode).toBe(240);
    const zh = (await get('/api/liabilities/proof', { cookie: alice.cookie, 'user-lang': 'zh-HK' })).json();
    expect(zh).toMatchObject({ statusCode: 240 });
    expect(zh.message).toContain('負債證明');
  });

  it("the daily job builds one snapshot whose totals are the ledger's user balances; a rerun changes nothing", async () => {
    expect(await runDailyJob()).toBe('ran');
    const { latest, history } = (await get('/api/liabilities/snapshots')).json().content;
    expect(history).toHaveLength(1);
    expect(latest.rootHash).toMatch(/^[0-9a-f]{64}$/);
    const usdt = latest.totals.find((line: { asset: string }) => line.asset === 'USDT');
    const ledgerUsdt = (await liabilitiesAndHoldings(t.database.db)).find((line) => line.asset === 'USDT')!;
    // No trust holds USDT, so the ledger's USDT liabilities are exactly the users' balances.
    expect(BigInt(usdt.totalMinor)).toBe(ledgerUsdt.liabilitiesMinor);
    expect(BigInt(usdt.totalMinor)).toBeGreaterThanOrEqual(1_250_500_000n);
    // BTC held in a trust is in the tree (the settlor's leaf), so the totals still match the ledger.
    const btc = latest.totals.find((line: { asset: string }) => line.asset === 'BTC');
    const ledgerBtc = (await liabilitiesAndHoldings(t.database.db)).find((line) => line.asset === 'BTC')!;
    expect(BigInt(btc.totalMinor)).toBe(ledgerBtc.liabilitiesMinor);
    const again = await t.app.liabilities.buildSnapshot(latest.snapshotDate, t.database.db);
    expect(again).toEqual({ isCreated: false, rootHash: latest.rootHash, leafCount: latest.leafCount });
  });

  it("gives each user a proof of their own balances that verifies in the app's checker and the script", async () => {
    const latest = (await get('/api/liabilities/snapshots')).json().content.latest;
    for (const session of [alice, bob]) {
      const answer = (await get('/api/liabilities/proof', { cookie: session.cookie })).json();
      expect(answer.statusCode).toBe(200);
      const proof: LiabilitiesProof = answer.content;
      expect(proof.root.hash).toBe(latest.rootHash);
      expect(proof.userId).toBe(session.userId);
      const check = verifyLiabilitiesProof(proof);
      expect(check.isValid).toBe(true);
      const ledger = await userBalances(t.database.db, session.userId);
      const usdtMinor = ledger.filter((b) => b.asset === 'USDT').reduce((sum, b) => sum + b.balanceMinor, 0n);
      expect(check.isValid && BigInt(check.balances.USDT!)).toBe(usdtMinor);
      const script = runVerifier(proof);
      expect(script.status, script.stderr).toBe(0);
      expect(script.stdout).toContain(latest.rootHash);
    }
    const bobProof = (await get('/api/liabilities/proof', { cookie: bob.cookie })).json().content as LiabilitiesProof;
    const btcAt = bobProof.assets.indexOf('BTC');
    // 0.25 BTC deposited, less the trust's 2 % fee on 0.05: wallet 0.20 + trust 0.049.
    expect(bobProof.balances[btcAt]).toBe('24900000');
    // A shrunk balance is refused by the script too.
    const shrunk = { ...bobProof, balances: bobProof.balances.map((b, at) => (at === btcAt ? '1' : b)) };
    expect(runVerifier(shrunk).status).toBe(1);
    // Two users' salts differ, and neither proof carries the other's id.
    const aliceProof = (await get('/api/liabilities/proof', { cookie: alice.cookie })).json().content;
    expect(aliceProof.salt).not.toBe(bobProof.salt);
    expect(JSON.stringify(aliceProof)).not.toContain(bob.userId);
  });

  it('answers 241 to a user with no account in the snapshot, 101 to a guest, 120 naming the date to a bad date', async () => {
    expect((await get('/api/liabilities/proof', { cookie: newcomer.cookie })).json().statusCode).toBe(241);
    expect((await get('/api/liabilities/proof')).json().statusCode).toBe(101);
    const bad = (
      await get('/api/liabilities/proof?date=26-11-2026', { cookie: alice.cookie, 'user-lang': 'zh-HK' })
    ).json();
    expect(bad.statusCode).toBe(120);
    expect(bad.content.fields).toEqual([{ field: 'date', message: '請以 YYYY-MM-DD 格式輸入日期' }]);
    expect((await get('/api/liabilities/proof?date=2001-01-01', { cookie: alice.cookie })).json().statusCode).toBe(240);
  });

  it("lets finance compare the totals with custody's holdings; support may not", async () => {
    const answer = (await ops(financeToken, '/liabilities/compare')).json();
    expect(answer.statusCode).toBe(200);
    expect(answer.content.isRootRebuilt).toBe(true);
    const usdt = answer.content.lines.find((line: { asset: string }) => line.asset === 'USDT');
    // Deposits moved custody and users alike: the hot wallet holds what users deposited.
    expect(BigInt(usdt.holdingsMinor)).toBeGreaterThanOrEqual(1_250_500_000n);
    expect(BigInt(usdt.surplusMinor)).toBe(BigInt(usdt.holdingsMinor) - BigInt(usdt.treeTotalMinor));
    expect((await ops(supportToken, '/liabilities/compare')).json().statusCode).toBe(102);
  });

  it('keeps proofs for 30 days: a later snapshot prunes older leaves (their roots stay) and their proofs answer 242', async () => {
    const today = (await get('/api/liabilities/snapshots')).json().content.latest.snapshotDate as string;
    const later = new Date(Date.parse(`${today}T00:00:00Z`) + 31 * 86_400_000).toISOString().slice(0, 10);
    expect((await t.app.liabilities.buildSnapshot(later, t.database.db)).isCreated).toBe(true);
    const leftOld = await queryRows(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM liabilities_leaves l JOIN liabilities_snapshots s ON s.id = l.snapshot_id WHERE s.snapshot_date = ${today}`,
    );
    expect(leftOld[0]!.n).toBe(0);
    const history = (await get('/api/liabilities/snapshots')).json().content.history;
    expect(history.map((item: { snapshotDate: string }) => item.snapshotDate)).toEqual([later, today]);
    const expired = (
      await get(`/api/liabilities/proof?date=${today}`, { cookie: alice.cookie, 'user-lang': 'zh-HK' })
    ).json();
    expect(expired.statusCode).toBe(242);
    expect(expired.message).toContain('30 日');
    expect((await ops(financeToken, `/liabilities/compare?date=${today}`)).json().statusCode).toBe(242);
    const fresh = (await get('/api/liabilities/proof', { cookie: alice.cookie })).json();
    expect(fresh.content.snapshotDate).toBe(later);
    expect(verifyLiabilitiesProof(fresh.content).isValid).toBe(true);
  });
});
