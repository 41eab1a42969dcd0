import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { ApiError, STATUS_LOGIN_EXPIRED } from '../../../lib/api-client.ts';

/**
 * Whether the signed-in user may borrow, read from a refused loan call (loans need level 2, docs/loans.md:
 * `kyc: 'investor'` on every call but the public coins, config and calculator): `guest` without a
 * session (or on 101), `kyc` with the missing step's page when the server answered 143, `ok` otherwise.
 */
export type LoanAccess = { kind: 'guest' } | { kind: 'kyc'; route: string; message: string } | { kind: 'ok' };

export function loanAccessOf(isSignedIn: boolean, error: unknown): LoanAccess {
  if (!isSignedIn) return { kind: 'guest' };
  if (error instanceof ApiError) {
    if (error.statusCode === STATUS_LOGIN_EXPIRED) return { kind: 'guest' };
    if (error.statusCode === BUSINESS_CODES.KYC_REQUIRED.code) {
      // The 143 content names the missing step's page (docs/kyc.md).
      const { content } = error.response;
      const route =
        typeof content === 'object' && content !== null ? (content as { route?: unknown }).route : undefined;
      return {
        kind: 'kyc',
        route: typeof route === 'string' && route.startsWith('/') ? route : '/identity',
        message: error.message,
      };
    }
  }
  return { kind: 'ok' };
}

/** The verification page of a 143 answer, coming back to `returnTo` afterwards. */
export function kycLinkOf(route: string, returnTo: string): string {
  return `${route}?returnTo=${encodeURIComponent(returnTo)}`;
}
