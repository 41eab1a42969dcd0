import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import dayjs from 'dayjs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { accountBalance, platformBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, trustAccount, userAccount } from '../ledger/ledger.types.ts';

/**
 * The BTC trust (docs/trust.md) through the real app: creating a trust (and every bad input refused naming
 * its field, nothing created), the 2 % entrustment fee on exact amounts, a replay under the same
 * idempotency key, more than the wallet holds, withdrawal (revocable only, no fee, not more than
 * held), the inactivity switch on a controlled clock (reminders 30/14/3 days once each, then claim
 * with the beneficiaries mailed), and an operator's release. The ledger check runs after the file.
 */
let t: TestApp;
let financeToken: string;
let complianceToken: string;

const wallet = (userId: string) => accountBalance(t.database.db, userAccount(userId, 'USER_AVAILABLE', 'BTC'));
const holding = (trustId: number) => accountBalance(t.database.db, trustAccount(trustId, 'BTC'));
const fees = () => platformBalance(t.database.db, 'PLATFORM_FEES', 'BTC');

async function depositBtc(userId: string, amountMinor: bigint, key: string): Promise<void> {
  await postEntry(t.database.db, {
    kind: 'DEPOSIT',
    reference: `test:${key}`,
    idempotencyKey: `test:${key}`,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', 'BTC'),
      userAccount(userId, 'USER_AVAILABLE', 'BTC'),
      amountMinor,
    ),
  });
}

/** A signed-in user at level 2 (investor) holding `btcMinor` satoshi in the wallet. */
async function settlor(btcMinor = 0n): Promise<TestSession> {
  const session = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(session.userId, 2);
  if (btcMinor > 0n) await depositBtc(session.userId, btcMinor, `${session.userId}:start`);
  return session;
}

const validTrust = {
  name: 'Family reserve',
  termMonths: 120,
  isRevocable: true,
  inactivityMonths: 6,
  beneficiaries: [
    { name: 'Mei Chan', email: 'mei@example.com', sharePct: '60' },
    { name: 'Ka Ho Chan', email: 'kaho@example.com', sharePct: '40' },
  ],
};

const post = (session: TestSession, url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...session.headers, ...headers }, payload });
const get = (session: TestSession, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
const ops = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload } : {}),
  });

async function createTrust(session: TestSession, body: object = validTrust): Promise<number> {
  const response = (await post(session, '/api/trust/create', body)).json();
  expect(response.statusCode).toBe(200);
  return response.content.id;
}

/**
 * Let `session` ask for a new email code at once: the 59 s resend cooldown per (address, event) is
 * the identity module's rule, not what these tests are about, so its codes are aged past it.
 */
async function ageCodes(session: TestSession): Promise<void> {
  await t.database.db.execute(
    sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
  );
}

async function fund(session: TestSession, trustId: number, amount: string, key: string) {
  await ageCodes(session);
  const emailCaptcha = await sensitiveCode(t.app, session, 'TRUST_FUND');
  return (
    await post(session, `/api/trust/${trustId}/fund`, { amount, emailCaptcha }, { [HEADER_IDEMPOTENCY_KEY]: key })
  ).json();
}

async function withdraw(session: TestSession, trustId: number, amount: string, key: string) {
  await ageCodes(session);
  const emailCaptcha = await sensitiveCode(t.app, session, 'TRUST_WITHDRAW');
  return (
    await post(session, `/api/trust/${trustId}/withdraw`, { amount, emailCaptcha }, { [HEADER_IDEMPOTENCY_KEY]: key })
  ).json();
}

