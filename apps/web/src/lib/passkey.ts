import { passkeyEndpoints, type AssertionOptionsRequest } from '@meridian/contracts/passkeys';
import type { PasskeyAssertion } from '@meridian/contracts/security';
import { type ApiFailure, callEndpoint, isSuccess } from './api-client.ts';

/**
 * Passkey ceremonies in the browser, through `@simplewebauthn/browser` (loaded on first
 * use, so no page pays for it up front): ask the server for options with a single-use challenge,
 * let the browser's authenticator answer, and hand back the answer with the challenge's id.
 */

/** The outcome of a ceremony: the answer, the server's refusal, or the user backing out. */
export type CeremonyResult<T> =
  { kind: 'ok'; value: T } | { kind: 'failed'; response: ApiFailure } | { kind: 'cancelled'; message: string };

/** Whether this browser can use passkeys at all (WebAuthn present). */
export function isPasskeySupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Sign a fresh challenge: `purpose: 'login'` for a discoverable sign-in, `'verify'` for the `mfa`
 * factor of a Verify step (signed in, or with the login flow's `email` + `ticket`).
 */
export async function getPasskeyAssertion(body: AssertionOptionsRequest): Promise<CeremonyResult<PasskeyAssertion>> {
  const options = await callEndpoint(passkeyEndpoints.assertionOptions, { body }, { silent: true });
  if (!isSuccess(options)) return { kind: 'failed', response: options };
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    const response = await startAuthentication({
      optionsJSON: options.content.options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
    return {
      kind: 'ok',
      value: {
        challengeId: options.content.challengeId,
        response: response as unknown as PasskeyAssertion['response'],
      },
    };
  } catch (error) {
    return { kind: 'cancelled', message: errorMessage(error) };
  }
}

/** Create a passkey for the signed-in user: the answer and its challenge id, to register under a name. */
export async function createPasskey(): Promise<
  CeremonyResult<{ challengeId: string; response: Record<string, unknown> }>
> {
  const options = await callEndpoint(passkeyEndpoints.registrationOptions, {}, { silent: true });
  if (!isSuccess(options)) return { kind: 'failed', response: options };
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    const response = await startRegistration({
      optionsJSON: options.content.options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
    });
    return {
      kind: 'ok',
      value: { challengeId: options.content.challengeId, response: response as unknown as Record<string, unknown> },
    };
  } catch (error) {
    return { kind: 'cancelled', message: errorMessage(error) };
  }
}

/**
 * For a form whose `mfa` factor the user can only give with a passkey (no authenticator app: the
 * security configuration's `mfa` lists `'passkey'` alone): whether to hide the code input and ask
 * for a passkey on submit instead.
 */
export function isMfaByPasskeyOnly(isMfaNeeded: boolean, mfaMethods: readonly string[] | undefined): boolean {
  return isMfaNeeded && !(mfaMethods ?? []).includes('google') && (mfaMethods ?? []).includes('passkey');
}

/**
 * Add a passkey's answer (a `verify` challenge of the signed-in user) to a form's values, for the
 * `mfa` factor. @returns the values with `passkey`, or the message to show.
 */
export async function withPasskeyFactor<T extends object>(
  values: T,
  cancelledMessage: string,
): Promise<{ values: T & { passkey: PasskeyAssertion } } | { error: string }> {
  const assertion = await getPasskeyAssertion({ purpose: 'verify' });
  if (assertion.kind === 'ok') return { values: { ...values, passkey: assertion.value } };
  return { error: assertion.kind === 'failed' ? assertion.response.message : cancelledMessage };
}
