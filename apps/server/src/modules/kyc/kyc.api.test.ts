import { KYC_STATUS } from '@meridian/contracts/kyc';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import dayjs from 'dayjs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, solveHumanCheck, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { kycBasic, kycDecisions, kycDocuments } from './kyc.tables.ts';
import {
  createKycKit,
  INDIVIDUAL_PROFILE,
  type KycKit,
  type KycTestFile,
  LOW_RISK_AML_ANSWERS,
  validDraft,
} from './kyc.test-kit.ts';

/**
 * Basic identity verification through the real app (docs/kyc.md "Basic KYC (level 1)"): draft, documents, commit
 * with every rule refused naming the field, second commit refused, owner-only document reads,
 * reviewers with the `compliance` role, approval raising the level (the withdrawal gate opens),
 * rejection messaged with its reason and a resubmission.
 */
const TRON_ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let kit: KycKit;
let t: TestApp;
let png: Buffer;
let pdf: Buffer;
let complianceToken: string;
let viewerToken: string;
let withdrawalsToken: string;

const upload = (session: TestSession, files: KycTestFile[], locale?: string) => kit.upload(session, files, locale);
const post = (session: TestSession, url: string, payload?: object, locale?: string) =>
  kit.post(session, url, payload, locale);
const info = async (session: TestSession) => (await kit.get(session, '/api/user/info')).json().content;
const ops = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  kit.ops(token, method, `/kyc${url}`, payload);

const ALL_DOCUMENTS = () => [
  { fieldName: 'idFront', fileName: 'front.png', bytes: png },
  { fieldName: 'idBack', fileName: 'back.png', bytes: png },
  { fieldName: 'selfie', fileName: 'selfie.png', bytes: png },
  { fieldName: 'proofOfAddress', fileName: 'bill.pdf', bytes: pdf },
];

/** A user with a valid draft and every document, ready to commit. */
const readyUser = (): Promise<TestSession> => kit.readyUser();

const withdrawCheck = (session: TestSession) =>
  t.app.inject({
    method: 'POST',
    url: '/api/wallet/withdraw/check',
    headers: { ...session.headers, 'api-version': '2.0' },
    payload: { coin: 'USDT', network: 'TRC20', address: TRON_ADDRESS, amount: '20' },
  });

beforeAll(async () => {
  kit = await createKycKit();
  ({ t, png, pdf, complianceToken, viewerToken } = kit);
  await seedWallet(t.database.db);
  withdrawalsToken = (await t.app.admin.createOperator('withdrawals@example.com', 'finance')).token;
});
afterAll(async () => {
  await kit?.close();
});

describe('draft', () => {
  it('saves any step half-filled, keeps it across sign-out, refuses unknown and over-long fields', async () => {
    const session = await registerAndLogin(t.app);
    expect((await info(session)).status).toBe(KYC_STATUS.NONE);
    expect((await post(session, '/api/user/info', { firstName: 'Tai' })).json().content.draft).toEqual({
      firstName: 'Tai',
    });
    await post(session, '/api/user/info', { lastName: 'Chan' });
    await post(session, '/api/user/logout');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json', [HEADER_CSRF]: CSRF_HEADER_VALUE },
      payload: { email: session.email, password: session.password, token: await solveHumanCheck(t.app) },
    });
    const cookie = again.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    const state = (await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { cookie } })).json().content;
    expect(state.draft).toEqual({ firstName: 'Tai', lastName: 'Chan' });

    const signedInAgain: TestSession = { ...session, cookie, headers: { ...session.headers, cookie } };
    const unknown = (await post(signedInAgain, '/api/user/info', { favouriteColour: 'red' })).json();
    expect(unknown.statusCode).toBe(120);
    const tooLong = (await post(signedInAgain, '/api/user/info', { address: 'x'.repeat(201) })).json();
    expect(tooLong.statusCode).toBe(120);
    expect(tooLong.content.fields[0].field).toBe('address');
  });
});

