import { envelopeSchema } from '@meridian/contracts/envelope';
import {
  bindMfaContentSchema,
  bindMfaRequestSchema,
  bindMobileRequestSchema,
  cancelAccountRequestSchema,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  configSwitchRequestSchema,
  countrySchema,
  emailFlowContentSchema,
  emailFlowRequestSchema,
  humanCheckChallengeSchema,
  loginContentSchema,
  loginRequestSchema,
  mfaKeyContentSchema,
  resetPasswordRequestSchema,
  securityConfigSchema,
  selfContentSchema,
  sendCodeContentSchema,
  sendEmailCodeRequestSchema,
  sendMobileCodeRequestSchema,
  sendNewEmailCodeRequestSchema,
  sessionIdParamsSchema,
  sessionItemSchema,
  setSecurityPasswordRequestSchema,
  signInItemSchema,
  unbindMfaRequestSchema,
} from '@meridian/contracts/identity';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { ok } from '../../platform/http/envelope.ts';
import { perIpLimit } from '../../platform/ratelimit/rate-limit.ts';
import { type IdentityAuthProvider, requestMeta, SESSION_COOKIE } from './identity.auth.ts';
import { listCountries } from './identity.countries.ts';
import type { Outbox } from './identity.outbox.ts';
import type { IdentityService } from './identity.service.ts';

/** Per-IP limits (requests per minute) of the identity routes; per-account limits live in the service. */
export const IDENTITY_IP_LIMITS_PER_MINUTE = {
  login: 30,
  flowStep: 30,
  codeSend: 20,
  sensitive: 30,
  challenge: 60,
} as const;

const MINUTE_MS = 60_000;
const nullEnvelope = envelopeSchema(z.null());

export interface IdentityRoutesOptions {
  identity: IdentityService;
  auth: IdentityAuthProvider;
  /** The embedded outbox, when mail is not sent over SMTP; `devMailbox` lists it. */
  outbox: Outbox | undefined;
  /** Serve `GET /api/dev/mailbox` (never in production). */
  isDevMailboxEnabled: boolean;
}

