import { identityEndpoints, securityEndpoints } from '@meridian/contracts/identity';
import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { ok } from '../../platform/http/envelope.ts';
import { type EndpointPolicy, registerEndpoints } from '../../platform/http/endpoint.ts';
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

/** The per-IP rate limit of a class of identity routes, as a route policy. */
function perIpPolicy(kind: keyof typeof IDENTITY_IP_LIMITS_PER_MINUTE): EndpointPolicy {
  return { rateLimit: perIpLimit(IDENTITY_IP_LIMITS_PER_MINUTE[kind], MINUTE_MS) };
}

export interface IdentityRoutesOptions {
  identity: IdentityService;
  auth: IdentityAuthProvider;
  /** The embedded outbox, when mail is not sent over SMTP; `devMailbox` lists it. */
  outbox: Outbox | undefined;
  /** Serve `GET /api/dev/mailbox` (never in production). */
  isDevMailboxEnabled: boolean;
}

/**
 * HTTP routes of the identity module (`user/*`), mounted under /api, registered from
 * `identityEndpoints` and `securityEndpoints`; the routes that set or clear the session cookie use
 * the `reply`. The development mailbox is a plain hidden route.
 */
export function identityRoutes({ identity, auth, outbox, isDevMailboxEnabled }: IdentityRoutesOptions) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerAccountRoutes(app, identity, auth);
    registerSecurityRoutes(app, identity);
    registerPasskeyRoutes(app, identity, auth);
    if (isDevMailboxEnabled && outbox) registerDevMailbox(app, outbox);
  };
}

/** `identityEndpoints`: the human check, sign-in and out, sign-up, passwords, sessions, closing the account. */
function registerAccountRoutes(app: FastifyInstance, identity: IdentityService, auth: IdentityAuthProvider): void {
  registerEndpoints(app, identityEndpoints, {
    humanCheckChallenge: [
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const challenge = await identity.createHumanCheckChallenge();
        return { parameters: { ...challenge.parameters }, signature: challenge.signature };
      },
      perIpPolicy('challenge'),
    ],
    login: [
      async (request, reply) => {
        auth.ensureDeviceCookie(request, reply);
        const result = await identity.login(request.body, requestMeta(request));
        if (result.session) {
          const previous = request.cookies[SESSION_COOKIE];
          if (previous) await identity.logout(previous, requestMeta(request));
          auth.setSessionCookie(request, reply, result.session);
        }
        return result.content;
      },
      perIpPolicy('login'),
    ],
    logout: async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await identity.logout(token, requestMeta(request));
      auth.clearSessionCookie(reply);
      return null;
    },
    register: [async (request) => identity.register(request.body, requestMeta(request)), perIpPolicy('flowStep')],
    forgetPassword: [
      async (request) => identity.forgetPassword(request.body, requestMeta(request)),
      perIpPolicy('flowStep'),
    ],
    resetPassword: [
      async (request) => identity.resetPassword(request.body, requestMeta(request)),
      perIpPolicy('flowStep'),
    ],
    sendEmailCode: [
      async (request) => identity.sendEmailCode(request.auth, request.body, requestMeta(request)),
      perIpPolicy('codeSend'),
    ],
    self: async (request) => identity.self(currentUser(request).userId),
    listCountries: async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return listCountries();
    },
    listSessions: async (request) => {
      const caller = currentUser(request);
      return identity.listSessions(caller.userId, caller.sessionId);
    },
    revokeSession: async (request) => {
      await identity.revokeSession(currentUser(request).userId, request.params.id, requestMeta(request));
      return null;
    },
    listSignIns: async (request) => identity.listSignIns(currentUser(request).userId),
    cancelAccount: [
      async (request, reply) => {
        await sensitiveActionOf(request).verify(); // after assertClosable (preValidation) and the body schema
        await identity.closeAccount(currentUser(request).userId, requestMeta(request));
        auth.clearSessionCookie(reply);
        return null;
      },
      {
        ...perIpPolicy('sensitive'),
        // Refuse a non-empty account before the security check, so the refusal costs no code.
        preValidation: async (request) =>
          identity.assertClosable(currentUser(request).userId, requestMeta(request).locale),
      },
    ],
  });
}