describe('documents', () => {
  it('refuses a script renamed .png, 11 files, and an unknown kind, storing nothing', async () => {
    const session = await registerAndLogin(t.app);
    const script = (
      await upload(session, [
        { fieldName: 'idFront', fileName: 'front.png', bytes: Buffer.from('<script>alert(1)</script>') },
      ])
    ).json();
    expect(script.statusCode).toBe(120);
    expect(script.content.fields[0]).toEqual({
      field: 'files',
      message: 'front.png: File format not supported yet (JPG, PNG or PDF)',
    });

    const eleven = (
      await upload(
        session,
        Array.from({ length: 11 }, (_, index) => ({ fieldName: 'idFront', fileName: `p${index}.png`, bytes: png })),
      )
    ).json();
    expect(eleven.statusCode).toBe(120);
    expect(eleven.content.fields[0].message).toBe('At most 10 files per submission');

    const stranger = (
      await upload(
        session,
        [
          { fieldName: 'idFront', fileName: 'a.png', bytes: png },
          { fieldName: 'passportPhoto', fileName: 'b.png', bytes: png },
        ],
        'zh-HK',
      )
    ).json();
    expect(stranger.statusCode).toBe(120);
    expect(stranger.content.fields[0].message).toContain('b.png：未知的文件類別');

    const longName = (
      await upload(session, [{ fieldName: 'idFront', fileName: `${'n'.repeat(47)}.png`, bytes: png }])
    ).json();
    expect(longName.content.fields[0].message).toContain('File name exceeded');

    expect(await t.database.db.select().from(kycDocuments).where(eq(kycDocuments.userId, session.userId))).toHaveLength(
      0,
    );
  });

  it('serves a document to its owner only; another user gets not found', async () => {
    const owner = await registerAndLogin(t.app);
    const stored = (await upload(owner, [{ fieldName: 'proofOfAddress', fileName: 'bill.pdf', bytes: pdf }])).json()
      .content;
    expect(stored[0]).toMatchObject({ kind: 'proofOfAddress', fileName: 'bill.pdf', mimeType: 'application/pdf' });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/user/identity/document/${stored[0].id}`,
      headers: { cookie: owner.cookie },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('application/pdf');
    expect(read.rawPayload.equals(pdf)).toBe(true);

    const other = await registerAndLogin(t.app);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/user/identity/document/${stored[0].id}`,
      headers: { cookie: other.cookie },
    });
    expect(refused.json().statusCode).toBe(104);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/user/identity/document/${stored[0].id}` });
    expect(anonymous.json().statusCode).toBe(101);
  });
});

describe('commit', () => {
  it('refuses every rule naming the field, in the user language, and changes nothing', async () => {
    const session = await registerAndLogin(t.app);
    await upload(session, ALL_DOCUMENTS());
    const cases: [Record<string, string>, string, string][] = [
      [{ firstName: 'Tài' }, 'firstName', 'Enter the name in English characters, as on the document'],
      [{ lastName: '' }, 'lastName', 'This field is required'],
      [
        { dateOfBirth: dayjs(t.app.clock.now()).subtract(17, 'year').format('YYYY-MM-DD') },
        'dateOfBirth',
        'You must be at least 18 years old',
      ],
      [{ dateOfBirth: '1990-02-31' }, 'dateOfBirth', 'Enter a valid date of birth'],
      [{ nationality: 'XX' }, 'nationality', 'Select a country or region'],
      [{ residence: 'hk' }, 'residence', 'Select a country or region'],
      [{ idType: 'library card' }, 'idType', 'Select an ID type'],
      [{ idNumber: 'A123456(4)' }, 'idNumber', 'Enter a valid HKID number, such as A123456(3)'],
      [{ idType: 'passport', idNumber: 'AB12' }, 'idNumber', 'A passport number has 6 to 9 letters or digits'],
      [{ address: '   ' }, 'address', 'This field is required'],
      [
        { proofOfAddressDate: dayjs(t.app.clock.now()).subtract(91, 'day').format('YYYY-MM-DD') },
        'proofOfAddressDate',
        'The proof of address must be dated within the last 90 days',
      ],
      [{ proofOfAddressDate: 'yesterday' }, 'proofOfAddressDate', 'Enter the issue date of the proof of address'],
    ];
    for (const [change, field, message] of cases) {
      await post(session, '/api/user/info', { ...validDraft(t.app.clock.now()), ...change });
      const answer = (await post(session, '/api/user/commit')).json();
      expect(answer.statusCode, field).toBe(120);
      expect(answer.content.fields, field).toContainEqual({ field, message });
    }
    await post(session, '/api/user/info', { ...validDraft(t.app.clock.now()), firstName: '陳' });
    const chinese = (await post(session, '/api/user/commit', undefined, 'zh-HK')).json();
    expect(chinese.content.fields).toContainEqual({ field: 'firstName', message: '請以英文字母輸入姓名，與證件相同' });
    expect((await info(session)).status).toBe(KYC_STATUS.NONE);
  });

  it('refuses a missing document naming it, and records nothing', async () => {
    const session = await registerAndLogin(t.app);
    await post(session, '/api/user/info', validDraft(t.app.clock.now()));
    await upload(
      session,
      ALL_DOCUMENTS().filter((file) => file.fieldName !== 'idBack'),
    );
    const answer = (await post(session, '/api/user/commit')).json();
    expect(answer.statusCode).toBe(120);
    expect(answer.content.fields).toEqual([{ field: 'idBack', message: 'Please upload this document' }]);
    const [row] = await t.database.db.select().from(kycBasic).where(eq(kycBasic.userId, session.userId));
    expect(row?.status).toBe(KYC_STATUS.NONE);
    expect(row?.submitted).toBeNull();
    // A passport has no back: the same documents are enough.
    await post(session, '/api/user/info', { idType: 'passport', idNumber: 'k1234567' });
    expect((await post(session, '/api/user/commit')).json().content.submitted).toMatchObject({
      idType: 'passport',
      idNumber: 'K1234567',
    });
  });

  it('moves to Under Review with a decision due in 1 HK working day, freezes the fields, refuses a second commit', async () => {
    const session = await readyUser();
    const answer = (await post(session, '/api/user/commit')).json();
    expect(answer.statusCode).toBe(200);
    const state = answer.content;
    expect(state.status).toBe(KYC_STATUS.UNDER_REVIEW);
    expect(state.submitted).toMatchObject({
      firstName: 'Tai Man',
      idNumber: 'A123456(3)',
      documents: { idFront: expect.any(String), idBack: expect.any(String) },
    });
    const dueMs = Date.parse(state.expectedDecisionAt) - Date.parse(state.submittedAt);
    expect(dueMs).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(dueMs).toBeLessThanOrEqual(12 * 24 * 3600 * 1000);

    expect((await post(session, '/api/user/commit')).json().statusCode).toBe(141);
    expect((await post(session, '/api/user/info', { firstName: 'Changed' })).json().statusCode).toBe(141);
    expect((await upload(session, [{ fieldName: 'selfie', fileName: 's.png', bytes: png }])).json().statusCode).toBe(
      141,
    );
    expect((await info(session)).draft.firstName).toBe('Tai Man');
  });
});

describe('review', () => {
  it('needs an operator with the compliance role', async () => {
    const session = await readyUser();
    await post(session, '/api/user/commit');
    expect((await ops('wrong', 'GET', '')).json().statusCode).toBe(101);
    expect((await ops(withdrawalsToken, 'GET', '')).json().statusCode).toBe(102);
    expect((await ops(viewerToken, 'POST', `/${session.userId}/approve`)).json().statusCode).toBe(102);
    expect((await ops(withdrawalsToken, 'POST', `/${session.userId}/reject`, { reason: 'no' })).json().statusCode).toBe(
      102,
    );
    const listed = (await ops(viewerToken, 'GET', '?pageSize=100')).json().content;
    expect(listed.list.map((item: { userId: string }) => item.userId)).toContain(session.userId);
    expect((await info(session)).status).toBe(KYC_STATUS.UNDER_REVIEW);
  });

  it('approve → Verified, level 1, audited, messaged; the withdrawal gate opens', async () => {
    const session = await readyUser();
    await post(session, '/api/user/commit');
    expect((await withdrawCheck(session)).json()).toMatchObject({
      statusCode: 143,
      content: { step: 'basic', route: '/identity/basic' },
    });
    const shown = (await ops(complianceToken, 'GET', `/${session.userId}`)).json().content;
    expect(shown.email).toBe(session.email);
    expect(shown.documents).toHaveLength(4);
    const approved = (await ops(complianceToken, 'POST', `/${session.userId}/approve`)).json();
    expect(approved.statusCode).toBe(200);
    expect(approved.content.decisions).toEqual([
      {
        subject: 'basic',
        decision: 'approve',
        operatorEmail: 'compliance@example.com',
        reason: null,
        createdAt: expect.any(String),
      },
    ]);
    expect((await info(session)).status).toBe(KYC_STATUS.VERIFIED);
    expect((await t.app.identity.self(session.userId)).status.user.status).toBe(1);
    expect((await withdrawCheck(session)).json().statusCode).not.toBe(143);
    // Address screening: a destination on the OFAC list is refused, for a withdrawal and the address book.
    const sanctioned = 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR';
    const screened = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw/check',
      headers: { ...session.headers, 'api-version': '2.0' },
      payload: { coin: 'USDT', network: 'TRC20', address: sanctioned, amount: '20' },
    });
    expect(screened.json().content.fields).toEqual([
      { field: 'address', message: 'This address is on a sanctions list and cannot be used' },
    ]);
    const book = await post(session, '/api/wallet/addressbook', {
      label: 'Sanctioned',
      network: 'TRC20',
      address: sanctioned,
      emailCaptcha: '000000',
    });
    expect(book.json().content.fields).toEqual([
      { field: 'address', message: 'This address is on a sanctions list and cannot be used' },
    ]);
    expect((await ops(complianceToken, 'POST', `/${session.userId}/approve`)).json().statusCode).toBe(142);

    const messages = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    expect(JSON.stringify(messages)).toContain('Identity verified');
    // A reviewer reads the user's documents through the operator API; other roles may not.
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/admin/kyc/documents/${shown.documents[0].id}`,
      headers: { authorization: `Bearer ${complianceToken}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.length).toBeGreaterThan(0);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/admin/kyc/documents/${shown.documents[0].id}`,
      headers: { authorization: `Bearer ${withdrawalsToken}` },
    });
    expect(refused.json().statusCode).toBe(102);
  });

  it('reject → Failed with the reason in a message and email → the user fixes it and resubmits', async () => {
    const session = await readyUser();
    await post(session, '/api/user/commit');
    expect((await ops(complianceToken, 'POST', `/${session.userId}/reject`, { reason: '' })).json().statusCode).toBe(
      120,
    );
    const rejected = (
      await ops(complianceToken, 'POST', `/${session.userId}/reject`, { reason: 'The selfie is blurred' })
    ).json();
    expect(rejected.statusCode).toBe(200);
    const state = await info(session);
    expect(state).toMatchObject({ status: KYC_STATUS.FAILED, message: 'The selfie is blurred' });
    const messages = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    expect(JSON.stringify(messages)).toContain('The selfie is blurred');
    const [decision] = await t.database.db.select().from(kycDecisions).where(eq(kycDecisions.userId, session.userId));
    expect(decision).toMatchObject({
      decision: 'reject',
      operatorEmail: 'compliance@example.com',
      reason: 'The selfie is blurred',
    });
    expect(decision?.submission).toMatchObject({ firstName: 'Tai Man' });

    expect(
      (await upload(session, [{ fieldName: 'selfie', fileName: 'selfie2.png', bytes: png }])).json().statusCode,
    ).toBe(200);
    const again = (await post(session, '/api/user/commit')).json();
    expect(again.content).toMatchObject({ status: KYC_STATUS.UNDER_REVIEW, message: '' });
    // user/self reads the row: Under Review again (not the level's 0).
    expect((await t.app.identity.self(session.userId)).status.user).toEqual({
      status: KYC_STATUS.UNDER_REVIEW,
      message: '',
    });
  });
});