/** HTTP routes of the identity module (spec §7 `user/*`), mounted under /api. */
export function identityRoutes({ identity, auth, outbox, isDevMailboxEnabled }: IdentityRoutesOptions) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['identity'];

    routes.get(
      '/user/human-check/challenge',
      {
        config: { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.challenge, MINUTE_MS) },
        schema: { tags, summary: 'ALTCHA proof-of-work challenge for login, register and recover', response: { 200: humanCheckChallengeSchema } },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const challenge = await identity.createHumanCheckChallenge();
        return { parameters: { ...challenge.parameters }, signature: challenge.signature };
      },
    );

    routes.post(
      '/user/login',
      {
        config: { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.login, MINUTE_MS) },
        schema: { tags, summary: 'Log in (spec §4): email, password, token; then the factors asked for', body: loginRequestSchema, response: { 200: envelopeSchema(loginContentSchema) } },
      },
      async (request, reply) => {
        auth.ensureDeviceCookie(request, reply);
        const result = await identity.login(request.body, requestMeta(request));
        if (result.session) {
          const previous = request.cookies[SESSION_COOKIE];
          if (previous) await identity.logout(previous, requestMeta(request));
          auth.setSessionCookie(request, reply, result.session);
        }
        return ok(request, result.content);
      },
    );

    routes.post(
      '/user/logout',
      { config: { auth: 'optional' }, schema: { tags, summary: 'Log out: revoke this session', response: { 200: nullEnvelope } } },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await identity.logout(token, requestMeta(request));
        auth.clearSessionCookie(reply);
        return ok(request, null);
      },
    );

    routes.post(
      '/user/register',
      {
        config: { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.flowStep, MINUTE_MS) },
        schema: { tags, summary: 'Register: Mail, Verify and Password steps', body: emailFlowRequestSchema, response: { 200: envelopeSchema(emailFlowContentSchema) } },
      },
      async (request) => ok(request, await identity.register(request.body, requestMeta(request))),
    );

    routes.post(
      '/user/forgetPassword',
      {
        config: { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.flowStep, MINUTE_MS) },
        schema: { tags, summary: 'Recover: Mail and Verify steps', body: emailFlowRequestSchema, response: { 200: envelopeSchema(emailFlowContentSchema) } },
      },
      async (request) => ok(request, await identity.forgetPassword(request.body, requestMeta(request))),
    );

    routes.post(
      '/user/resetPassword',
      {
        config: { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.flowStep, MINUTE_MS) },
        schema: { tags, summary: 'Recover: Password step; revokes every session, holds withdrawals 24 h', body: resetPasswordRequestSchema, response: { 200: envelopeSchema(emailFlowContentSchema) } },
      },
      async (request) => ok(request, await identity.resetPassword(request.body, requestMeta(request))),
    );

    routes.post(
      '/user/captcha',
      {
        config: { auth: 'optional', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.codeSend, MINUTE_MS) },
        schema: { tags, summary: 'Send an email code for an event', body: sendEmailCodeRequestSchema, response: { 200: envelopeSchema(sendCodeContentSchema) } },
      },
      async (request) => ok(request, await identity.sendEmailCode(request.auth, request.body, requestMeta(request))),
    );

    routes.get(
      '/user/self',
      { config: { auth: 'user' }, schema: { tags, summary: 'The signed-in user (spec §3)', response: { 200: envelopeSchema(selfContentSchema) } } },
      async (request) => ok(request, await identity.self(currentUser(request).userId)),
    );

    routes.get(
      '/user/config',
      { config: { auth: 'user' }, schema: { tags, summary: 'Security configuration', response: { 200: envelopeSchema(securityConfigSchema) } } },
      async (request) => ok(request, await identity.securityConfig(currentUser(request).userId)),
    );

    routes.post(
      '/user/config/switch',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Turn a login or trade factor on or off', body: configSwitchRequestSchema, response: { 200: envelopeSchema(securityConfigSchema) } },
      },
      async (request) => ok(request, await identity.switchConfig(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.get(
      '/user/config/mfa/key',
      { config: { auth: 'user' }, schema: { tags, summary: 'A new authenticator secret with its QR code', response: { 200: envelopeSchema(mfaKeyContentSchema) } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return ok(request, await identity.mfaKey(currentUser(request).userId));
      },
    );

    routes.post(
      '/user/config/mfa/key',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Bind the authenticator; returns 10 recovery codes once', body: bindMfaRequestSchema, response: { 200: envelopeSchema(bindMfaContentSchema) } },
      },
      async (request) => ok(request, await identity.bindMfa(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.delete(
      '/user/config/mfa/key',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Unbind the authenticator', body: unbindMfaRequestSchema, response: { 200: nullEnvelope } },
      },
      async (request) => {
        await identity.unbindMfa(currentUser(request).userId, request.body, requestMeta(request));
        return ok(request, null);
      },
    );

    routes.post(
      '/user/security/password',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Set or change the 6-digit security code (trading password)', body: setSecurityPasswordRequestSchema, response: { 200: envelopeSchema(securityConfigSchema) } },
      },
      async (request) => ok(request, await identity.setSecurityPassword(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.post(
      '/user/password',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Change the login password; signs out other sessions', body: changePasswordRequestSchema, response: { 200: nullEnvelope } },
      },
      async (request) => {
        const caller = currentUser(request);
        await identity.changePassword(caller.userId, caller.sessionId, request.body, requestMeta(request));
        return ok(request, null);
      },
    );

    routes.post(
      '/user/email/captcha',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.codeSend, MINUTE_MS) },
        schema: { tags, summary: 'Send an EMAIL_CHANGE code to a new email address', body: sendNewEmailCodeRequestSchema, response: { 200: envelopeSchema(sendCodeContentSchema) } },
      },
      async (request) => ok(request, await identity.sendNewEmailCode(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.post(
      '/user/email/change',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: {
          tags,
          summary: 'Change the email address (new-address code + current factors); signs out other sessions, holds withdrawals 72 h',
          body: changeEmailRequestSchema,
          response: { 200: nullEnvelope },
        },
      },
      async (request) => {
        const caller = currentUser(request);
        await identity.changeEmail(caller.userId, caller.sessionId, request.body, requestMeta(request));
        return ok(request, null);
      },
    );

    routes.post(
      '/user/mobile/captcha',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.codeSend, MINUTE_MS) },
        schema: { tags, summary: 'Send an SMS code to a number to bind', body: sendMobileCodeRequestSchema, response: { 200: envelopeSchema(sendCodeContentSchema) } },
      },
      async (request) => ok(request, await identity.sendMobileCode(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.post(
      '/user/web/mobile/bind',
      {
        config: { auth: 'user', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Bind a mobile number', body: bindMobileRequestSchema, response: { 200: envelopeSchema(securityConfigSchema) } },
      },
      async (request) => ok(request, await identity.bindMobile(currentUser(request).userId, request.body, requestMeta(request))),
    );

    routes.get(
      '/user/country/list',
      { schema: { tags, summary: 'Countries with English and Traditional Chinese names and calling codes', response: { 200: envelopeSchema(z.array(countrySchema)) } } },
      async (request, reply) => {
        reply.header('cache-control', 'public, max-age=86400');
        return ok(request, listCountries());
      },
    );

    routes.get(
      '/user/sessions',
      { config: { auth: 'user' }, schema: { tags, summary: 'Active sessions', response: { 200: envelopeSchema(z.array(sessionItemSchema)) } } },
      async (request) => {
        const caller = currentUser(request);
        return ok(request, await identity.listSessions(caller.userId, caller.sessionId));
      },
    );

    routes.delete(
      '/user/sessions/:id',
      { config: { auth: 'user' }, schema: { tags, summary: 'Revoke one session', params: sessionIdParamsSchema, response: { 200: nullEnvelope } } },
      async (request) => {
        await identity.revokeSession(currentUser(request).userId, request.params.id, requestMeta(request));
        return ok(request, null);
      },
    );

    routes.get(
      '/user/signins',
      { config: { auth: 'user' }, schema: { tags, summary: 'Recent sign-ins and failures', response: { 200: envelopeSchema(z.array(signInItemSchema)) } } },
      async (request) => ok(request, await identity.listSignIns(currentUser(request).userId)),
    );

    routes.post(
      '/user/cancel',
      {
        config: { auth: 'user', sensitiveAction: 'ACCOUNT_CANCEL', rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE.sensitive, MINUTE_MS) },
        schema: { tags, summary: 'Delete (close) the account after security verification', body: cancelAccountRequestSchema, response: { 200: nullEnvelope } },
        // Refuse a non-empty account before the security check, so the refusal costs no code.
        preValidation: async (request) => identity.assertClosable(currentUser(request).userId, requestMeta(request).locale),
      },
      async (request, reply) => {
        await sensitiveActionOf(request).verify(); // after assertClosable (preValidation) and the body schema
        await identity.closeAccount(currentUser(request).userId, requestMeta(request));
        auth.clearSessionCookie(reply);
        return ok(request, null);
      },
    );

    if (isDevMailboxEnabled && outbox) {
      routes.get(
        '/dev/mailbox',
        {
          schema: {
            hide: true,
            querystring: z.strictObject({ to: z.string().max(254).optional(), limit: z.coerce.number().int().min(1).max(200).optional() }),
          },
        },
        async (request) => ok(request, await outbox.list(request.query.to?.trim().toLowerCase() || undefined, request.query.limit)),
      );
    }
  };
}
