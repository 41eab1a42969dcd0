import { HEADER_API_KEY } from '@meridian/contracts/api-keys';
import type { ApiKeyScope, EndpointAuth, KycRequirement } from '@meridian/contracts/endpoint';
import { mayCall, type OperatorRole } from '@meridian/contracts/operators';
import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db/client.ts';
import { DomainError } from './errors.ts';
import { rawBodyOf } from './raw-body.ts';

/**
 * Declarative permissions, enforced here. A route states what it needs in its `config`:
 *
 *   app.post('/wallet/withdraw', { config: { auth: 'user', sensitiveAction: 'WITHDRAW', kyc: 'basic' } }, …)
 *
 * (routes are registered from endpoint descriptors by `registerEndpoint`, which writes this config)
 *
 * and this plugin enforces it before the handler runs, through an `AuthProvider` that the identity
 * module supplies (platform code holds no business rules). Without a provider every `auth: 'user'`
 * route answers 101 (login expired).
 */
export type AuthRequirement = EndpointAuth;
export type { KycRequirement };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Default 'none'. 'user': a valid session is required (101 otherwise). 'optional': resolved when present. */
    auth?: AuthRequirement;
    /** The captcha event of a sensitive action; the provider checks the factors in the body. */
    sensitiveAction?: CaptchaEvent;
    /** The identity verification the route needs (the level table of docs/kyc.md "Levels and what they open"). */
    kyc?: KycRequirement;
    /** With `auth: 'operator'`: the roles that may call ('admin' always may; absent = admin only). */
    roles?: readonly OperatorRole[];
    /** The endpoint's name in its descriptor table (`freezeUser`): the audit log's action. */
    operation?: string;
    /** With `auth: 'user'`: the developer API-key scope that may call the route with a signed request. */
    apiKeyScope?: ApiKeyScope;
  }
  interface FastifyRequest {
    /** The signed-in user, or null. Set before validation on routes with `auth` 'user' or 'optional'. */
    auth: AuthContext | null;
    /** The back-office operator on `auth: 'operator'` routes (set before validation), null elsewhere. */
    operator: OperatorContext | null;
    /** On a route with `sensitiveAction`: the factor check the handler must run (see `SensitiveAction`); null elsewhere. */
    sensitiveAction: SensitiveAction | null;
  }
}

/** Who is calling: the session's user. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  /** The user's identity-verification level (0 none, 1 basic, 2 investor, 3 qualified), read with the session in this request. */
  kycLevel: number;
  /**
   * Set when the request was signed with a developer API key instead of a session (docs/api.md;
   * `sessionId` is then empty): the key's id and scopes.
   */
  apiKey?: { id: string; scopes: readonly ApiKeyScope[] };
}

/** A request whose API-key headers passed; its signature is checked once the body was read. */
export interface PendingApiKeyRequest {
  auth: AuthContext;
  /**
   * Check the signature over the raw body, refuse a replay, count the key's rate limit.
   * @throws DomainError API_SIGNATURE_INVALID (271), API_REQUEST_REPLAYED (273), RATE_LIMITED (108).
   */
  verifySignature(rawBody: string): Promise<void>;
}

/** Implemented by the apikeys module: the developer API's signed requests (docs/api.md). */
export interface ApiKeyAuthProvider {
  /**
   * Resolve the key headers of a request to a route that accepts keys with `scope`, before its body
   * is read: a live key whose owner has the authenticator on, an allowed IP, a timestamp within the
   * receive window, the scope. @throws DomainError 270–275 naming the header in `content.fields`.
   */
  authenticateKey(request: FastifyRequest, scope: ApiKeyScope): Promise<PendingApiKeyRequest>;
}

/** Who is calling a back-office route: an operator, through its session cookie or a bearer token. */
export interface OperatorContext {
  id: number;
  email: string;
  role: OperatorRole;
  /** The back-office session, or null for a bearer token (scripts). */
  sessionId: string | null;
}

