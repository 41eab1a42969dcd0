import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import {
  humanCheckChallengeSchema,
  loginRequestSchema,
  loginContentSchema,
  emailFlowRequestSchema,
  emailFlowContentSchema,
  resetPasswordRequestSchema,
} from './login.ts';
import { sendEmailCodeRequestSchema, sendCodeContentSchema, selfContentSchema, securityConfigSchema } from './codes.ts';
import {
  countrySchema,
  sessionItemSchema,
  sessionIdParamsSchema,
  signInItemSchema,
  cancelAccountRequestSchema,
  configSwitchRequestSchema,
  mfaKeyContentSchema,
  bindMfaRequestSchema,
  bindMfaContentSchema,
  unbindMfaRequestSchema,
  setSecurityPasswordRequestSchema,
  changePasswordRequestSchema,
  sendNewEmailCodeRequestSchema,
  changeEmailRequestSchema,
  sendMobileCodeRequestSchema,
  bindMobileRequestSchema,
} from './security.ts';

// ---------------------------------------------------------------- endpoints

/**
 * The identity calls (`user/*`: human check, sign-in, register and recover, codes, the
 * user's state, sessions, account deletion) with their rules: the descriptors the server registers
 * its routes from (see `endpoint.ts`). The security settings are `securityEndpoints` below.
 */