describe('investor profile, AML questionnaire and tax form → level 2', () => {
  const lowRiskAnswers = LOW_RISK_AML_ANSWERS;

  async function verifiedUser(): Promise<TestSession> {
    const session = await readyUser();
    await post(session, '/api/user/commit');
    expect((await ops(complianceToken, 'POST', `/${session.userId}/approve`)).json().statusCode).toBe(200);
    return session;
  }

  it('needs basic verification first, naming the step', async () => {
    const session = await registerAndLogin(t.app);
    const refused = (await post(session, '/api/investor/aml', lowRiskAnswers)).json();
    expect(refused).toMatchObject({ statusCode: 143, content: { step: 'basic', route: '/identity/basic' } });
  });

  it('refuses a company profile with empty fields, small owners and missing documents, naming each', async () => {
    const session = await verifiedUser();
    const company = {
      companyName: ' ',
      registrationNumber: '12345678',
      registeredAddress: '1 Harbour Road, Hong Kong',
      countryOfIncorporation: 'HK',
      directors: [{ name: 'Chan Tai Man', idNumber: 'A1234563' }],
      beneficialOwners: [{ name: 'Lee Siu Ming', idNumber: 'B7654321', sharePercent: '20' }],
    };
    expect((await post(session, '/api/user/identity/investor', { type: 'company', company })).json().statusCode).toBe(
      200,
    );
    const answer = (await post(session, '/api/user/identity/commit')).json();
    expect(answer.statusCode).toBe(120);
    const fields = answer.content.fields.map((item: { field: string }) => item.field);
    expect(fields).toEqual(expect.arrayContaining(['company.companyName', 'company.beneficialOwners.0.sharePercent']));

    await post(session, '/api/user/identity/investor', {
      type: 'company',
      company: {
        ...company,
        companyName: 'Example Holdings Ltd',
        beneficialOwners: [{ ...company.beneficialOwners[0], sharePercent: '25' }],
      },
    });
    const missing = (await post(session, '/api/user/identity/commit')).json();
    expect(missing.content.fields).toEqual([
      { field: 'certificateOfIncorporation', message: 'Please upload this document' },
      { field: 'registerOfDirectors', message: 'Please upload this document' },
    ]);
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/user/identity/investor', headers: { cookie: session.cookie } })
      ).json().content.status,
    ).toBe(KYC_STATUS.NONE);
  });

  it("takes a verified user's company documents; each kind is locked by its own step", async () => {
    const session = await verifiedUser();
    // Basic KYC is Verified: its documents are locked, the investor profile's are not.
    expect((await upload(session, [{ fieldName: 'idFront', fileName: 'id.png', bytes: png }])).json().statusCode).toBe(
      141,
    );
    const companyFiles = [
      { fieldName: 'certificateOfIncorporation', fileName: 'certificate.pdf', bytes: pdf },
      { fieldName: 'registerOfDirectors', fileName: 'register.pdf', bytes: pdf },
    ];
    expect((await upload(session, companyFiles)).json().statusCode).toBe(200);
    const company = {
      companyName: 'Example Holdings Ltd',
      registrationNumber: '12345678',
      registeredAddress: '1 Harbour Road, Hong Kong',
      countryOfIncorporation: 'HK',
      directors: [{ name: 'Chan Tai Man', idNumber: 'A1234563' }],
      beneficialOwners: [{ name: 'Lee Siu Ming', idNumber: 'B7654321', sharePercent: '60' }],
    };
    await post(session, '/api/user/identity/investor', { type: 'company', company });
    expect((await post(session, '/api/user/identity/commit')).json().content.status).toBe(KYC_STATUS.UNDER_REVIEW);
    // Under review, the company documents are locked too; nothing more is stored.
    expect((await upload(session, companyFiles)).json().statusCode).toBe(141);
  });

  it('keeps every AML version; high risk goes to enhanced review; W-9 rules; all approved → level 2', async () => {
    const session = await verifiedUser();
    // Investor profile (individual) → Under Review → approved.
    await post(session, '/api/user/identity/investor', INDIVIDUAL_PROFILE);
    expect((await post(session, '/api/user/identity/commit')).json().content.status).toBe(KYC_STATUS.UNDER_REVIEW);
    expect((await post(session, '/api/user/identity/commit')).json().statusCode).toBe(141);
    expect((await ops(viewerToken, 'POST', `/${session.userId}/investor/approve`)).json().statusCode).toBe(102);
    expect(
      (await ops(complianceToken, 'POST', `/${session.userId}/investor/approve`)).json().content.investor.status,
    ).toBe(KYC_STATUS.VERIFIED);

    // AML: a politically exposed person is high risk → enhanced review; a reviewer accepts it.
    const high = (await post(session, '/api/investor/aml', { ...lowRiskAnswers, isPoliticallyExposed: true })).json()
      .content;
    expect(high.current).toMatchObject({ version: 1, level: 'high', status: 'enhancedReview', points: 40 });
    const low = (await post(session, '/api/investor/aml', lowRiskAnswers)).json().content;
    expect(low).toMatchObject({ versionCount: 2, current: { level: 'low', status: 'accepted' } });
    expect((await ops(complianceToken, 'POST', `/${session.userId}/aml/approve`)).json().statusCode).toBe(142);
    const bad = (await post(session, '/api/investor/aml', { ...lowRiskAnswers, sourcesOfFunds: [] })).json();
    expect(bad.content.fields[0].field).toBe('sourcesOfFunds');
    // user/self reads the rows: the profile is Verified, the current AML answers accepted, the level still 1.
    expect((await t.app.identity.self(session.userId)).status).toMatchObject({
      investor: { status: KYC_STATUS.VERIFIED },
      aml: KYC_STATUS.VERIFIED,
    });

    // Tax: an HK resident born in the US must file a W-9; never-issued SSNs are refused.
    const w8 = (
      await post(session, '/api/investor/tax', {
        form: 'W8BEN',
        isUsBorn: true,
        residences: [{ country: 'HK', tin: 'A1234563' }],
      })
    ).json();
    expect(w8.content.fields).toEqual([
      { field: 'form', message: 'US persons must file a W-9 with their SSN or ITIN' },
    ]);
    const noTin = (
      await post(session, '/api/investor/tax', { form: 'W8BEN', isUsBorn: false, residences: [{ country: 'HK' }] })
    ).json();
    expect(noTin.content.fields[0].field).toBe('residences.0.tin');
    for (const tin of ['666-12-3456', '000-12-3456', '123-00-4567', '078-05-1120', '912-34-5678']) {
      const refused = (
        await post(session, '/api/investor/tax', { form: 'W9', usPersonBasis: 'birthplace', tin })
      ).json();
      expect(refused.content.fields, tin).toEqual([
        { field: 'tin', message: 'US residents must provide a valid SSN or ITIN (AAA-GG-SSSS)' },
      ]);
    }
    const w9 = (
      await post(session, '/api/investor/tax', { form: 'W9', usPersonBasis: 'birthplace', tin: '123456789' })
    ).json().content;
    expect(w9.current).toMatchObject({ form: 'W9', summary: { tin: '*******6789' } });
    expect(w9.changeReportDays).toBe(30);

    // Everything on file: level 2 (funds, loans open).
    expect((await t.app.identity.self(session.userId)).status.investor.status).toBe(1);
    const again = (
      await post(session, '/api/investor/tax', { form: 'W9', usPersonBasis: 'citizen', tin: '912-70-1234' })
    ).json().content;
    expect(again).toMatchObject({ supersededCount: 1, current: { form: 'W9' } });
    const shown = (await ops(complianceToken, 'GET', `/${session.userId}`)).json().content;
    expect(shown.decisions.map((item: { subject: string }) => item.subject)).toEqual(['basic', 'investor']);
  });
});

