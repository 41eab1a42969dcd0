import { KYC_STATUS } from '@meridian/contracts/kyc';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type TestSession } from '../../../test/helpers.ts';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import { createKycKit, INDIVIDUAL_PROFILE, type KycKit, LOW_RISK_AML_ANSWERS } from './kyc.test-kit.ts';

/**
 * The identity-verification review queue and what follows a decision, through the real app: the operators'
 * queue over every step (basic, investor, AML enhanced review, QI, change of residence), oldest
 * first, filtered by step and status; `user/self` states read from the KYC rows; a change of
 * residence reviewed while the user keeps their level, the tax form superseded on a new country,
 * a new form asked for within 30 days, level 2 lapsing without it and coming back with it.
 */
let kit: KycKit;

const lowRiskAnswers = LOW_RISK_AML_ANSWERS;
const individualProfile = INDIVIDUAL_PROFILE;
const hkTaxForm = { form: 'W8BEN', isUsBorn: false, residences: [{ country: 'HK', tin: 'A1234563' }] };

const levelOf = async (userId: string) => {
  const result = await kit.t.database.db.execute(sql`SELECT kyc_level FROM users WHERE id = ${userId}::uuid`);
  return Number((result as unknown as { rows: { kyc_level: number }[] }).rows[0]?.kyc_level);
};
const queue = async (query = '') => (await kit.ops(kit.viewerToken, 'GET', `/kyc${query}`)).json();
const messagesOf = async (session: TestSession) =>
  JSON.stringify((await kit.get(session, '/api/notice/message/list?pageSize=50')).json().content);

