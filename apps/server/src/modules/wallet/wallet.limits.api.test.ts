import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { signCustodyBody } from './wallet.routes.ts';
import { seedWallet } from './wallet.seed.ts';
import { deposits, screeningAlerts, withdrawalLimitChanges, withdrawals } from './wallet.tables.ts';

/**
 * Withdrawal limits by level and address screening (docs/kyc.md), through the API on a fresh database: the withdrawal
 * limits per identity level (shown, refused over what is left with the amount named, the dry run
 * alike, edited by an admin only, two racing withdrawals never both passing), and screening alerts
 * (a deposit from a sanctioned source frozen until released, credited once; withdrawal and
 * address-book hits stored as alerts).
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
/** On the bundled OFAC SDN list (`apps/server/data/sanctions/ofac_sdn_USDT.txt`). */
const SANCTIONED_TRON = 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR';

let t: TestApp;
let adminToken: string;
let viewerToken: string;
let complianceToken: string;

async function reportDeposit(userId: string, amount: string, options: { fromAddress?: string; txHash?: string } = {}) {
  const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: t.app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: options.txHash ?? `tx-${randomUUID()}`,
      outputIndex: 0,
      amount,
      confirmations: 20,
      ...(options.fromAddress ? { fromAddress: options.fromAddress } : {}),
    },
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(response.json().statusCode).toBe(200);
  return response.json().content as { depositId: string; status: string };
}

/** A user of `level` holding `amount` USDT whose trade configuration asks no code (so requests can race). */
async function withdrawer(level: 0 | 1 | 2 | 3, amount: string): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, level);
  // The trade configuration's email code off (the identity module's column), so two requests can race without codes.
  await t.database.db.execute(sql`UPDATE users SET is_trade_email_on = false WHERE id = ${session.userId}`);
  await reportDeposit(session.userId, amount);
  return session;
}

const available = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'USDT'));
const withdrawalRows = (userId: string) =>
  t.database.db.select().from(withdrawals).where(eq(withdrawals.userId, userId));

function post(session: TestSession, url: string, payload: object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...session.headers, 'api-version': '2.0', ...headers },
    payload,
  });
}
const withdraw = (session: TestSession, amount: string, headers: Record<string, string> = {}) =>
  post(session, '/api/wallet/withdraw', { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount }, headers);
const check = (session: TestSession, amount: string, headers: Record<string, string> = {}) =>
  post(
    session,
    '/api/wallet/withdraw/check',
    { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount },
    headers,
  );
async function limits(session: TestSession) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/wallet/withdraw/limits',
    headers: { cookie: session.cookie },
  });
  expect(response.json().statusCode).toBe(200);
  return response.json().content;
}
function ops(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload } : {}),
  });
}
const setLevel1 = (usdPer24h: string, usdPerMonth: string) =>
  ops('PUT', '/withdrawal-limits/1', adminToken, { usdPer24h, usdPerMonth });

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
  adminToken = (await t.app.admin.createOperator('admin@example.com', 'admin')).token;
  viewerToken = (await t.app.admin.createOperator('viewer@example.com', 'support')).token;
  complianceToken = (await t.app.admin.createOperator('compliance@example.com', 'compliance')).token;
});
afterAll(async () => t.close());