describe('qualified investor (level 3, 12 months)', () => {
  const levelOf = async (userId: string) => {
    const result = await t.database.db.execute(sql`SELECT kyc_level FROM users WHERE id = ${userId}::uuid`);
    return Number((result as unknown as { rows: { kyc_level: number }[] }).rows[0]?.kyc_level);
  };

  it('needs level 2, evidence and the threshold; approval gives level 3 until a reminder and the expiry', async () => {
    const session = await registerAndLogin(t.app);
    const apply = (body: object) => post(session, '/api/investor/qualify', body);
    expect(
      (await apply({ type: 'individual', portfolioHkd: '9000000', isDeclared: true })).json().content,
    ).toMatchObject({ step: 'basic' });
    await t.app.identity.setKycLevel(session.userId, 2);
    expect(
      (await apply({ type: 'individual', portfolioHkd: '9000000', isDeclared: true })).json().content.fields,
    ).toEqual([{ field: 'qualifiedEvidence', message: 'Please upload this document' }]);
    await upload(session, [{ fieldName: 'qualifiedEvidence', fileName: 'statement.pdf', bytes: pdf }]);
    const low = (await apply({ type: 'individual', portfolioHkd: '7999999.99', isDeclared: true })).json();
    expect(low.content.fields).toEqual([
      { field: 'portfolioHkd', message: 'The professional-investor test needs at least HK$8,000,000' },
    ]);
    const corporate = (await apply({ type: 'corporation', totalAssetsHkd: '39999999', isDeclared: true })).json();
    expect(corporate.content.fields[0].field).toBe('totalAssetsHkd');
    expect(
      (await apply({ type: 'individual', portfolioHkd: '8000000', isDeclared: false })).json().content.fields[0].field,
    ).toBe('isDeclared');

    expect(
      (await apply({ type: 'individual', portfolioHkd: '8000000.00', isDeclared: true })).json().content.status,
    ).toBe(KYC_STATUS.UNDER_REVIEW);
    expect((await ops(complianceToken, 'POST', `/${session.userId}/qualified/approve`)).json().statusCode).toBe(200);
    const state = (
      await t.app.inject({ method: 'GET', url: '/api/investor/qualify', headers: { cookie: session.cookie } })
    ).json().content;
    expect(state.status).toBe(KYC_STATUS.VERIFIED);
    expect(await levelOf(session.userId)).toBe(3);

    const validUntil = new Date(state.validUntil);
    const dayMs = 86_400_000;
    expect(await t.app.kyc.runQualifiedExpiry(new Date(validUntil.getTime() - 31 * dayMs))).toEqual({
      reminded: 0,
      expired: 0,
    });
    expect(await t.app.kyc.runQualifiedExpiry(new Date(validUntil.getTime() - 29 * dayMs))).toEqual({
      reminded: 1,
      expired: 0,
    });
    expect(await t.app.kyc.runQualifiedExpiry(new Date(validUntil.getTime() - 28 * dayMs))).toEqual({
      reminded: 0,
      expired: 0,
    });
    // As the daily job runs it: inside the scheduler's transaction, which on PGlite holds the only
    // connection (every statement must go through it, or the job waits for itself).
    expect(
      await t.database.db.transaction((tx) => t.app.kyc.runQualifiedExpiry(new Date(validUntil.getTime() + dayMs), tx)),
    ).toMatchObject({ expired: 1 });
    expect(await levelOf(session.userId)).toBe(2);
    const messages = JSON.stringify(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/notice/message/list?pageSize=50',
          headers: { cookie: session.cookie },
        })
      ).json().content,
    );
    expect(messages).toContain('Qualified investor status ends soon');
    expect(messages).toContain('Qualified investor status expired');
    expect((await apply({ type: 'individual', portfolioHkd: '8000000', isDeclared: true })).json().content.status).toBe(
      KYC_STATUS.UNDER_REVIEW,
    );
  });
});