/** A user at level 2 through every step: basic and investor profile approved, AML accepted, an HK tax form. */
async function investorUser(): Promise<TestSession> {
  const session = await kit.verifiedUser();
  await kit.post(session, '/api/user/identity/investor', individualProfile);
  expect((await kit.post(session, '/api/user/identity/commit')).json().statusCode).toBe(200);
  expect(
    (await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/investor/approve`)).json().statusCode,
  ).toBe(200);
  expect((await kit.post(session, '/api/investor/aml', lowRiskAnswers)).json().statusCode).toBe(200);
  expect((await kit.post(session, '/api/investor/tax', hkTaxForm)).json().statusCode).toBe(200);
  expect(await levelOf(session.userId)).toBe(2);
  return session;
}

beforeAll(async () => {
  kit = await createKycKit();
});
afterAll(async () => {
  await kit?.close();
});

describe('review queue (GET ops/kyc, kyc list)', () => {
  it('lists every step awaiting a decision, oldest first, with the step, submission time and decision due', async () => {
    // One of each, in this order: basic KYC, investor profile, AML answers in enhanced review, QI.
    const basic = await kit.readyUser();
    expect((await kit.post(basic, '/api/user/commit')).json().statusCode).toBe(200);
    const investor = await kit.verifiedUser();
    await kit.post(investor, '/api/user/identity/investor', individualProfile);
    expect((await kit.post(investor, '/api/user/identity/commit')).json().statusCode).toBe(200);
    const aml = await kit.verifiedUser();
    const high = (await kit.post(aml, '/api/investor/aml', { ...lowRiskAnswers, isPoliticallyExposed: true })).json();
    expect(high.content.current.status).toBe('enhancedReview');
    const qualified = await registerAndLogin(kit.t.app);
    await kit.t.app.identity.setKycLevel(qualified.userId, 2);
    await kit.upload(qualified, [{ fieldName: 'qualifiedEvidence', fileName: 'statement.pdf', bytes: kit.pdf }]);
    const applied = await kit.post(qualified, '/api/investor/qualify', {
      type: 'individual',
      portfolioHkd: '8000000',
      isDeclared: true,
    });
    expect(applied.json().statusCode).toBe(200);

    const all = await queue();
    expect(all.statusCode).toBe(200);
    expect(all.content.totalCount).toBe(4);
    expect(all.content.list.map((item: { userId: string; step: string }) => [item.step, item.userId])).toEqual([
      ['basic', basic.userId],
      ['investor', investor.userId],
      ['aml', aml.userId],
      ['qualified', qualified.userId],
    ]);
    for (const item of all.content.list) {
      expect(item).toMatchObject({ status: KYC_STATUS.UNDER_REVIEW, email: expect.stringContaining('@') });
      expect(Date.parse(item.expectedDecisionAt)).toBeGreaterThan(Date.parse(item.submittedAt));
    }
    const submittedAts = all.content.list.map((item: { submittedAt: string }) => item.submittedAt);
    expect([...submittedAts].sort()).toEqual(submittedAts);
    // The AML entry carries the answers with their score for the reviewer.
    expect(all.content.list[2].submitted).toMatchObject({ isPoliticallyExposed: true, points: 40, level: 'high' });

    // Status alone (as the e2e and older callers send it) is the same queue; step narrows it; pages.
    expect((await queue('?status=2')).content.list).toHaveLength(4);
    const amlOnly = (await queue('?step=aml')).content;
    expect(amlOnly.list.map((item: { userId: string }) => item.userId)).toEqual([aml.userId]);
    const paged = (await queue('?pageSize=2&pageID=2')).content;
    expect(paged).toMatchObject({ totalCount: 4, totalPage: 2 });
    expect(paged.list.map((item: { step: string }) => item.step)).toEqual(['aml', 'qualified']);
    // Verified basic KYC is status 1; AML answers map onto the same numbers (none accepted yet here).
    const verified = (await queue('?status=1&step=basic')).content.list.map((item: { userId: string }) => item.userId);
    expect(verified).toEqual(expect.arrayContaining([investor.userId, aml.userId]));
    expect((await queue('?status=1&step=aml')).content.list).toEqual([]);

    // A bad step is refused naming the field.
    const bad = await queue('?step=everything');
    expect(bad.statusCode).toBe(120);
    expect(bad.content.fields.map((field: { field: string }) => field.field)).toEqual(['step']);

    // A decision takes the entry off the queue.
    await kit.ops(kit.complianceToken, 'POST', `/kyc/${aml.userId}/aml/approve`);
    expect((await queue()).content.list.map((item: { step: string }) => item.step)).toEqual([
      'basic',
      'investor',
      'qualified',
    ]);
  });
});

describe('user/self status', () => {
  it('shows none, Under Review, Failed with the reason, then Verified with the verified name, from the rows', async () => {
    const session = await kit.readyUser();
    const self = async () => (await kit.get(session, '/api/user/self')).json().content;
    expect((await self()).status).toEqual({
      user: { status: KYC_STATUS.NONE, message: '' },
      investor: { status: KYC_STATUS.NONE, message: '' },
      aml: 0,
      qualify: 0,
    });
    await kit.post(session, '/api/user/commit');
    expect((await self()).status.user).toEqual({ status: KYC_STATUS.UNDER_REVIEW, message: '' });
    await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/reject`, { reason: 'The selfie is blurred' });
    expect((await self()).status.user).toEqual({ status: KYC_STATUS.FAILED, message: 'The selfie is blurred' });
    await kit.post(session, '/api/user/commit');
    await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/approve`);
    const verified = await self();
    expect(verified.status.user).toEqual({ status: KYC_STATUS.VERIFIED, message: '' });
    expect(verified.identity.basic).toEqual({ firstName: 'Tai Man', lastName: 'Chan', country: 'HK' });
    await kit.post(session, '/api/user/identity/investor', individualProfile);
    await kit.post(session, '/api/user/identity/commit');
    expect((await self()).status.investor).toEqual({ status: KYC_STATUS.UNDER_REVIEW, message: '' });
  });

  it('shows a level given without rows (test fixtures only; the product reaches a level through the steps) as Verified', async () => {
    const session = await registerAndLogin(kit.t.app);
    await kit.t.app.identity.setKycLevel(session.userId, 2);
    expect((await kit.get(session, '/api/user/self')).json().content.status).toEqual({
      user: { status: KYC_STATUS.VERIFIED, message: '' },
      investor: { status: KYC_STATUS.VERIFIED, message: '' },
      aml: KYC_STATUS.VERIFIED,
      qualify: 0,
    });
  });
});

describe('change of residence and the tax form', () => {
  const newProof = () => [{ fieldName: 'proofOfAddress', fileName: 'sg-bill.pdf', bytes: kit.pdf }];
  const report = (session: TestSession, body: object, locale = 'en-US') =>
    kit.post(session, '/api/user/identity/residence', body, locale);
  const today = () => kit.t.app.clock.now().toISOString().slice(0, 10);

  it('refuses a change without a verified identity, or with bad fields naming each, changing nothing', async () => {
    const unverified = await kit.readyUser();
    await kit.t.app.identity.setKycLevel(unverified.userId, 1);
    const refused = (
      await report(unverified, { residence: 'SG', address: '1 Raffles Place', proofOfAddressDate: today() })
    ).json();
    expect(refused.statusCode).toBe(148);

    const session = await kit.verifiedUser();
    const bad = (
      await report(session, { residence: 'ZZ', address: '1 Raffles Place', proofOfAddressDate: '2020-01-01' }, 'zh-HK')
    ).json();
    expect(bad.statusCode).toBe(120);
    expect(bad.content.fields).toEqual([
      { field: 'residence', message: '請選擇國家或地區' },
      { field: 'proofOfAddressDate', message: '住址證明須為最近 90 日內發出' },
      { field: 'proofOfAddress', message: '請上載此文件' },
    ]);
    const missing = (await report(session, { residence: 'SG' })).json();
    expect(missing.content.fields.map((field: { field: string }) => field.field)).toEqual([
      'address',
      'proofOfAddressDate',
    ]);
    expect((await kit.get(session, '/api/user/identity/residence')).json().content).toEqual({ current: null });
    // The same residence and address as on file is no change.
    await kit.upload(session, newProof());
    const same = (
      await report(session, {
        residence: 'HK',
        address: 'Flat 1, 2 Queen’s Road Central, Hong Kong',
        proofOfAddressDate: today(),
      })
    ).json();
    expect(same.content.fields).toEqual([
      { field: 'address', message: 'This is the residence and address already on file' },
    ]);
  });

  it('a new country: reviewed at the same level, then the tax form superseded and a new one due in 30 days; level 2 lapses without it and returns with it', async () => {
    const session = await investorUser();
    expect((await kit.upload(session, newProof())).json().statusCode).toBe(200);
    const reported = (
      await report(session, { residence: 'SG', address: '1 Raffles Place, Singapore', proofOfAddressDate: today() })
    ).json();
    expect(reported.content.current).toMatchObject({
      status: KYC_STATUS.UNDER_REVIEW,
      previousResidence: 'HK',
      submitted: { residence: 'SG', documents: { proofOfAddress: expect.any(String) } },
    });
    // Under review: the level and the identity on file stay; a second report and more uploads wait.
    expect(await levelOf(session.userId)).toBe(2);
    expect((await kit.get(session, '/api/user/info')).json().content.submitted.residence).toBe('HK');
    expect(
      (await report(session, { residence: 'SG', address: 'Elsewhere', proofOfAddressDate: today() })).json().statusCode,
    ).toBe(141);
    expect((await kit.upload(session, newProof())).json().statusCode).toBe(141);
    const queued = (await queue('?step=residence')).content.list;
    expect(queued).toMatchObject([{ userId: session.userId, step: 'residence', status: KYC_STATUS.UNDER_REVIEW }]);
    expect(queued[0].submitted.previousResidence).toBe('HK');

    const approvedAt = kit.t.app.clock.now().getTime();
    expect(
      (await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/residence/approve`)).json().statusCode,
    ).toBe(200);
    expect((await kit.get(session, '/api/user/info')).json().content.submitted).toMatchObject({
      residence: 'SG',
      address: '1 Raffles Place, Singapore',
    });
    const tax = (await kit.get(session, '/api/investor/tax')).json().content;
    expect(tax).toMatchObject({ current: null, supersededCount: 1, isNewFormRequired: true });
    const dueMs = Date.parse(tax.newFormDueAt) - approvedAt;
    expect(Math.abs(dueMs - 30 * 86_400_000)).toBeLessThan(60_000);
    const messages = await messagesOf(session);
    expect(messages).toContain('Change of residence approved');
    expect(messages).toContain('A new tax form is needed');
    // The message gives the due date as a Hong Kong day (one day after the UTC date from 16:00 UTC).
    expect(messages).toContain(hongKongDay(new Date(tax.newFormDueAt)));
    // KYC messages also go by email (delivered after the commit by the notices module).
    const mailbox = async () =>
      JSON.stringify(
        (
          await kit.t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(session.email)}` })
        ).json().content,
      );
    await expect.poll(mailbox, { timeout: 10_000 }).toContain('A new tax form is needed');
    expect(await levelOf(session.userId)).toBe(2);

    // The daily job: nothing before the due time; after it, level 1 and a message, once.
    const due = Date.parse(tax.newFormDueAt);
    const run = (at: number) =>
      kit.t.database.db.transaction((tx) => kit.t.app.kyc.runTaxFormDeadlines(new Date(at), tx));
    expect(await run(due - 86_400_000)).toEqual({ lapsed: 0 });
    expect(await levelOf(session.userId)).toBe(2);
    expect(await run(due + 60_000)).toEqual({ lapsed: 1 });
    expect(await levelOf(session.userId)).toBe(1);
    expect(await run(due + 86_400_000)).toEqual({ lapsed: 0 });
    expect(await messagesOf(session)).toContain('Investor services suspended');

    // Filing a new form (the other conditions still hold) restores level 2.
    const filed = (
      await kit.post(session, '/api/investor/tax', {
        form: 'W8BEN',
        isUsBorn: false,
        residences: [{ country: 'SG', tin: 'S1234567D' }],
      })
    ).json().content;
    expect(filed).toMatchObject({ isNewFormRequired: false, newFormDueAt: null, current: { form: 'W8BEN' } });
    expect(await levelOf(session.userId)).toBe(2);
  });

  it('a new form filed in time keeps level 2; a move within the country asks for no form; a rejected change changes nothing', async () => {
    const session = await investorUser();
    await kit.upload(session, newProof());
    await report(session, { residence: 'SG', address: '1 Raffles Place, Singapore', proofOfAddressDate: today() });
    await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/residence/approve`);
    const due = Date.parse((await kit.get(session, '/api/investor/tax')).json().content.newFormDueAt);
    await kit.post(session, '/api/investor/tax', {
      form: 'W8BEN',
      isUsBorn: false,
      residences: [{ country: 'SG', tin: 'S1234567D' }],
    });
    const run = (at: number) =>
      kit.t.database.db.transaction((tx) => kit.t.app.kyc.runTaxFormDeadlines(new Date(at), tx));
    expect(await run(due + 86_400_000)).toEqual({ lapsed: 0 });
    expect(await levelOf(session.userId)).toBe(2);

    // A new address in the same country: approved, the tax form stays on file.
    await kit.upload(session, newProof());
    await report(session, { residence: 'SG', address: '2 Orchard Road, Singapore', proofOfAddressDate: today() });
    await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/residence/approve`);
    expect((await kit.get(session, '/api/investor/tax')).json().content).toMatchObject({
      isNewFormRequired: false,
      current: { form: 'W8BEN' },
    });

    // Rejected: Failed with the reason; the identity on file keeps its address.
    await kit.upload(session, newProof());
    await report(session, { residence: 'JP', address: '1 Chiyoda, Tokyo', proofOfAddressDate: today() });
    const rejected = await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/residence/reject`, {
      reason: 'The bill is not in your name',
    });
    expect(rejected.json().statusCode).toBe(200);
    expect((await kit.get(session, '/api/user/identity/residence')).json().content.current).toMatchObject({
      status: KYC_STATUS.FAILED,
      message: 'The bill is not in your name',
    });
    expect((await kit.get(session, '/api/user/info')).json().content.submitted.address).toBe(
      '2 Orchard Road, Singapore',
    );
    expect((await kit.get(session, '/api/investor/tax')).json().content.current).not.toBeNull();
    expect(
      (await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/residence/approve`)).json().statusCode,
    ).toBe(142);
  });
});
