import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../platform/clock/clock.ts';
import {
  createTestApp,
  depositThroughCustody,
  mutationHeaders,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
  testRunClock,
} from '../../../test/helpers.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * Account-deletion requests through the API
 * on a fresh database: a customer sends one request with a reason (a sensitive action; a second
 * open one is 300), support replies (IN_PROGRESS, the reply in the user's messages), compliance
 * decides; DONE closes the account through the identity module's closure, which refuses (111,
 * the request stays open) while the user holds funds; support may not decide (102); a customer
 * sees only their own request; every operator write is audited; bad input names the field in
 * both languages.
 */
const CUSTODY_SECRET = 'custody-test-secret-'.padEnd(48, 'x');
/** Time moved past by hand (a rule's wait), added to the run's clock: the app's clock runs, and skips ahead. */
let skippedMs = 0;
const clock: Clock = { now: () => new Date(testRunClock.now().getTime() + skippedMs) };
let t: TestApp;
let support: string;
let compliance: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CUSTODY_WEBHOOK_SECRET: CUSTODY_SECRET, CODE_RESEND_AFTER_SECONDS: '1' } });
  await seedWallet(t.database.db);
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
  compliance = (await t.app.admin.createOperator('c1@example.com', 'compliance')).token;
  admin = (await t.app.admin.createOperator('a1@example.com', 'admin')).token;
});
afterAll(async () => {
  await t.close();
});

function ops(token: string, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en-US') {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}`, 'User-Lang': lang },
    ...(payload ? { payload } : {}),
  });
}

async function requestDeletion(session: TestSession, reason: string, lang = 'en-US') {
  // A second code for the same user is sent after the resend wait (1 s in this file): the app's
  // clock skips past it instead of the test sleeping it out.
  const emailCaptcha = await sensitiveCode(t.app, session, 'ACCOUNT_CANCEL').catch(async () => {
    skippedMs += 1100;
    return sensitiveCode(t.app, session, 'ACCOUNT_CANCEL');
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/support/deletion',
    headers: { ...session.headers, 'User-Lang': lang },
    payload: { reason, emailCaptcha },
  });
}

async function deletionState(session: TestSession) {
  return (
    await t.app.inject({ method: 'GET', url: '/api/support/deletion', headers: { cookie: session.cookie } })
  ).json().content.request;
}

async function messages(session: TestSession): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/notice/message/list',
    headers: { cookie: session.cookie },
  });
  return JSON.stringify(response.json().content);
}