const mailbox = async (to: string): Promise<{ subject: string; body: string; tag: string | null }[]> =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` })).json().content;

beforeAll(async () => {
  t = await createTestApp();
  financeToken = (await t.app.admin.createOperator('finance@example.com', 'finance')).token;
  complianceToken = (await t.app.admin.createOperator('compliance@example.com', 'compliance')).token;
});
afterAll(async () => t.close());

describe('creating a trust', () => {
  it('stores the terms, the beneficiaries and their shares, and lists the trust with an empty holding', async () => {
    const session = await settlor();
    const id = await createTrust(session);
    const list = (await get(session, '/api/trust/list')).json().content;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id,
      name: 'Family reserve',
      state: 'active',
      termMonths: 120,
      isRevocable: true,
      inactivityMonths: 6,
      holding: '0.00000000',
      beneficiaries: [
        { name: 'Mei Chan', email: 'mei@example.com', sharePct: '60.00' },
        { name: 'Ka Ho Chan', email: 'kaho@example.com', sharePct: '40.00' },
      ],
    });
  });

  it('refuses shares that do not sum to exactly 100 %, naming `beneficiaries` in the user’s language; nothing is created', async () => {
    const session = await settlor();
    const body = {
      ...validTrust,
      beneficiaries: [
        { name: 'A', email: 'a@example.com', sharePct: '33.33' },
        { name: 'B', email: 'b@example.com', sharePct: '33.33' },
        { name: 'C', email: 'c@example.com', sharePct: '33.33' },
      ],
    };
    const response = (await post(session, '/api/trust/create', body, { 'user-lang': 'zh-HK' })).json();
    expect(response.statusCode).toBe(120);
    expect(response.content.fields).toEqual([
      { field: 'beneficiaries', message: '受益人比例總和必須剛好為 100%（目前為 99.99%）' },
    ]);
    const english = (await post(session, '/api/trust/create', body)).json();
    expect(english.content.fields[0].message).toBe(
      'The beneficiaries’ shares must add up to exactly 100% (now 99.99%)',
    );
    expect((await get(session, '/api/trust/list')).json().content).toEqual([]);
  });

  it('refuses an inactivity period outside 6–36 months, a share with 3 decimals, a bad email and a zero term, each naming its field', async () => {
    const session = await settlor();
    const cases: [object, string][] = [
      [{ ...validTrust, inactivityMonths: 5 }, 'inactivityMonths'],
      [{ ...validTrust, inactivityMonths: 37 }, 'inactivityMonths'],
      [{ ...validTrust, termMonths: 0 }, 'termMonths'],
      [
        {
          ...validTrust,
          beneficiaries: [{ name: 'A', email: 'a@example.com', sharePct: '100.001' }],
        },
        'beneficiaries.0.sharePct',
      ],
      [
        { ...validTrust, beneficiaries: [{ name: 'A', email: 'not-an-email', sharePct: '100' }] },
        'beneficiaries.0.email',
      ],
      [{ ...validTrust, beneficiaries: [] }, 'beneficiaries'],
      [{ name: 'x'.repeat(100_000) }, 'name'],
      [{ ...validTrust, name: 'x'.repeat(61) }, 'name'],
    ];
    for (const [body, field] of cases) {
      const response = (await post(session, '/api/trust/create', body)).json();
      expect(response.statusCode, field).toBe(120);
      expect(response.content.fields.map((item: { field: string }) => item.field)).toContain(field);
    }
    expect((await get(session, '/api/trust/list')).json().content).toEqual([]);
  });

  it('accepts an open-ended trust (term null)', async () => {
    const session = await settlor();
    const id = await createTrust(session, { ...validTrust, termMonths: null, isRevocable: false });
    const detail = (await get(session, `/api/trust/${id}`)).json().content;
    expect(detail).toMatchObject({ termMonths: null, termEndsAt: null, isRevocable: false });
  });

  it('is refused below level 2 (143) and to another user (404)', async () => {
    const basic = await registerAndLogin(t.app);
    await t.app.identity.setKycLevel(basic.userId, 1);
    expect((await post(basic, '/api/trust/create', validTrust)).json().statusCode).toBe(143);
    const owner = await settlor();
    const id = await createTrust(owner);
    const other = await settlor();
    expect((await get(other, `/api/trust/${id}`)).json().statusCode).toBe(104);
  });
});

describe('funding a trust: the 2 % entrustment fee', () => {
  it('entrusting 0.12345678 BTC takes a fee of 0.00246914 BTC (0.0024691356 rounded up) and holds 0.12098764 BTC, in one entry', async () => {
    // 1 BTC in the wallet. 2 % of 12,345,678 sat = 246,913.56 sat → the fee is owed by the user: rounded up to 246,914.
    const session = await settlor(100_000_000n);
    const id = await createTrust(session);
    const feesBefore = await fees();
    const answer = await fund(session, id, '0.12345678', 'fund-exact-1');
    expect(answer.statusCode).toBe(200);
    expect(answer.content).toMatchObject({
      kind: 'entrust',
      amount: '0.12345678',
      fee: '0.00246914',
      net: '0.12098764',
    });
    expect(await wallet(session.userId)).toBe(87_654_322n); // 100,000,000 − 12,345,678
    expect(await holding(id)).toBe(12_098_764n);
    expect((await fees()) - feesBefore).toBe(246_914n);
    const entries = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'TRUST_ENTRUST' AND reference = ${`trust:${id}`}`,
    );
    expect((entries as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);

    const detail = (await get(session, `/api/trust/${id}`)).json().content;
    expect(detail.holding).toBe('0.12098764');
    expect(detail.feesPaid).toBe('0.00246914');
    expect(detail.history.list).toEqual([
      expect.objectContaining({ kind: 'entrust', fee: '0.00246914', net: '0.12098764' }),
    ]);

    // The account overview counts the trust: its own line, the net held, not the fee.
    const balance = (await get(session, '/api/wallet/balance')).json().content;
    const trustLine = balance.wallet.accounts.find((a: { accountType: string }) => a.accountType === 'TrustAccount');
    expect(trustLine.assets).toEqual([expect.objectContaining({ coinCode: 'BTC', amount: '0.12098764' })]);
  });

  it('a replay under the same Idempotency-Key answers the first movement and moves nothing; another amount under it is refused (121)', async () => {
    const session = await settlor(50_000_000n);
    const id = await createTrust(session);
    const first = await fund(session, id, '0.10000000', 'fund-replay');
    expect(first.content).toMatchObject({ amount: '0.10000000', fee: '0.00200000', net: '0.09800000' });
    const replay = await fund(session, id, '0.10000000', 'fund-replay');
    expect(replay.statusCode).toBe(200);
    expect(replay.content.id).toBe(first.content.id);
    expect(await wallet(session.userId)).toBe(40_000_000n);
    expect(await holding(id)).toBe(9_800_000n);
    const other = await fund(session, id, '0.20000000', 'fund-replay');
    expect(other.statusCode).toBe(121);
    expect(await wallet(session.userId)).toBe(40_000_000n);
  });

  it('more than the wallet holds is refused (130) and nothing changes; so is an amount with 9 decimals (120 naming amount) and one below 0.0001 BTC (132 naming amount)', async () => {
    const session = await settlor(1_000_000n); // 0.01 BTC
    const id = await createTrust(session);
    const feesBefore = await fees();
    expect((await fund(session, id, '0.01000001', 'too-much')).statusCode).toBe(130);
    const precise = await fund(session, id, '0.001000001', 'nine-decimals');
    expect(precise.statusCode).toBe(120);
    expect(precise.content.fields[0].field).toBe('amount');
    const small = await fund(session, id, '0.00009999', 'too-small');
    expect(small.statusCode).toBe(132);
    expect(small.content.fields[0]).toEqual({ field: 'amount', message: 'Minimum order amount 0.00010000 BTC' });
    expect(await wallet(session.userId)).toBe(1_000_000n);
    expect(await holding(id)).toBe(0n);
    expect(await fees()).toBe(feesBefore);
    expect((await get(session, `/api/trust/${id}`)).json().content.history.totalCount).toBe(0);
  });

  it('the whole wallet can be entrusted: 0.01 BTC → fee 0.0002, net 0.0098', async () => {
    const session = await settlor(1_000_000n);
    const id = await createTrust(session);
    const answer = await fund(session, id, '0.01', 'all-of-it');
    expect(answer.content).toMatchObject({ fee: '0.00020000', net: '0.00980000' });
    expect(await wallet(session.userId)).toBe(0n);
  });

  it('asks for the security check: without the email code the call is refused and nothing moves', async () => {
    const session = await settlor(1_000_000n);
    const id = await createTrust(session);
    const response = (
      await post(session, `/api/trust/${id}/fund`, { amount: '0.001' }, { [HEADER_IDEMPOTENCY_KEY]: 'no-code' })
    ).json();
    expect(response.statusCode).toBe(120);
    expect(await wallet(session.userId)).toBe(1_000_000n);
  });
});