describe('withdrawal limits by level', () => {
  it('shows the level’s limits, and what a withdrawal used at its request-time USD value', async () => {
    const session = await withdrawer(1, '1000');
    expect(await limits(session)).toEqual({
      level: 1,
      per24h: { limitUsd: '20000.00', usedUsd: '0.00', leftUsd: '20000.00' },
      perMonth: { limitUsd: '200000.00', usedUsd: '0.00', leftUsd: '200000.00' },
    });
    expect((await withdraw(session, '100')).json().statusCode).toBe(200);
    const [row] = await withdrawalRows(session.userId);
    // USDT is valued at the market's price at request time (about 1 USD), rounded up to the cent.
    expect(row!.usdValue).toMatch(/^\d+\.\d{2}$/);
    const usedCents = BigInt(row!.usdValue!.replace('.', ''));
    expect(usedCents).toBeGreaterThanOrEqual(9_900n);
    expect(usedCents).toBeLessThanOrEqual(10_100n);
    const shown = await limits(session);
    expect(shown.per24h.usedUsd).toBe(row!.usdValue);
    expect(shown.perMonth.usedUsd).toBe(row!.usdValue);
    expect(BigInt(shown.per24h.leftUsd.replace('.', ''))).toBe(2_000_000n - usedCents);

    // A cancelled withdrawal no longer counts.
    expect((await post(session, `/api/wallet/withdraw/${row!.id}/cancel`, {})).json().statusCode).toBe(200);
    expect((await limits(session)).per24h.usedUsd).toBe('0.00');

    const investor = await withdrawer(2, '10');
    expect(await limits(investor)).toMatchObject({
      level: 2,
      per24h: { limitUsd: '200000.00', leftUsd: '200000.00' },
      perMonth: { limitUsd: '2000000.00', leftUsd: '2000000.00' },
    });
  });

  it('refuses a withdrawal over what is left with 150 on `amount` naming the USD left, in both languages; the dry run alike; nothing changes', async () => {
    const session = await withdrawer(1, '30000');
    const before = await available(session.userId);
    for (const call of [withdraw, check]) {
      const response = await call(session, '25000');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        statusCode: 150,
        message: 'Over your withdrawal limit: USD 20,000.00 left in the next 24 hours',
        content: {
          window: '24h',
          leftUsd: '20000.00',
          fields: [{ field: 'amount', message: 'Over your withdrawal limit: USD 20,000.00 left in the next 24 hours' }],
        },
      });
      const zh = await call(session, '25000', { 'user-lang': 'zh-HK' });
      expect(zh.json().content.fields[0]).toEqual({
        field: 'amount',
        message: '超出提幣限額：未來 24 小時內尚餘 USD 20,000.00',
      });
    }
    expect(await withdrawalRows(session.userId)).toHaveLength(0);
    expect(await available(session.userId)).toBe(before);
  });

  it('applies a limit an admin edits (audited: who, old, new); a viewer may read but not edit; bad input names the field and changes nothing', async () => {
    const session = await withdrawer(1, '1000');
    const viewerList = await ops('GET', '/withdrawal-limits', viewerToken);
    expect(viewerList.json().content.map((row: { level: number }) => row.level)).toEqual([1, 2, 3]);
    const forbidden = await ops('PUT', '/withdrawal-limits/1', viewerToken, { usdPer24h: '50', usdPerMonth: '1000' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().statusCode).toBe(102);
    const bad = await setLevel1('1.234', '1000');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().content.fields[0].field).toBe('usdPer24h');
    expect(await t.database.db.select().from(withdrawalLimitChanges)).toHaveLength(0);
    try {
      const edited = await setLevel1('50', '1000');
      expect(edited.json()).toMatchObject({
        statusCode: 200,
        content: { level: 1, usdPer24h: '50.00', usdPerMonth: '1000.00', updatedBy: 'admin@example.com' },
      });
      const [change] = await t.database.db.select().from(withdrawalLimitChanges);
      expect(change).toMatchObject({
        kycLevel: 1,
        operatorEmail: 'admin@example.com',
        oldUsdPer24h: '20000.00',
        oldUsdPerMonth: '200000.00',
        newUsdPer24h: '50.00',
        newUsdPerMonth: '1000.00',
      });
      expect((await limits(session)).per24h).toEqual({ limitUsd: '50.00', usedUsd: '0.00', leftUsd: '50.00' });
      const over = await withdraw(session, '60');
      expect(over.json().content.fields[0].message).toBe(
        'Over your withdrawal limit: USD 50.00 left in the next 24 hours',
      );
      expect(await withdrawalRows(session.userId)).toHaveLength(0);
    } finally {
      expect((await setLevel1('20000', '200000')).json().statusCode).toBe(200);
    }
  });

  it('lets exactly one of two racing withdrawals through when together they exceed what is left', async () => {
    const session = await withdrawer(1, '30000');
    const answers = await Promise.all([withdraw(session, '12000'), withdraw(session, '12000')]);
    expect(answers.map((answer) => answer.json().statusCode).sort()).toEqual([150, 200]);
    expect(await withdrawalRows(session.userId)).toHaveLength(1);
    // 30,000 − (12,000 + the TRC20 fee of 1) USDT.
    expect(await available(session.userId)).toBe(17_999_000_000n);
  });

  it('lets exactly three of six racing withdrawals through when the limit holds three (checked under the per-user lock)', async () => {
    const session = await withdrawer(1, '40000');
    // Each request passes the early check against the same committed state; only the check in the
    // withdrawal's transaction, under the user's lock, sees the others.
    const answers = await Promise.all(Array.from({ length: 6 }, () => withdraw(session, '6000')));
    const codes = answers.map((answer) => answer.json().statusCode).sort();
    expect(codes).toEqual([150, 150, 150, 200, 200, 200]);
    expect(await withdrawalRows(session.userId)).toHaveLength(3);
    expect(await available(session.userId)).toBe(40_000_000_000n - 3n * 6_001_000_000n);
  });
});

