import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { kycLinkOf, loanAccessOf } from './loan-access.ts';

/** Who may borrow is read from the server's answer: no session → guest, 143 → verify (its step), else ok. */
describe('loanAccessOf', () => {
  it('treats no session and 101 as a guest', () => {
    expect(loanAccessOf(false, null)).toEqual({ kind: 'guest' });
    const expired = new ApiError({ statusCode: 101, message: 'Login has expired', content: null });
    expect(loanAccessOf(true, expired)).toEqual({ kind: 'guest' });
  });

  it('sends a user below level 2 to the step the 143 answer names', () => {
    const refusal = new ApiError({
      statusCode: 143,
      message: 'Please verify your identity',
      content: { route: '/identity/investor' },
    });
    expect(loanAccessOf(true, refusal)).toEqual({
      kind: 'kyc',
      route: '/identity/investor',
      message: 'Please verify your identity',
    });
    const bare = new ApiError({ statusCode: 143, message: 'Verify', content: { route: 'https://elsewhere.example' } });
    expect(loanAccessOf(true, bare)).toMatchObject({ kind: 'kyc', route: '/identity' });
  });

  it('lets everyone else borrow, and comes back after verifying', () => {
    expect(loanAccessOf(true, null)).toEqual({ kind: 'ok' });
    expect(kycLinkOf('/identity/basic', '/loan#borrow')).toBe('/identity/basic?returnTo=%2Floan%23borrow');
  });
});