/** Implemented by the admin module: resolves the back-office session cookie or bearer token of a request. */
export interface OperatorAuthProvider {
  /**
   * The operator of the request, or null (no, expired or revoked session; a session that has not
   * passed TOTP; unknown or deactivated token; an IP outside the allowlist).
   */
  authenticateOperator(request: FastifyRequest): Promise<OperatorContext | null>;
}

/** Implemented by the identity module and handed to `registerAuth` by `app.ts`. */
export interface AuthProvider {
  /** Resolve the session cookie to a user, or null when absent, expired or revoked. */
  authenticate(request: FastifyRequest): Promise<AuthContext | null>;
  /**
   * Check the factors `factors` against what the user's trade configuration requires for `event`,
   * and record the check, without using up any one-time code. Throws a `DomainError`/`FieldError`
   * (119 captcha failed, 120 field missing …) when they do not satisfy it.
   * @returns the step that uses up the one-time codes, on `db` (a transaction) when given.
   */
  verifySensitiveAction(
    auth: AuthContext,
    event: CaptchaEvent,
    factors: SensitiveFactors,
    request: FastifyRequest,
  ): Promise<(db?: DbOrTx) => Promise<void>>;
  /** Throw `DomainError('KYC_REQUIRED')` naming the missing step when the user lacks the level. */
  requireKyc(auth: AuthContext, level: KycRequirement): Promise<void>;
}

/**
 * The deferred factor check of a sensitive action (5). The handler (or the service
 * it calls) checks the factors only after the whole request was validated and after an idempotent
 * replay was answered, and uses the one-time codes up last, in the transaction of the action — so a
 * refusal that is not about the code, a retry of a stored answer, or an action that rolls back never
 * uses up a code. Either `check()` before its transaction and `consume(tx)` as its last step, or
 * `verify()` (both at once) where the action has no transaction of its own.
 */
export interface SensitiveAction {
  /** Check the factors of the body against the user's trade configuration; uses nothing up. Repeat calls return the first call's promise. @throws as `AuthProvider.verifySensitiveAction`. */
  check(): Promise<void>;
  /** Use up the one-time codes that `check()` accepted, on `tx`. @throws DomainError CAPTCHA_FAILED when a racing request used them first. */
  consume(tx?: DbOrTx): Promise<void>;
  /** `check()` then `consume()` on the default database. */
  verify(): Promise<void>;
  /**
   * Declare that the answer is a stored idempotent answer replayed unchanged (Stripe's rule, issue
   * 14 item 4): nothing is done, so no factor is checked.
   */
  answeredByReplay(): void;
  /** True once the codes were used up (`consume`/`verify`) or `answeredByReplay()` was called. */
  readonly isVerified: boolean;
}

/**
 * Enforce each route's declared `auth`, `kyc` and `sensitiveAction`. `auth` and `kyc` are checked
 * before the handler; `sensitiveAction` gives the request a `SensitiveAction` that the handler must
 * `verify()` after its own validation. A 2xx answer of a sensitive route whose check never passed
 * is a programmer error: it is replaced by a 500 and logged, so no route can skip the check.
 */