describe('withdrawing from a trust', () => {
  it('returns BTC of a revocable trust to the wallet without a fee, and refuses more than the trust holds (130)', async () => {
    const session = await settlor(10_000_000n);
    const id = await createTrust(session);
    await fund(session, id, '0.05', 'w-fund'); // fee 0.001, net 0.049
    expect(await holding(id)).toBe(4_900_000n);
    const feesBefore = await fees();
    const back = await withdraw(session, id, '0.02', 'w-1');
    expect(back.content).toMatchObject({
      kind: 'withdraw',
      amount: '0.02000000',
      fee: '0.00000000',
      net: '0.02000000',
    });
    expect(await holding(id)).toBe(2_900_000n);
    expect(await wallet(session.userId)).toBe(7_000_000n); // 0.1 − 0.05 + 0.02
    expect(await fees()).toBe(feesBefore);
    expect((await withdraw(session, id, '0.02900001', 'w-2')).statusCode).toBe(130);
    expect(await holding(id)).toBe(2_900_000n);
  });

  it('an irrevocable trust refuses a withdrawal with 180 and nothing moves', async () => {
    const session = await settlor(10_000_000n);
    const id = await createTrust(session, { ...validTrust, isRevocable: false });
    await fund(session, id, '0.05', 'irr-fund');
    const response = await withdraw(session, id, '0.01', 'irr-1');
    expect(response.statusCode).toBe(180);
    expect(await holding(id)).toBe(4_900_000n);
  });

  it('an account holding a funded trust cannot be closed', async () => {
    const session = await settlor(10_000_000n);
    const id = await createTrust(session);
    await fund(session, id, '0.01', 'close-fund');
    const reasons = await t.app.trust.holdingsChecker.reasonsToRefuseClosure(session.userId, 'en-US');
    expect(reasons).toEqual(['trust "Family reserve" (0.00980000 BTC)']);
  });
});