/** `securityEndpoints`: the security settings, the authenticator, passwords, e-mail and mobile. */
function registerSecurityRoutes(app: FastifyInstance, identity: IdentityService): void {
  registerEndpoints(app, securityEndpoints, {
    config: async (request) => identity.securityConfig(currentUser(request).userId),
    switchConfig: [
      async (request) => identity.switchConfig(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('sensitive'),
    ],
    mfaKey: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return identity.mfaKey(currentUser(request).userId);
    },
    bindMfa: [
      async (request) => identity.bindMfa(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('sensitive'),
    ],
    unbindMfa: [
      async (request) => {
        await identity.unbindMfa(currentUser(request).userId, request.body, requestMeta(request));
        return null;
      },
      perIpPolicy('sensitive'),
    ],
    setSecurityPassword: [
      async (request) => identity.setSecurityPassword(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('sensitive'),
    ],
    changePassword: [
      async (request) => {
        const caller = currentUser(request);
        await identity.changePassword(caller.userId, caller.sessionId, request.body, requestMeta(request));
        return null;
      },
      perIpPolicy('sensitive'),
    ],
    sendNewEmailCode: [
      async (request) => identity.sendNewEmailCode(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('codeSend'),
    ],
    changeEmail: [
      async (request) => {
        const caller = currentUser(request);
        await identity.changeEmail(caller.userId, caller.sessionId, request.body, requestMeta(request));
        return null;
      },
      perIpPolicy('sensitive'),
    ],
    sendMobileCode: [
      async (request) => identity.sendMobileCode(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('codeSend'),
    ],
    bindMobile: [
      async (request) => identity.bindMobile(currentUser(request).userId, request.body, requestMeta(request)),
      perIpPolicy('sensitive'),
    ],
  });
}

/** `passkeyEndpoints`: listing, registering, renaming and removing passkeys, and signing in with one. */
function registerPasskeyRoutes(app: FastifyInstance, identity: IdentityService, auth: IdentityAuthProvider): void {
  registerEndpoints(app, passkeyEndpoints, {
    listPasskeys: async (request) => identity.listPasskeys(currentUser(request).userId),
    registrationOptions: [
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return identity.passkeyRegistrationOptions(currentUser(request).userId, requestMeta(request));
      },
      perIpPolicy('challenge'),
    ],
    registerPasskey: [
      async (request) =>
        identity.registerPasskey(
          currentUser(request).userId,
          request.body,
          sensitiveActionOf(request),
          requestMeta(request),
        ),
      perIpPolicy('sensitive'),
    ],
    renamePasskey: async (request) =>
      identity.renamePasskey(currentUser(request).userId, request.params.id, request.body.name, requestMeta(request)),
    removePasskey: [
      async (request) => {
        await identity.removePasskey(
          currentUser(request).userId,
          request.params.id,
          sensitiveActionOf(request),
          requestMeta(request),
        );
        return null;
      },
      perIpPolicy('sensitive'),
    ],
    assertionOptions: [
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return identity.passkeyAssertionOptions(request.body, request.auth?.userId ?? null, requestMeta(request));
      },
      perIpPolicy('challenge'),
    ],
    passkeyLogin: [
      async (request, reply) => {
        auth.ensureDeviceCookie(request, reply);
        const meta = requestMeta(request);
        const result = await identity.passkeyLogin(request.body, meta);
        if (result.session) {
          const previous = request.cookies[SESSION_COOKIE];
          if (previous) await identity.logout(previous, meta);
          auth.setSessionCookie(request, reply, result.session);
        }
        return result.content;
      },
      perIpPolicy('login'),
    ],
  });
}

/** `GET /api/dev/mailbox`: the embedded outbox's mail (development only). */
function registerDevMailbox(app: FastifyInstance, outbox: Outbox): void {
  // Development only, left out of the OpenAPI document (not an API call, so no descriptor).
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dev/mailbox',
    {
      schema: {
        hide: true,
        querystring: z.strictObject({
          to: z.string().max(254).optional(),
          limit: z.coerce.number().int().min(1).max(200).optional(),
        }),
      },
    },
    async (request) =>
      ok(request, await outbox.list(request.query.to?.trim().toLowerCase() || undefined, request.query.limit)),
  );
}