describe('account-deletion requests', () => {
  it('goes PENDING → IN_PROGRESS → REJECTED with the replies in the user’s messages, audited', async () => {
    const session = await registerAndLogin(t.app);
    expect(await deletionState(session)).toBeNull();
    const sent = (await requestDeletion(session, '  I no longer use the service  ')).json();
    expect(sent.statusCode).toBe(200);
    expect(sent.content).toMatchObject({ status: 'PENDING', reason: 'I no longer use the service', reply: null });

    const queue = (await ops(support, 'GET', '/support/requests?status=PENDING')).json().content;
    const mine = queue.list.find((item: { id: string }) => item.id === sent.content.id);
    expect(mine).toMatchObject({ userId: session.userId, email: session.email, status: 'PENDING' });

    const replied = await ops(support, 'POST', `/support/requests/${sent.content.id}/reply`, {
      reply: 'Please withdraw your balance first',
    });
    expect(replied.json().content).toMatchObject({ status: 'IN_PROGRESS', repliedBy: 's1@example.com' });
    expect(await deletionState(session)).toMatchObject({
      status: 'IN_PROGRESS',
      reply: 'Please withdraw your balance first',
    });
    expect(await messages(session)).toContain('Customer service: Please withdraw your balance first');

    // Support reads and replies but does not decide.
    const refused = await ops(support, 'POST', `/support/requests/${sent.content.id}/decide`, {
      status: 'REJECTED',
      reply: 'No',
    });
    expect(refused.json().statusCode).toBe(102);

    const rejected = await ops(compliance, 'POST', `/support/requests/${sent.content.id}/decide`, {
      status: 'REJECTED',
      reply: 'We keep your account open as agreed on the phone',
    });
    expect(rejected.json().content).toMatchObject({ status: 'REJECTED', decidedBy: 'c1@example.com' });
    expect(await deletionState(session)).toMatchObject({ status: 'REJECTED' });
    expect(await messages(session)).toContain('Account deletion request declined');

    // Decided once: replying or deciding again is 301 naming the status.
    const again = await ops(support, 'POST', `/support/requests/${sent.content.id}/reply`, { reply: 'More' });
    expect(again.json()).toMatchObject({ statusCode: 301, message: expect.stringContaining('REJECTED') });

    const audit = (await ops(admin, 'GET', `/audit?targetType=support-request&targetId=${sent.content.id}`)).json()
      .content.list as { action: string; operatorEmail: string; outcomeCode: number }[];
    expect(audit.map((row) => `${row.action}:${row.outcomeCode}`).sort()).toEqual([
      'decideSupportRequest:200',
      'replySupportRequest:200',
      'replySupportRequest:301',
    ]);
  });

  it('allows one open request per user, and a new one after the last was decided', async () => {
    const session = await registerAndLogin(t.app);
    const first = (await requestDeletion(session, 'First')).json();
    expect(first.statusCode).toBe(200);
    const second = (await requestDeletion(session, 'Second', 'zh-HK')).json();
    expect(second).toMatchObject({ statusCode: 300, message: '你已有一項處理中的刪除帳戶申請' });
    await ops(compliance, 'POST', `/support/requests/${first.content.id}/decide`, { status: 'REJECTED', reply: 'No' });
    expect((await requestDeletion(session, 'Third')).json().content).toMatchObject({ status: 'PENDING' });
  });

  it('DONE is refused (111, naming the holdings) while the user holds funds, then closes an empty account', async () => {
    const holder = await registerAndLogin(t.app);
    await depositThroughCustody(t.app, CUSTODY_SECRET, holder.userId, '25');
    const held = (await requestDeletion(holder, 'Moving abroad')).json().content;
    const refused = (
      await ops(compliance, 'POST', `/support/requests/${held.id}/decide`, { status: 'DONE', reply: 'Done' })
    ).json();
    expect(refused.statusCode).toBe(111);
    expect(refused.message).toContain('USDT');
    expect(await deletionState(holder)).toMatchObject({ status: 'PENDING' });

    const empty = await registerAndLogin(t.app);
    const request = (await requestDeletion(empty, 'Not needed')).json().content;
    const done = (
      await ops(admin, 'POST', `/support/requests/${request.id}/decide`, { status: 'DONE', reply: 'Closed as asked' })
    ).json();
    expect(done.content).toMatchObject({ status: 'DONE', decidedBy: 'a1@example.com' });
    // The account is closed: its session is gone.
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/support/deletion',
      headers: { cookie: empty.cookie },
    });
    expect(after.json().statusCode).toBe(101);
    const row = (await ops(support, 'GET', '/support/requests?status=DONE')).json().content.list[0];
    expect(row).toMatchObject({ id: request.id, email: `closed+${empty.userId}@deleted.invalid` });
  });

  it('shows a customer only their own request, and keeps customers and operators apart', async () => {
    const owner = await registerAndLogin(t.app);
    const other = await registerAndLogin(t.app);
    await requestDeletion(owner, 'Mine');
    expect(await deletionState(other)).toBeNull();
    // A customer's session is no operator: 101 on the back office's list.
    const asCustomer = await t.app.inject({
      method: 'GET',
      url: '/api/admin/support/requests',
      headers: { cookie: owner.cookie },
    });
    expect(asCustomer.json().statusCode).toBe(101);
  });

  it('names the field of bad input in both languages and changes nothing', async () => {
    const session = await registerAndLogin(t.app);
    const empty = (await requestDeletion(session, '   ')).json();
    expect(empty).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'reason' })] },
    });
    const long = (await requestDeletion(session, 'x'.repeat(1001), 'zh-HK')).json();
    expect(long).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'reason' })] },
    });
    expect(long.message).toMatch(/[\u4e00-\u9fff]/);
    expect(await deletionState(session)).toBeNull();
    const sent = (await requestDeletion(session, 'Valid')).json().content;
    const badReply = (await ops(support, 'POST', `/support/requests/${sent.id}/reply`, { reply: '' })).json();
    expect(badReply).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'reply' })] },
    });
    const badStatus = (
      await ops(
        compliance,
        'POST',
        `/support/requests/${sent.id}/decide`,
        { status: 'IN_PROGRESS', reply: 'x' },
        'zh-HK',
      )
    ).json();
    expect(badStatus).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'status' })] },
    });
    expect(await deletionState(session)).toMatchObject({ status: 'PENDING', reply: null });
  });
});