describe('screening alerts', () => {
  const alertsOf = (userId: string) =>
    t.database.db.select().from(screeningAlerts).where(eq(screeningAlerts.userId, userId));

  it('freezes a deposit from a sanctioned source with one alert (repeated reports too); release credits it once, a second release answers 151', async () => {
    const session = await registerAndLogin(t.app);
    const txHash = `tx-${randomUUID()}`;
    const first = await reportDeposit(session.userId, '500', { fromAddress: SANCTIONED_TRON, txHash });
    expect(first.status).toBe('FROZEN');
    const again = await reportDeposit(session.userId, '500', { fromAddress: SANCTIONED_TRON, txHash });
    expect(again).toMatchObject({ depositId: first.depositId, status: 'FROZEN' });
    expect(await available(session.userId)).toBe(0n);
    expect(await accountBalance(t.database.db, platformAccount('SUSPENSE', 'USDT'))).toBe(500_000_000n);
    const alerts = await alertsOf(session.userId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: 'deposit',
      referenceId: first.depositId,
      listName: 'OFAC SDN',
      status: 'open',
      address: SANCTIONED_TRON,
    });
    // The user sees a waiting deposit and nothing of the list.
    const record = await t.app.inject({
      method: 'GET',
      url: '/api/wallet/record?action=deposit',
      headers: { cookie: session.cookie },
    });
    expect(record.json().content.list[0]).toMatchObject({ status: 0, amount: '500.000000' });
    expect(record.body).not.toContain('OFAC');

    const listed = await ops('GET', '/screening/alerts?status=open', viewerToken);
    expect(listed.json().content.list.map((alert: { id: string }) => alert.id)).toContain(String(alerts[0]!.id));
    const viewerRelease = await ops('POST', `/screening/alerts/${alerts[0]!.id}/release`, viewerToken, {});
    expect(viewerRelease.json().statusCode).toBe(102);
    expect(await available(session.userId)).toBe(0n);

    const released = await ops('POST', `/screening/alerts/${alerts[0]!.id}/release`, complianceToken, {
      note: 'false positive',
    });
    expect(released.json()).toMatchObject({
      statusCode: 200,
      content: { status: 'released', decidedBy: 'compliance@example.com', note: 'false positive' },
    });
    expect(await available(session.userId)).toBe(500_000_000n);
    expect(await accountBalance(t.database.db, platformAccount('SUSPENSE', 'USDT'))).toBe(0n);
    const [deposit] = await t.database.db
      .select()
      .from(deposits)
      .where(eq(deposits.id, Number(first.depositId)));
    expect(deposit!.status).toBe('CREDITED');

    const twice = await ops('POST', `/screening/alerts/${alerts[0]!.id}/release`, complianceToken, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().statusCode).toBe(151);
    expect(await available(session.userId)).toBe(500_000_000n);
  });

  it('keeps a confirmed deposit frozen (note required, named when missing)', async () => {
    const session = await registerAndLogin(t.app);
    const frozen = await reportDeposit(session.userId, '70', { fromAddress: SANCTIONED_TRON });
    const [alert] = await alertsOf(session.userId);
    const noNote = await ops('POST', `/screening/alerts/${alert!.id}/confirm`, complianceToken, {});
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().content.fields[0].field).toBe('note');
    const confirmed = await ops('POST', `/screening/alerts/${alert!.id}/confirm`, complianceToken, {
      note: 'listed entity',
    });
    expect(confirmed.json().content).toMatchObject({ status: 'confirmed', note: 'listed entity' });
    const release = await ops('POST', `/screening/alerts/${alert!.id}/release`, adminToken, {});
    expect(release.json().statusCode).toBe(151);
    const [deposit] = await t.database.db
      .select()
      .from(deposits)
      .where(eq(deposits.id, Number(frozen.depositId)));
    expect(deposit!.status).toBe('FROZEN');
    expect(await available(session.userId)).toBe(0n);
  });

  it('credits a deposit from a clean source as before', async () => {
    const session = await registerAndLogin(t.app);
    const credited = await reportDeposit(session.userId, '5', { fromAddress: EXTERNAL_TRON });
    expect(credited.status).toBe('CREDITED');
    expect(await alertsOf(session.userId)).toHaveLength(0);
  });

  it('records an alert for a refused withdrawal and address-book entry (one open alert per address)', async () => {
    const session = await withdrawer(1, '100');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await post(session, '/api/wallet/withdraw/check', {
        coin: 'USDT',
        network: 'TRC20',
        address: SANCTIONED_TRON,
        amount: '20',
      });
      expect(refused.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'address' }] } });
    }
    const book = await post(session, '/api/wallet/addressbook', {
      label: 'sanctioned',
      network: 'TRC20',
      address: SANCTIONED_TRON,
    });
    expect(book.json().content.fields[0].field).toBe('address');
    const alerts = await alertsOf(session.userId);
    expect(alerts.map((alert) => alert.kind).sort()).toEqual(['address_book', 'withdrawal']);
    expect(alerts.every((alert) => alert.status === 'open' && alert.referenceId === null)).toBe(true);
    const [withdrawalAlert] = await t.database.db
      .select()
      .from(screeningAlerts)
      .where(and(eq(screeningAlerts.userId, session.userId), eq(screeningAlerts.kind, 'withdrawal')));
    expect(withdrawalAlert).toMatchObject({ network: 'TRC20', listName: 'OFAC SDN' });
  });
});
