import { KYC_STATUS } from '@meridian/contracts/kyc';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationHeaders, randomTestIp, solveHumanCheck, type TestSession } from '../../../test/helpers.ts';
import { DEMO_OPERATOR } from '../admin/admin.seed.ts';
import { DEMO_USER } from '../identity/identity.seed.ts';
import { seedDemo } from '../../seed.ts';
import { kycDecisions } from './kyc.tables.ts';
import { createKycKit, INDIVIDUAL_PROFILE, type KycKit, LOW_RISK_AML_ANSWERS } from './kyc.test-kit.ts';

/**
 * One verification level (docs/decisions/0011-verification-level.md): the demo seed verifies the
 * demo account through the real submit and approval paths, so what `user/self` says (the profile)
 * and what each step's endpoint says (the `/identity` pages) agree with the level the gates read;
 * and a step whose level is not reached is refused by the server naming the step that comes first.
 */
describe('kyc: the demo seed and one verification level', () => {
  let kit: KycKit;
  let demo: TestSession;

  const logInDemo = async (): Promise<TestSession> => {
    const remoteAddress = randomTestIp();
    const login = await kit.t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders(),
      payload: { ...DEMO_USER, token: await solveHumanCheck(kit.t.app, remoteAddress) },
      remoteAddress,
    });
    expect(login.json().statusCode).toBe(200);
    const cookie = login.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    return {
      userId: login.json().content.accountId,
      email: DEMO_USER.email,
      password: DEMO_USER.password,
      cookie,
      headers: mutationHeaders({ cookie }),
    };
  };
  const content = async (session: TestSession, url: string) => {
    const answer = (await kit.get(session, url)).json();
    expect(answer.statusCode, `${url}: ${answer.message}`).toBe(200);
    return answer.content;
  };

  beforeAll(async () => {
    kit = await createKycKit();
  });
  afterAll(async () => kit.close());

  it('the seeded demo account: the profile, every step and the gates tell the same level 2', async () => {
    const services = { kyc: kit.t.app.kyc, clock: kit.t.app.clock };
    // A database seeded before this rule: the demo account given level 2 with no verification records.
    const { demoUserId } = await seedDemo(kit.t.database.db);
    await kit.t.app.identity.setKycLevel(demoUserId, 2);
    await seedDemo(kit.t.database.db, services);
    await seedDemo(kit.t.database.db, services); // idempotent: nothing more is submitted or decided
    demo = await logInDemo();

    const self = await content(demo, '/api/user/self');
    expect(self.kycLevel).toBe(2);
    expect(self.status).toEqual({
      user: { status: KYC_STATUS.VERIFIED, message: '' },
      investor: { status: KYC_STATUS.VERIFIED, message: '' },
      aml: KYC_STATUS.VERIFIED,
      qualify: KYC_STATUS.NONE,
    });
    expect(self.identity.basic).toEqual({ firstName: 'Tai Man', lastName: 'Chan', country: 'HK' });

    // What the /identity overview and step pages read.
    expect((await content(demo, '/api/user/info')).status).toBe(KYC_STATUS.VERIFIED);
    expect((await content(demo, '/api/user/identity/investor')).status).toBe(KYC_STATUS.VERIFIED);
    expect((await content(demo, '/api/investor/aml')).current.status).toBe('accepted');
    expect((await content(demo, '/api/investor/tax')).current).toMatchObject({ form: 'W8BEN' });
    expect((await content(demo, '/api/investor/qualify')).status).toBe(KYC_STATUS.NONE);

    // The records a real approval leaves: one decision per reviewed step, by the demo operator.
    const decisions = await kit.t.database.db.select().from(kycDecisions).where(eq(kycDecisions.userId, demoUserId));
    expect(decisions.map((row) => [row.subject, row.decision, row.operatorEmail]).sort()).toEqual([
      ['basic', 'approve', DEMO_OPERATOR.email],
      ['investor', 'approve', DEMO_OPERATOR.email],
    ]);
  });

  it('refuses a qualified-investor application before investor verification, naming the step first', async () => {
    const session = await kit.verifiedUser(); // level 1: basic KYC approved
    const self = await content(session, '/api/user/self');
    expect(self.kycLevel).toBe(1);
    const submission = { type: 'individual', portfolioHkd: '9000000', isDeclared: true };
    for (const [locale, text] of [
      ['en-US', /investor verification/],
      ['zh-HK', /投資者認證/],
    ] as const) {
      const refused = await kit.post(session, '/api/investor/qualify', submission, locale);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        statusCode: 143,
        content: { step: 'investor', route: '/identity/investor', requiredLevel: 2, level: 1 },
      });
      expect(refused.json().message).toMatch(text);
    }
    expect((await kit.get(session, '/api/investor/qualify')).json().statusCode).toBe(143);

    // Once investor verification is complete the same application is taken.
    expect((await kit.post(session, '/api/user/identity/investor', INDIVIDUAL_PROFILE)).json().statusCode).toBe(200);
    expect((await kit.post(session, '/api/user/identity/commit')).json().statusCode).toBe(200);
    const approved = await kit.ops(kit.complianceToken, 'POST', `/kyc/${session.userId}/investor/approve`);
    expect(approved.json().statusCode).toBe(200);
    expect((await kit.post(session, '/api/investor/aml', LOW_RISK_AML_ANSWERS)).json().statusCode).toBe(200);
    const tax = { form: 'W8BEN', isUsBorn: false, residences: [{ country: 'HK', tin: 'A1234563' }] };
    expect((await kit.post(session, '/api/investor/tax', tax)).json().statusCode).toBe(200);
    expect((await content(session, '/api/user/self')).kycLevel).toBe(2);
    expect((await kit.get(session, '/api/investor/qualify')).json().statusCode).toBe(200);
  });
});
