import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from './errors.ts';

/**
 * Declarative permissions (STYLE habit 9). A route states what it needs in its `config`:
 *
 *   app.post('/wallet/withdraw', { config: { auth: 'user', sensitiveAction: 'WITHDRAW', kyc: 'basic' } }, …)
 *
 * and this plugin enforces it before the handler runs, through an `AuthProvider` that the identity
 * module supplies (platform code holds no business rules). Without a provider every `auth: 'user'`
 * route answers 101 (login expired).
 */
export type AuthRequirement = 'user' | 'optional' | 'none';
/** Identity-verification levels a route can demand (spec §6 gating). */
export type KycRequirement = 'basic' | 'investor';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Default 'none'. 'user': a valid session is required (101 otherwise). 'optional': resolved when present. */
    auth?: AuthRequirement;
    /** The captcha event of a sensitive action; the provider checks the factors in the body. */
    sensitiveAction?: CaptchaEvent;
    /** The identity verification the route needs (gate filled by the KYC issue). */
    kyc?: KycRequirement;
  }
  interface FastifyRequest {
    /** The signed-in user, or null. Set before validation on routes with `auth` 'user' or 'optional'. */
    auth: AuthContext | null;
  }
}

/** Who is calling: the session's user. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  /** The user's identity-verification level (0 none, 1 basic, 2 investor), read with the session in this request. */
  kycLevel: number;
}

/** Implemented by the identity module and handed to `registerAuth` by `app.ts`. */
export interface AuthProvider {
  /** Resolve the session cookie to a user, or null when absent, expired or revoked. */
  authenticate(request: FastifyRequest): Promise<AuthContext | null>;
  /**
   * Verify the factors `factors` against what the user's trade configuration requires for `event`,
   * and record the check. Throws a `DomainError`/`FieldError` (119 captcha failed, 120 field
   * missing …) when they do not satisfy it.
   */
  verifySensitiveAction(auth: AuthContext, event: CaptchaEvent, factors: SensitiveFactors, request: FastifyRequest): Promise<void>;
  /** Throw `DomainError('VERIFICATION_REQUIRED')` when the user lacks the level. */
  requireKyc(auth: AuthContext, level: KycRequirement): Promise<void>;
}

/**
 * Enforce each route's declared `auth`, `kyc` and `sensitiveAction` (in that order; sensitive-action
 * factors are checked after the body passed validation, so a bad body never consumes a code).
 */
export function registerAuth(app: FastifyInstance, provider: AuthProvider | undefined): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const requirement = request.routeOptions.config.auth ?? 'none';
    if (requirement === 'none') return;
    request.auth = provider ? await provider.authenticate(request) : null;
    if (requirement === 'user' && !request.auth) throw new DomainError('LOGIN_EXPIRED');
  });
  app.addHook('preHandler', async (request) => {
    const { kyc, sensitiveAction } = request.routeOptions.config;
    if (!kyc && !sensitiveAction) return;
    const auth = currentUser(request);
    if (!provider) throw new DomainError('LOGIN_EXPIRED');
    if (kyc) await provider.requireKyc(auth, kyc);
    if (sensitiveAction) {
      const body = (request.body ?? {}) as SensitiveFactors;
      await provider.verifySensitiveAction(
        auth,
        sensitiveAction,
        { mfaCode: body.mfaCode, emailCaptcha: body.emailCaptcha, securityPassword: body.securityPassword },
        request,
      );
    }
  });
}

/** The signed-in user of a route declared `auth: 'user'`. @throws DomainError LOGIN_EXPIRED when none. */
export function currentUser(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new DomainError('LOGIN_EXPIRED');
  return request.auth;
}