export const identityEndpoints = {
  humanCheckChallenge: defineEndpoint({
    method: 'GET',
    path: '/user/human-check/challenge',
    tag: 'identity',
    summary: 'ALTCHA proof-of-work challenge for login, register and recover',
    auth: 'none',
    // The ALTCHA widget fetches it itself: the challenge, not an envelope.
    isBareContent: true,
    content: humanCheckChallengeSchema,
  }),
  login: defineEndpoint({
    method: 'POST',
    path: '/user/login',
    tag: 'identity',
    summary: 'Log in: email, password, token; then the factors asked for',
    auth: 'none',
    body: loginRequestSchema,
    content: loginContentSchema,
    codes: ['ACCOUNT_LOCKED', 'LOGIN_FAILED', 'CAPTCHA_FAILED'],
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/user/logout',
    tag: 'identity',
    summary: 'Log out: revoke this session',
    auth: 'optional',
    content: z.null(),
  }),
  register: defineEndpoint({
    method: 'POST',
    path: '/user/register',
    tag: 'identity',
    summary: 'Register: Mail, Verify and Password steps',
    auth: 'none',
    body: emailFlowRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED', 'CONFLICT'],
  }),
  forgetPassword: defineEndpoint({
    method: 'POST',
    path: '/user/forgetPassword',
    tag: 'identity',
    summary: 'Recover: Mail and Verify steps',
    auth: 'none',
    body: emailFlowRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: '/user/resetPassword',
    tag: 'identity',
    summary: 'Recover: Password step; revokes every session, holds withdrawals 24 h',
    auth: 'none',
    apiVersion: '2.0',
    body: resetPasswordRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  sendEmailCode: defineEndpoint({
    method: 'POST',
    path: '/user/captcha',
    tag: 'identity',
    summary: 'Send an email code for an event',
    auth: 'optional',
    body: sendEmailCodeRequestSchema,
    content: sendCodeContentSchema,
    // LOGIN_EXPIRED: signed out, for an event other than register, recover and login.
    codes: ['LOGIN_EXPIRED', 'CODE_RESEND_WAIT', 'CAPTCHA_FAILED'],
  }),
  self: defineEndpoint({
    method: 'GET',
    path: '/user/self',
    tag: 'identity',
    summary: 'The signed-in user',
    auth: 'user',
    content: selfContentSchema,
  }),
  listCountries: defineEndpoint({
    method: 'GET',
    path: '/user/country/list',
    tag: 'identity',
    summary: 'Countries with English and Traditional Chinese names and calling codes',
    auth: 'none',
    content: z.array(countrySchema),
  }),
  listSessions: defineEndpoint({
    method: 'GET',
    path: '/user/sessions',
    tag: 'identity',
    summary: 'Active sessions',
    auth: 'user',
    content: z.array(sessionItemSchema),
  }),
  revokeSession: defineEndpoint({
    method: 'DELETE',
    path: '/user/sessions/:id',
    tag: 'identity',
    summary: 'Revoke one session',
    auth: 'user',
    params: sessionIdParamsSchema,
    content: z.null(),
    codes: ['NOT_FOUND'],
  }),
  listSignIns: defineEndpoint({
    method: 'GET',
    path: '/user/signins',
    tag: 'identity',
    summary: 'Recent sign-ins and failures',
    auth: 'user',
    content: z.array(signInItemSchema),
  }),
  cancelAccount: defineEndpoint({
    method: 'POST',
    path: '/user/cancel',
    tag: 'identity',
    summary: 'Delete (close) the account after security verification',
    auth: 'user',
    sensitiveAction: 'ACCOUNT_CANCEL',
    apiVersion: '2.0',
    body: cancelAccountRequestSchema,
    content: z.null(),
    codes: ['ACCOUNT_NOT_EMPTY', 'CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
};

/**
 * The security settings (`user/config*`, `user/security/password`, `user/password`, email
 * and mobile binding): each carries the factors it needs in its body, checked by the service.
 * Kept here rather than in `security.ts` because their schemas are above and `security.ts` is
 * imported by this file.
 */
export const securityEndpoints = {
  config: defineEndpoint({
    method: 'GET',
    path: '/user/config',
    tag: 'identity',
    summary: 'Security configuration',
    auth: 'user',
    content: securityConfigSchema,
  }),
  switchConfig: defineEndpoint({
    method: 'POST',
    path: '/user/config/switch',
    tag: 'identity',
    summary: 'Turn a login or trade factor on or off',
    auth: 'user',
    body: configSwitchRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  mfaKey: defineEndpoint({
    method: 'GET',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'A new authenticator secret with its QR code',
    auth: 'user',
    content: mfaKeyContentSchema,
  }),
  bindMfa: defineEndpoint({
    method: 'POST',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'Bind the authenticator; returns 10 recovery codes once',
    auth: 'user',
    body: bindMfaRequestSchema,
    content: bindMfaContentSchema,
    codes: ['CONFLICT', 'CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  unbindMfa: defineEndpoint({
    method: 'DELETE',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'Unbind the authenticator',
    auth: 'user',
    body: unbindMfaRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  setSecurityPassword: defineEndpoint({
    method: 'POST',
    path: '/user/security/password',
    tag: 'identity',
    summary: 'Set or change the 6-digit security code (trading password)',
    auth: 'user',
    body: setSecurityPasswordRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/user/password',
    tag: 'identity',
    summary: 'Change the login password; signs out other sessions',
    auth: 'user',
    body: changePasswordRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED'],
  }),
  sendNewEmailCode: defineEndpoint({
    method: 'POST',
    path: '/user/email/captcha',
    tag: 'identity',
    summary: 'Send an EMAIL_CHANGE code to a new email address',
    auth: 'user',
    body: sendNewEmailCodeRequestSchema,
    content: sendCodeContentSchema,
    codes: ['CODE_RESEND_WAIT'],
  }),
  changeEmail: defineEndpoint({
    method: 'POST',
    path: '/user/email/change',
    tag: 'identity',
    summary:
      'Change the email address (new-address code + current factors); signs out other sessions, holds withdrawals 72 h',
    auth: 'user',
    body: changeEmailRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED', 'CONFLICT'],
  }),
  sendMobileCode: defineEndpoint({
    method: 'POST',
    path: '/user/mobile/captcha',
    tag: 'identity',
    summary: 'Send an SMS code to a number to bind',
    auth: 'user',
    body: sendMobileCodeRequestSchema,
    content: sendCodeContentSchema,
    codes: ['CODE_RESEND_WAIT'],
  }),
  bindMobile: defineEndpoint({
    method: 'POST',
    path: '/user/web/mobile/bind',
    tag: 'identity',
    summary: 'Bind a mobile number',
    auth: 'user',
    apiVersion: '2.0',
    body: bindMobileRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
};

/**
 * Email masking: a valid address whose local part is longer than 4 characters keeps its
 * first 2 and last 2 characters, otherwise 1 each; the middle becomes asterisks. Invalid → ''.
 */
export function maskEmail(address: string): string {
  const match = /^([^@\s]+)@([^@\s]+\.[^@\s]+)$/.exec(address);
  if (!match) return '';
  const [, local = '', domain = ''] = match;
  const keep = local.length > 4 ? 2 : 1;
  if (local.length <= keep * 2)
    return `${local.slice(0, keep)}${'*'.repeat(Math.max(local.length - keep, 1))}@${domain}`;
  return `${local.slice(0, keep)}${'*'.repeat(local.length - keep * 2)}${local.slice(-keep)}@${domain}`;
}
