import type { DbOrTx } from '../../platform/db/client.ts';
import { HEADER_USER_LANG } from '@meridian/contracts/http';
import { KYC_STEPS, kycGate } from '@meridian/contracts/kyc';
import { isLocale } from '@meridian/contracts/locale';
import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, AuthProvider, KycRequirement } from '../../platform/http/auth.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import { randomToken } from '../../platform/security/one-time-codes.ts';
import { type IdentityService, type NewSession, type RequestMeta } from './identity.service.ts';

/** Cookie holding the session token (httpOnly, SameSite=Lax, Secure in production). */
export const SESSION_COOKIE = 'meridian_sid';
/** Long-lived cookie naming the browser, to tell a new device at sign-in. */
export const DEVICE_COOKIE = 'meridian_did';
const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 86_400;

/** The caller as the service sees it: IP, user agent, language and device cookie. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const deviceId = request.cookies[DEVICE_COOKIE];
  return {
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    locale: requestLocale(request),
    deviceId: deviceId && /^[\w-]{20,100}$/.test(deviceId) ? deviceId : null,
    sessionId: request.auth?.sessionId ?? null,
    webOrigin: `${request.protocol}://${request.host}`,
  };
}

/**
 * The identity module's `AuthProvider` (platform/http/auth.ts): resolves the session cookie and
 * checks sensitive-action factors and KYC levels through `IdentityService`.
 */
export class IdentityAuthProvider implements AuthProvider {
  constructor(
    private readonly identity: IdentityService,
    private readonly isSecureCookie: boolean,
  ) {}

  async authenticate(request: FastifyRequest): Promise<AuthContext | null> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return null;
    // The language the caller uses now, when it names a supported one: the
    // user's language follows it. A missing or unknown value changes nothing.
    const header = request.headers[HEADER_USER_LANG.toLowerCase()];
    const locale = isLocale(header) ? header : undefined;
    // A sensitive action (withdrawal, security change …) reads the session from the database.
    return this.identity.resolveSession(token, {
      fresh: request.routeOptions.config.sensitiveAction !== undefined,
      locale,
    });
  }

  verifySensitiveAction(
    auth: AuthContext,
    event: CaptchaEvent,
    factors: SensitiveFactors,
    request: FastifyRequest,
  ): Promise<(db?: DbOrTx) => Promise<void>> {
    return this.identity.verifySensitiveAction(auth.userId, event, factors, requestMeta(request));
  }

  /**
   * The level table of docs/kyc.md "Levels and what they open" (`kycGate`, contracts/kyc.ts). The level was read with
   * the session in this request: no second query.
   * @throws DomainError KYC_REQUIRED (143) naming the missing step, with `{ step, route, requiredLevel, level }` as content.
   */
  async requireKyc(auth: AuthContext, level: KycRequirement): Promise<void> {
    const refusal = kycGate(auth.kycLevel, level);
    if (refusal) {
      const { name } = KYC_STEPS[refusal.step];
      throw new DomainError('KYC_REQUIRED', { stepEn: name['en-US'], stepZh: name['zh-HK'] }, refusal);
    }
  }

  /** Set the session cookie of a new session (and a device cookie when the browser has none). */
  setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
    reply.setCookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.isSecureCookie,
      path: '/',
      expires: session.expiresAt,
    });
    this.ensureDeviceCookie(request, reply);
  }

  /** Give the browser a device id before its first sign-in, so the session records it. */
  ensureDeviceCookie(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[DEVICE_COOKIE];
    if (existing && /^[\w-]{20,100}$/.test(existing)) return existing;
    const deviceId = randomToken(18);
    reply.setCookie(DEVICE_COOKIE, deviceId, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.isSecureCookie,
      path: '/',
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    });
    request.cookies[DEVICE_COOKIE] = deviceId;
    return deviceId;
  }

  clearSessionCookie(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
