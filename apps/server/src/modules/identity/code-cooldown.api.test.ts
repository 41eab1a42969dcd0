import { sensitiveFactorsSchema } from '@meridian/contracts/security';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  randomTestIp,
  readLatestCode,
  registerAndLogin,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { sensitiveActionOf } from '../../platform/http/auth.ts';

/** A sensitive action stand-in (event PURCHASE, as a fund subscription): it uses up the email code it is given. */
function registerProbe(app: FastifyInstance, calls: unknown[]) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/probe/purchase',
    {
      config: { auth: 'user', sensitiveAction: 'PURCHASE' },
      schema: { body: sensitiveFactorsSchema.extend({ amount: z.string() }) },
    },
    async (request) => {
      await sensitiveActionOf(request).verify();
      calls.push(request.body);
      return { statusCode: 200, content: null, message: 'Success' };
    },
  );
}

/**
 * The resend wait of email codes (docs/identity.md "Codes"): it counts from the newest code only
 * while that code can still be used. A code an action used up holds no wait, so a second action
 * of the same kind within 59 s gets its own code at once; an unused code still holds it, and the
 * refusal says whether a code is outstanding.
 */
describe('identity: the code resend wait and used-up codes', () => {
  let t: TestApp;
  const calls: unknown[] = [];
  const ip = randomTestIp();
  const requestCode = (session: TestSession) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/captcha',
      headers: session.headers,
      payload: { event: 'PURCHASE' },
      remoteAddress: ip,
    });
  const purchase = (session: TestSession, emailCaptcha: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/probe/purchase',
      headers: session.headers,
      payload: { amount: '1', emailCaptcha },
      remoteAddress: ip,
    });

  beforeAll(async () => {
    t = await createTestApp({ configure: (app) => registerProbe(app, calls) });
  });
  afterAll(async () => t.close());

  it('a code used by an action frees the wait: the next action gets a new code at once and completes with it', async () => {
    const session = await registerAndLogin(t.app);
    const before = calls.length;
    expect((await requestCode(session)).json().statusCode).toBe(200);
    const first = await readLatestCode(t.app, session.email, 'PURCHASE');
    expect((await purchase(session, first)).json().statusCode).toBe(200);

    // The same second on the app's clock: the first code is used, so nothing holds the wait.
    const again = await requestCode(session);
    expect(again.statusCode).toBe(200);
    expect(again.json().statusCode).toBe(200);
    const second = await readLatestCode(t.app, session.email, 'PURCHASE');
    expect((await purchase(session, second)).json().statusCode).toBe(200);
    expect(calls.length).toBe(before + 2);
    // The used code stays used.
    expect((await purchase(session, first)).json().statusCode).toBe(119);
  });

  it('an unused code still holds the wait, and the refusal says a code is outstanding', async () => {
    const session = await registerAndLogin(t.app);
    expect((await requestCode(session)).json().statusCode).toBe(200);
    const refused = await requestCode(session);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 112, content: { hasUnusedCode: true } });
    expect(refused.json().content.retryAfterSeconds).toBeGreaterThan(0);
    // And that code still works.
    const code = await readLatestCode(t.app, session.email, 'PURCHASE');
    expect((await purchase(session, code)).json().statusCode).toBe(200);
  });

  it('a code voided by five wrong tries keeps the wait, and the refusal says no code is outstanding', async () => {
    const session = await registerAndLogin(t.app);
    expect((await requestCode(session)).json().statusCode).toBe(200);
    const code = await readLatestCode(t.app, session.email, 'PURCHASE');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await purchase(session, wrong)).json().statusCode).toBe(119);
    expect((await purchase(session, code)).json().statusCode).toBe(119);
    const refused = await requestCode(session);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 112, content: { hasUnusedCode: false } });
  });
});
