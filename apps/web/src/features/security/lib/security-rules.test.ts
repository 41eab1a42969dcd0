import type { SecurityConfig } from '@meridian/contracts/identity';
import type { SupportRequest } from '@meridian/contracts/support';
import { validationMessage } from '@meridian/contracts/validation';
import { describe, expect, it } from 'vitest';
import {
  authenticatorNeeds,
  authenticatorStep,
  bindingRows,
  canSendDeletionRequest,
  dialCodeOptions,
  isDeletionRequestOpen,
  isSwitchAvailable,
  isSwitchOn,
  MOBILE_NUMBER_PATTERN,
  newPasswordProblem,
  passwordConfirmProblem,
  SECURITY_PASSWORD_PATTERN,
  securityPasswordConfirmProblem,
  switchNeeds,
} from './security-rules.ts';

/** A new account: email code on for login and trade, nothing else bound or set. */
const FRESH: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};

/** Everything bound and every switch on. */
const GUARDED: SecurityConfig = {
  security: 1,
  mfa: ['google', 'passkey'],
  login: { email: 1, mfa: 1 },
  trade: { email: 1, mfa: 1, security: 1 },
  mobile: 1,
  withdrawalHoldUntil: null,
};

const request = (status: SupportRequest['status']): SupportRequest => ({
  id: 'r1',
  kind: 'ACCOUNT_DELETION',
  status,
  reason: 'moving abroad',
  reply: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
});

describe('bindingRows', () => {
  it('masks the email, keeping two characters at each end of a long local part', () => {
    const [email] = bindingRows(FRESH, 'demonstration@meridian.test', null);
    expect(email).toEqual({ key: 'email', isBound: true, shownValue: 'de*********on@meridian.test' });
  });

  it('keeps one character at each end of a short local part, and never shows the address in full', () => {
    expect(bindingRows(FRESH, 'demo@meridian.test', null)[0]?.shownValue).toBe('d**o@meridian.test');
    expect(bindingRows(FRESH, 'ab@meridian.test', null)[0]?.shownValue).toBe('a*@meridian.test');
    expect(bindingRows(FRESH, 'not-an-address', null)[0]?.shownValue).toBe('');
  });

  it('a fresh account: email and login password bound, mobile, authenticator and security password not', () => {
    const rows = bindingRows(FRESH, 'demo@meridian.test', null);
    expect(rows.map((row) => [row.key, row.isBound])).toEqual([
      ['email', true],
      ['mobile', false],
      ['google', false],
      ['pin', false],
      ['password', true],
    ]);
    expect(rows[1]?.shownValue).toBeNull();
  });

  it('everything bound: the mobile as the server sends it, the authenticator bound only by "google"', () => {
    const rows = bindingRows(GUARDED, 'demo@meridian.test', '+852 9*** **78');
    expect(rows.every((row) => row.isBound)).toBe(true);
    expect(rows[1]?.shownValue).toBe('+852 9*** **78');
    // A passkey is a second factor but not the authenticator binding.
    const passkeyOnly = bindingRows({ ...FRESH, mfa: ['passkey'] }, 'demo@meridian.test', null);
    expect(passkeyOnly.find((row) => row.key === 'google')?.isBound).toBe(false);
  });
});

describe('verification switches', () => {
  it('the email switches can always be turned; mfa only with a second factor; the security password only once set', () => {
    expect(isSwitchAvailable(FRESH, 'email')).toBe(true);
    expect(isSwitchAvailable(FRESH, 'mfa')).toBe(false);
    expect(isSwitchAvailable(FRESH, 'security')).toBe(false);
    expect(isSwitchAvailable({ ...FRESH, mfa: ['passkey'] }, 'mfa')).toBe(true);
    expect(isSwitchAvailable({ ...FRESH, security: 1 }, 'security')).toBe(true);
  });

  it('shows each switch as the configuration has it; login never asks for the security password', () => {
    expect(isSwitchOn(FRESH, 'login', 'email')).toBe(true);
    expect(isSwitchOn(FRESH, 'trade', 'mfa')).toBe(false);
    expect(isSwitchOn(GUARDED, 'login', 'mfa')).toBe(true);
    expect(isSwitchOn(GUARDED, 'trade', 'security')).toBe(true);
    expect(isSwitchOn(GUARDED, 'login', 'security')).toBe(false);
  });

  it('confirming a switch asks for the email code and the factors its scope asks for now', () => {
    expect(switchNeeds(FRESH, 'login')).toEqual({ email: true, mfa: false, security: false });
    expect(switchNeeds(FRESH, 'trade')).toEqual({ email: true, mfa: false, security: false });
    expect(switchNeeds(GUARDED, 'login')).toEqual({ email: true, mfa: true, security: false });
    expect(switchNeeds(GUARDED, 'trade')).toEqual({ email: true, mfa: true, security: true });
    // The login scope's mfa switch does not make a trade switch ask for the code, and the other way round.
    const loginMfaOnly = { ...GUARDED, trade: { email: 1, mfa: 0, security: 0 } };
    expect(switchNeeds(loginMfaOnly, 'trade')).toEqual({ email: true, mfa: false, security: false });
    expect(switchNeeds({ ...GUARDED, login: { email: 1, mfa: 0 } }, 'login').mfa).toBe(false);
  });
});

