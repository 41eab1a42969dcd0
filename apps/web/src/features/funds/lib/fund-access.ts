import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { ApiError, STATUS_LOGIN_EXPIRED } from '../../../lib/api-client.ts';
import { showFeedback } from '../../../lib/feedback.ts';
import { translate } from '../../../lib/i18n.ts';

/**
 * Whether the signed-in user may use the funds, read from a refused fund call (funds need level 2,
 * docs/kyc.md): `guest` when there is no session (101), `kyc` with the step's page when the server
 * answered 143, `ok` otherwise.
 */
export type FundAccess = { kind: 'guest' } | { kind: 'kyc'; route: string } | { kind: 'ok' };

export function fundAccessOf(isSignedIn: boolean, error: unknown): FundAccess {
  if (!isSignedIn) return { kind: 'guest' };
  if (error instanceof ApiError) {
    if (error.statusCode === STATUS_LOGIN_EXPIRED) return { kind: 'guest' };
    if (error.statusCode === BUSINESS_CODES.KYC_REQUIRED.code) {
      // The 143 content names the missing step's page (docs/kyc.md); read by hand to keep the kyc contracts out of this page.
      const { content } = error.response;
      const route =
        typeof content === 'object' && content !== null ? (content as { route?: unknown }).route : undefined;
      return { kind: 'kyc', route: typeof route === 'string' && route.startsWith('/') ? route : '/identity' };
    }
  }
  return { kind: 'ok' };
}

/** The verification page of a 143 answer, coming back to `returnTo` afterwards. */
export function kycLinkOf(route: string, returnTo: string): string {
  return `${route}?returnTo=${encodeURIComponent(returnTo)}`;
}

/**
 * The prompt the API client shows for a refused call's 143 (the same notification with its "Verify
 * now" button), for the fund pages' buttons: their data comes from GET calls, which show nothing.
 */
export function showKycPrompt(route: string, message: string, returnTo: string): void {
  showFeedback({
    kind: 'notification',
    title: translate('common:feedback.kycRequiredTitle'),
    description: message,
    action: { label: translate('common:feedback.kycRequiredAction'), to: kycLinkOf(route, returnTo) },
  });
}
