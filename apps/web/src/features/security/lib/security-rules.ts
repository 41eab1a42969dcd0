import { maskEmail, type SecurityConfig } from '@meridian/contracts/identity';
import type { Locale } from '@meridian/contracts/locale';
import type { ValidationMessageKey } from '@meridian/contracts/validation';
import { OPEN_SUPPORT_REQUEST_STATUSES, type SupportRequest } from '@meridian/contracts/support';
import type { VerifyNeeds } from '../../../components/verify-fields.tsx';

/**
 * The security pages' rules, free of React so that they are tested on their own: which bindings
 * show as bound, which verification switches can be turned and what confirming one asks for, the
 * steps of binding the authenticator, and when an account deletion request can be sent
 * (docs/identity.md).
 */

/** A verification scope of the security page: signing in, or a sensitive (trade) action. */
export type SwitchScope = 'login' | 'trade';
/** A factor a scope can ask for: the email code, the two-factor code, the security password. */
export type SwitchFactor = 'email' | 'mfa' | 'security';

/** One row of the security page's bindings list, before translation. */
export interface BindingRow {
  key: 'email' | 'mobile' | 'google' | 'pin' | 'password';
  /** Whether the row shows as bound (set); the email and the login password always are. */
  isBound: boolean;
  /** The masked email for `email`, the number as the server sends it for `mobile`, else null. */
  shownValue: string | null;
}

/**
 * The bindings of the security page from the security configuration and the user's email and
 * mobile: the email is shown masked (`maskEmail`: 2 or 1 characters kept at each end), the
 * authenticator is bound when `mfa` lists `'google'`, the security password when `security` is 1.
 */
export function bindingRows(config: SecurityConfig, email: string, mobile: string | null): BindingRow[] {
  return [
    { key: 'email', isBound: true, shownValue: maskEmail(email) },
    { key: 'mobile', isBound: config.mobile === 1, shownValue: mobile },
    { key: 'google', isBound: config.mfa.includes('google'), shownValue: null },
    { key: 'pin', isBound: config.security === 1, shownValue: null },
    { key: 'password', isBound: true, shownValue: null },
  ];
}

/**
 * Whether a switch can be turned: the email code always; the two-factor code once a second factor
 * (authenticator or passkey) is bound; the security password (trade only) once it is set.
 */
export function isSwitchAvailable(config: SecurityConfig, factor: SwitchFactor): boolean {
  if (factor === 'mfa') return config.mfa.length > 0;
  if (factor === 'security') return config.security === 1;
  return true;
}

/** Whether a scope asks for a factor now (the switch's position). */
export function isSwitchOn(config: SecurityConfig, scope: SwitchScope, factor: SwitchFactor): boolean {
  if (scope === 'login') return factor !== 'security' && config.login[factor] === 1;
  return config.trade[factor] === 1;
}

/**
 * What confirming a switch asks for: always an email code (`CONFIG_SWITCH`), plus the factors the
 * scope asks for now — the two-factor code when the scope's mfa switch is on, the security password
 * when turning a trade switch while the trade security switch is on.
 */
export function switchNeeds(config: SecurityConfig, scope: SwitchScope): VerifyNeeds {
  return {
    email: true,
    mfa: scope === 'login' ? config.login.mfa === 1 : config.trade.mfa === 1,
    security: scope === 'trade' && config.trade.security === 1,
  };
}

/** The step of the authenticator page: loading, bind (scan and confirm), the recovery codes once bound, or unbind. */
export type AuthenticatorStep = 'loading' | 'bind' | 'recovery-codes' | 'unbind';

/**
 * The authenticator page's step: the recovery codes just received are shown first (they are shown
 * once), then, with the configuration known, unbind when `'google'` is bound, else bind.
 */
export function authenticatorStep(
  config: SecurityConfig | undefined,
  recoveryCodes: string[] | null,
): AuthenticatorStep {
  if (recoveryCodes) return 'recovery-codes';
  if (!config) return 'loading';
  return config.mfa.includes('google') ? 'unbind' : 'bind';
}

/** What binding or unbinding the authenticator asks for besides its own code (`MFA_ADD` / `MFA_REMOVE` email code). */
export function authenticatorNeeds(config: SecurityConfig | undefined, step: 'bind' | 'unbind'): VerifyNeeds {
  // Binding proves the new authenticator by its own code field; unbinding asks for the current one.
  return { email: true, mfa: step === 'unbind', security: config?.trade.security === 1 };
}

/** Whether a deletion request is still open (pending or in progress): no new one can be sent meanwhile. */
export function isDeletionRequestOpen(request: SupportRequest | null): boolean {
  return request !== null && (OPEN_SUPPORT_REQUEST_STATUSES as readonly string[]).includes(request.status);
}

/** Whether the deletion request can be sent: the user ticked "I understand" and gave a reason that is not blank. */
export function canSendDeletionRequest(isUnderstood: boolean, reason: string): boolean {
  return isUnderstood && reason.trim() !== '';
}

/** The shortest login password, counted without surrounding spaces (as the server's `passwordMin` rule). */
export const PASSWORD_LENGTH_MIN = 8;

/** The security password (trading password): exactly six digits. */
export const SECURITY_PASSWORD_PATTERN = /^\d{6}$/;

/** The message key a new login password breaks (`validation.passwordMin`), or null when it is long enough. */
export function newPasswordProblem(password: string | undefined): ValidationMessageKey | null {
  return (password ?? '').trim().length >= PASSWORD_LENGTH_MIN ? null : 'validation.passwordMin';
}

/** The message key when the confirmation differs from the new login password (both trimmed), or null. */
export function passwordConfirmProblem(password: unknown, confirm: string | undefined): ValidationMessageKey | null {
  return (confirm ?? '').trim() === String(password ?? '').trim() ? null : 'validation.passwordMismatch';
}

/** The message key when the security password's confirmation differs (compared exactly: digits have no spaces), or null. */
export function securityPasswordConfirmProblem(
  securityPassword: unknown,
  confirm: string | undefined,
): ValidationMessageKey | null {
  return confirm === securityPassword ? null : 'validation.passwordMismatch';
}

/** A mobile number as typed: 4 to 20 digits, spaces, brackets and dashes (the server reads it into E.164). */
export const MOBILE_NUMBER_PATTERN = /^[\d\s()-]{4,20}$/;

/** A country of the server's list as the mobile form needs it. */
export interface DialCountry {
  code: string;
  nameEn: string;
  nameZh: string;
  dialCodes: readonly string[];
}

/**
 * The mobile form's country choices: the countries that have a calling code, named in the user's
 * language with their first calling code ("Hong Kong +852", "香港 +852").
 */
export function dialCodeOptions(countries: readonly DialCountry[], locale: Locale): { value: string; label: string }[] {
  return countries
    .filter((country) => country.dialCodes.length > 0)
    .map((country) => ({
      value: country.code,
      label: `${locale === 'zh-HK' ? country.nameZh : country.nameEn} +${country.dialCodes[0]}`,
    }));
}