describe('authenticator binding steps', () => {
  it('loading until the configuration is known, then bind or unbind by whether "google" is bound', () => {
    expect(authenticatorStep(undefined, null)).toBe('loading');
    expect(authenticatorStep(FRESH, null)).toBe('bind');
    expect(authenticatorStep({ ...FRESH, mfa: ['passkey'] }, null)).toBe('bind');
    expect(authenticatorStep(GUARDED, null)).toBe('unbind');
  });

  it('the recovery codes just received come first, even after the configuration says bound', () => {
    expect(authenticatorStep(GUARDED, ['aaaa-bbbb', 'cccc-dddd'])).toBe('recovery-codes');
    expect(authenticatorStep(undefined, [])).toBe('recovery-codes');
  });

  it('binding asks for the email code (and the security password when trade asks for it), never the old code', () => {
    expect(authenticatorNeeds(FRESH, 'bind')).toEqual({ email: true, mfa: false, security: false });
    expect(authenticatorNeeds({ ...FRESH, security: 1, trade: { email: 1, mfa: 0, security: 1 } }, 'bind')).toEqual({
      email: true,
      mfa: false,
      security: true,
    });
    expect(authenticatorNeeds(GUARDED, 'unbind')).toEqual({ email: true, mfa: true, security: true });
    expect(authenticatorNeeds(undefined, 'unbind')).toEqual({ email: true, mfa: true, security: false });
  });
});

describe('password rules', () => {
  it('a login password needs 8 characters without the surrounding spaces', () => {
    expect(newPasswordProblem('abcdefgh')).toBeNull();
    expect(newPasswordProblem('abcdefg')).toBe('validation.passwordMin');
    expect(newPasswordProblem('  abcdefg  ')).toBe('validation.passwordMin');
    expect(newPasswordProblem(undefined)).toBe('validation.passwordMin');
  });

  it('the confirmation is compared without surrounding spaces', () => {
    expect(passwordConfirmProblem('abcdefgh', ' abcdefgh ')).toBeNull();
    expect(passwordConfirmProblem('abcdefgh', 'abcdefgH')).toBe('validation.passwordMismatch');
    expect(passwordConfirmProblem(undefined, '')).toBeNull();
  });

  it('the security password is six digits and its confirmation must be the same six digits', () => {
    expect(SECURITY_PASSWORD_PATTERN.test('123456')).toBe(true);
    for (const wrong of ['12345', '1234567', '12345a', ' 123456', '１２３４５６']) {
      expect(SECURITY_PASSWORD_PATTERN.test(wrong)).toBe(false);
    }
    expect(securityPasswordConfirmProblem('123456', '123456')).toBeNull();
    expect(securityPasswordConfirmProblem('123456', '123457')).toBe('validation.passwordMismatch');
    expect(securityPasswordConfirmProblem('123456', undefined)).toBe('validation.passwordMismatch');
  });

  it('the problems read in both languages', () => {
    expect(validationMessage('validation.passwordMin', 'en-US')).toBe('The password must be at least 8 characters');
    expect(validationMessage('validation.passwordMin', 'zh-HK')).toBe('密碼最少需要 8 個字元');
    expect(validationMessage('validation.passwordMismatch', 'zh-HK')).toBe('兩次輸入的密碼不一致');
  });
});

describe('account deletion request', () => {
  it('is open while pending or in progress; a decided one allows a new request', () => {
    expect(isDeletionRequestOpen(null)).toBe(false);
    expect(isDeletionRequestOpen(request('PENDING'))).toBe(true);
    expect(isDeletionRequestOpen(request('IN_PROGRESS'))).toBe(true);
    expect(isDeletionRequestOpen(request('DONE'))).toBe(false);
    expect(isDeletionRequestOpen(request('REJECTED'))).toBe(false);
  });

  it('can be sent only once understood and with a reason that is not blank', () => {
    expect(canSendDeletionRequest(false, 'moving abroad')).toBe(false);
    expect(canSendDeletionRequest(true, '')).toBe(false);
    expect(canSendDeletionRequest(true, ' \n\t ')).toBe(false);
    expect(canSendDeletionRequest(true, 'moving abroad')).toBe(true);
  });
});

describe('mobile number form', () => {
  const countries = [
    { code: 'HK', nameEn: 'Hong Kong', nameZh: '香港', dialCodes: ['852'] },
    { code: 'AQ', nameEn: 'Antarctica', nameZh: '南極洲', dialCodes: [] },
    { code: 'US', nameEn: 'United States', nameZh: '美國', dialCodes: ['1', '1340'] },
  ];

  it('offers only countries with a calling code, named in the user language with the first code', () => {
    expect(dialCodeOptions(countries, 'en-US')).toEqual([
      { value: 'HK', label: 'Hong Kong +852' },
      { value: 'US', label: 'United States +1' },
    ]);
    expect(dialCodeOptions(countries, 'zh-HK').map((option) => option.label)).toEqual(['香港 +852', '美國 +1']);
  });

  it('takes 4 to 20 digits, spaces, brackets and dashes', () => {
    for (const good of ['9123 4567', '(852) 9123-4567', '1234']) expect(MOBILE_NUMBER_PATTERN.test(good)).toBe(true);
    for (const bad of ['123', '+852 91234567', '9123x4567', '1'.repeat(21)]) {
      expect(MOBILE_NUMBER_PATTERN.test(bad)).toBe(false);
    }
  });
});
