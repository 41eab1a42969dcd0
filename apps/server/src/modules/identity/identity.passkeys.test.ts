import { describe, expect, it } from 'vitest';
import { isCounterAcceptable, relyingPartyOf } from './identity.passkeys.ts';

describe('passkeys: counter rule', () => {
  it('accepts a growing counter and an authenticator that keeps none (0 after 0)', () => {
    expect(isCounterAcceptable(0, 0)).toBe(true);
    expect(isCounterAcceptable(0, 1)).toBe(true);
    expect(isCounterAcceptable(41, 42)).toBe(true);
  });
  it('refuses a counter at or below the stored one (a cloned key)', () => {
    expect(isCounterAcceptable(5, 5)).toBe(false);
    expect(isCounterAcceptable(5, 4)).toBe(false);
    expect(isCounterAcceptable(5, 0)).toBe(false);
  });
});

describe('passkeys: relying party', () => {
  it('takes the configured RP ID and origins first', () => {
    expect(
      relyingPartyOf({ rpId: 'meridian.example', origins: ['https://app.meridian.example'] }, 'http://x:1'),
    ).toEqual({ id: 'meridian.example', origins: ['https://app.meridian.example'] });
  });
  it('falls back to the request for each part left unset', () => {
    expect(relyingPartyOf({ rpId: undefined, origins: undefined }, 'http://localhost:5173')).toEqual({
      id: 'localhost',
      origins: ['http://localhost:5173'],
    });
    expect(relyingPartyOf(undefined, 'http://localhost:80')).toEqual({
      id: 'localhost',
      origins: ['http://localhost'],
    });
  });
});