export function registerAuth(
  app: FastifyInstance,
  provider: AuthProvider | undefined,
  operatorProvider?: OperatorAuthProvider,
  apiKeyProvider?: ApiKeyAuthProvider,
): void {
  const pendingKeys = new WeakMap<FastifyRequest, PendingApiKeyRequest>();
  app.decorateRequest('auth', null);
  app.decorateRequest('operator', null);
  app.decorateRequest('sensitiveAction', null);
  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth ?? 'none';
    if (requirement === 'none') return;
    if (requirement === 'operator') {
      request.operator = operatorProvider ? await operatorProvider.authenticateOperator(request) : null;
      if (!request.operator) throw new DomainError('LOGIN_EXPIRED');
      if (!mayCall(request.operator.role, { roles: request.routeOptions.config.roles }))
        throw new DomainError('FORBIDDEN');
      return;
    }
    if (request.headers[HEADER_API_KEY.toLowerCase()] !== undefined) {
      // A developer API key instead of a session: only where the descriptor names a scope.
      const scope = request.routeOptions.config.apiKeyScope;
      if (!scope || !apiKeyProvider || requirement !== 'user') throw new DomainError('API_KEY_NOT_ACCEPTED');
      const pending = await apiKeyProvider.authenticateKey(request, scope);
      pendingKeys.set(request, pending);
      request.auth = pending.auth;
      return;
    }
    request.auth = provider ? await provider.authenticate(request) : null;
    if (requirement === 'user' && !request.auth) throw new DomainError('LOGIN_EXPIRED');
  });
  // The signature covers the raw body: checked once it was read, before it is validated.
  app.addHook('preValidation', async (request) => {
    const pending = pendingKeys.get(request);
    if (pending) await pending.verifySignature(rawBodyOf(request));
  });
  app.addHook('preHandler', async (request) => {
    const { kyc, sensitiveAction } = request.routeOptions.config;
    if (!kyc && !sensitiveAction) return;
    const auth = currentUser(request);
    if (!provider) throw new DomainError('LOGIN_EXPIRED');
    if (kyc) await provider.requireKyc(auth, kyc);
    if (sensitiveAction && auth.apiKey) {
      // A signed key request: the key was created behind the authenticator check and the signature
      // proves its holder; what a key may do is bounded by its scopes (withdrawals: address book only).
      let isKeyVerified = false;
      request.sensitiveAction = {
        check: async () => {},
        consume: async () => {
          isKeyVerified = true;
        },
        verify: async () => {
          isKeyVerified = true;
        },
        answeredByReplay: () => {
          isKeyVerified = true;
        },
        get isVerified() {
          return isKeyVerified;
        },
      };
    } else if (sensitiveAction) {
      const body = (request.body ?? {}) as SensitiveFactors;
      const factors = {
        mfaCode: body.mfaCode,
        emailCaptcha: body.emailCaptcha,
        securityPassword: body.securityPassword,
        passkey: body.passkey,
      };
      let checked: Promise<(db?: DbOrTx) => Promise<void>> | undefined;
      let isVerified = false;
      const check = () => (checked ??= provider.verifySensitiveAction(auth, sensitiveAction, factors, request));
      const consume = async (tx?: DbOrTx) => {
        if (!checked) throw new Error('consume() before check() on a sensitive action');
        await (
          await checked
        )(tx);
        isVerified = true;
      };
      request.sensitiveAction = {
        check: async () => void (await check()),
        consume,
        verify: async () => {
          await check();
          await consume();
        },
        answeredByReplay: () => {
          isVerified = true;
        },
        get isVerified() {
          return isVerified;
        },
      };
    }
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (!request.routeOptions.config.sensitiveAction || reply.statusCode >= 300 || request.sensitiveAction?.isVerified)
      return payload;
    request.log.error({ url: request.url }, 'sensitive route answered without verifying its factors');
    throw new Error('sensitive action answered without verification');
  });
}

/**
 * The factor check of a route declared with `sensitiveAction`.
 * @throws Error (a programmer error, 500) on a route without one.
 */
export function sensitiveActionOf(request: FastifyRequest): SensitiveAction {
  if (!request.sensitiveAction) throw new Error(`route ${request.url} has no sensitiveAction`);
  return request.sensitiveAction;
}

/** The signed-in user of a route declared `auth: 'user'`. @throws DomainError LOGIN_EXPIRED when none. */
export function currentUser(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new DomainError('LOGIN_EXPIRED');
  return request.auth;
}

/**
 * The operator of an `auth: 'operator'` route (set by `registerAuth` before the handler runs).
 * @throws DomainError LOGIN_EXPIRED when called on a route without an operator.
 */
export function currentOperator(request: FastifyRequest): OperatorContext {
  if (!request.operator) throw new DomainError('LOGIN_EXPIRED');
  return request.operator;
}