describe('the inactivity switch (controlled clock) and the operator’s release', () => {
  it('reminds at 30, 14 and 3 days once each, then notifies the beneficiaries and moves the trust to claim; an operator releases it to the payout account', async () => {
    const session = await settlor(10_000_000n);
    const id = await createTrust(session, {
      ...validTrust,
      beneficiaries: [
        { name: 'Mei Chan', email: `mei-${session.userId}@example.com`, sharePct: '75.5' },
        { name: 'Ka Ho Chan', email: `kaho-${session.userId}@example.com`, sharePct: '24.5' },
      ],
    });
    await fund(session, id, '0.05', 'switch-fund'); // holds 0.049
    const signedInAt = (await t.app.identity.lastSignInAtOf([session.userId])).get(session.userId)!;
    const deadline = dayjs(signedInAt).add(6, 'month');
    const run = (at: dayjs.Dayjs) => t.app.trust.runInactivity(at.toDate());
    const reminders = async () =>
      (await mailbox(session.email)).filter((mail) => mail.tag === 'TRUST_INACTIVITY').map((mail) => mail.subject);

    // 31 days before the deadline: nothing yet.
    await run(deadline.subtract(31, 'day'));
    expect(await reminders()).toEqual([]);
    // 30 days before: the first reminder, once, however often the job runs.
    await run(deadline.subtract(30, 'day'));
    await run(deadline.subtract(29, 'day'));
    expect(await reminders()).toEqual(['Trust "Family reserve": sign in within 30 days']);
    await run(deadline.subtract(14, 'day'));
    await run(deadline.subtract(3, 'day'));
    await run(deadline.subtract(2, 'day'));
    expect((await reminders()).sort()).toEqual(
      [
        'Trust "Family reserve": sign in within 30 days',
        'Trust "Family reserve": sign in within 14 days',
        'Trust "Family reserve": sign in within 3 days',
      ].sort(),
    );
    const messages = (await get(session, '/api/notice/message/list?pageSize=50')).json().content.list;
    expect(messages.filter((m: { title: string }) => m.title.startsWith('Trust "Family reserve"'))).toHaveLength(3);
    expect((await get(session, `/api/trust/${id}`)).json().content.state).toBe('active');

    // The deadline passes: the beneficiaries are mailed (both languages), the trust is in claim, once.
    // (Other tests' settlors signed in at about the same time, so their trusts are claimed in the same run.)
    expect((await run(deadline.add(1, 'hour'))).claimed).toBeGreaterThanOrEqual(1);
    expect(await run(deadline.add(1, 'day'))).toEqual({ claimed: 0, reminded: 0 });
    const mei = await mailbox(`mei-${session.userId}@example.com`);
    expect(mei).toHaveLength(1);
    expect(mei[0]?.body).toContain(
      'Dear Mei Chan, you are named as a beneficiary (75.50%) of the BTC trust "Family reserve"',
    );
    expect(mei[0]?.body).toContain('Mei Chan您好');
    expect(await mailbox(`kaho-${session.userId}@example.com`)).toHaveLength(1);
    const detail = (await get(session, `/api/trust/${id}`)).json().content;
    expect(detail.state).toBe('claim');
    expect(detail.claimAt).toBe(deadline.add(1, 'hour').toISOString());
    // No money moved, and the settlor can no longer move it either.
    expect(await holding(id)).toBe(4_900_000n);
    expect((await fund(session, id, '0.01', 'after-claim')).statusCode).toBe(181);

    // Operators: compliance and finance list trusts in claim; only finance releases.
    const listed = (await ops(complianceToken, 'GET', '/trusts?state=claim&pageSize=100')).json();
    expect(listed.statusCode).toBe(200);
    expect(listed.content.list.map((row: { id: number }) => row.id)).toContain(id);
    const release = {
      reference: 'CASE-2027-0042',
      verificationNote: 'Both beneficiaries verified by video call and ID',
    };
    expect((await ops(complianceToken, 'POST', `/trusts/${id}/release`, release)).json().statusCode).toBe(102);
    const payoutsBefore = await platformBalance(t.database.db, 'TRUST_PAYOUTS', 'BTC');
    const released = (await ops(financeToken, 'POST', `/trusts/${id}/release`, release)).json();
    expect(released.statusCode).toBe(200);
    expect(released.content).toMatchObject({
      state: 'closed',
      holding: '0.00000000',
      releaseReference: 'CASE-2027-0042',
      releasedBy: 'finance@example.com',
    });
    expect((await platformBalance(t.database.db, 'TRUST_PAYOUTS', 'BTC')) - payoutsBefore).toBe(4_900_000n);
    expect((await ops(financeToken, 'POST', `/trusts/${id}/release`, release)).json().statusCode).toBe(182);
    const audit = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'releaseTrust' AND outcome_code = 200`,
    );
    expect((audit as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });

  it('a settlor who signed in again is not reminded: the deadline follows the last sign-in', async () => {
    const session = await settlor();
    await createTrust(session, { ...validTrust, inactivityMonths: 12 });
    const signedInAt = (await t.app.identity.lastSignInAtOf([session.userId])).get(session.userId)!;
    // Six months on, half the period: nothing is due.
    const result = await t.app.trust.runInactivity(dayjs(signedInAt).add(6, 'month').toDate());
    expect(result).toEqual({ reminded: expect.any(Number), claimed: expect.any(Number) });
    expect((await mailbox(session.email)).filter((mail) => mail.tag === 'TRUST_INACTIVITY')).toEqual([]);
  });
});
