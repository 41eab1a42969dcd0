import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sensitiveFactorsSchema } from '@meridian/contracts/security';
import { createTestApp, mutationHeaders, type TestApp } from '../../../test/helpers.ts';
import { currentUser, sensitiveActionOf } from './auth.ts';
import { DomainError } from './errors.ts';

/**
 * Proves the declarative permission hooks with a probe route: a missing session answers 101 before
 * validation; KYC and sensitive-action checks run after the body validated and before the handler.
 * The real provider (identity module) is tested with the identity API.
 */
function registerProbe(app: FastifyInstance, calls: string[]) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/probe/withdraw',
    {
      config: { auth: 'user', kyc: 'basic', sensitiveAction: 'WITHDRAW' },
      schema: { body: sensitiveFactorsSchema.extend({ amount: z.string() }) },
    },
    async (request) => {
      await sensitiveActionOf(request).verify(); // the handler checks the factors after its own validation
      calls.push(`handler:${currentUser(request).userId}`);
      return { statusCode: 200, content: null, message: 'Success' };
    },
  );
}

describe('declarative route permissions', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('answers 101 on a user route when no provider or no session exists', async () => {
    const calls: string[] = [];
    t = await createTestApp({ configure: (app) => registerProbe(app, calls) });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe/withdraw',
      headers: mutationHeaders(),
      payload: { amount: '1' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().statusCode).toBe(101);
    expect(calls).toEqual([]);
  });

  it('runs the KYC gate and then the factor check with the body factors, after validation', async () => {
    const calls: string[] = [];
    const provider = {
      authenticate: async () => ({ userId: 'u-1', sessionId: 's-1', kycLevel: 0 }),
      requireKyc: async (_auth: unknown, level: string) => {
        calls.push(`kyc:${level}`);
      },
      verifySensitiveAction: async (_auth: unknown, event: string, factors: { emailCaptcha?: string }) => {
        calls.push(`factors:${event}:${factors.emailCaptcha ?? '-'}`);
        if (factors.emailCaptcha !== '123456') throw new DomainError('CAPTCHA_FAILED');
        return async () => {
          calls.push(`consumed:${event}`);
        };
      },
    };
    t = await createTestApp({ authProvider: provider, configure: (app) => registerProbe(app, calls) });

    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/probe/withdraw',
      headers: mutationHeaders(),
      payload: { amount: 5 },
    });
    expect(invalid.json().statusCode).toBe(120);
    expect(calls).toEqual([]);

    const wrongCode = await t.app.inject({
      method: 'POST',
      url: '/api/probe/withdraw',
      headers: mutationHeaders(),
      payload: { amount: '1', emailCaptcha: '000000' },
    });
    expect(wrongCode.json().statusCode).toBe(119);
    expect(calls).toEqual(['kyc:basic', 'factors:WITHDRAW:000000']);

    const good = await t.app.inject({
      method: 'POST',
      url: '/api/probe/withdraw',
      headers: mutationHeaders(),
      payload: { amount: '1', emailCaptcha: '123456' },
    });
    expect(good.statusCode).toBe(200);
    expect(calls.slice(2)).toEqual(['kyc:basic', 'factors:WITHDRAW:123456', 'consumed:WITHDRAW', 'handler:u-1']);
  });
});
