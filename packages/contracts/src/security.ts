import { z } from 'zod';

/**
 * Events an email code can be requested for (spec §7 "Captcha for mail code per event"). A
 * sensitive route declares its event; the code it accepts must have been sent for that event.
 */
export const CAPTCHA_EVENTS = [
  'WITHDRAW_ADDRESS_ADD',
  'PURCHASE',
  'MFA_ADD',
  'REDEEM',
  'CONFIG_SWITCH',
  'SECURITY_PASSWORD',
  'FORGET_PASSWORD',
  'EMAIL_REGISTER',
  'LOGIN_CHECK',
  'LOAN_BORROW',
  'LOAN_REPAY',
  'LOAN_ADJUST',
  'WITHDRAW',
  'ACCOUNT_CANCEL',
  'MFA_REMOVE',
  'MOBILE_BIND',
  'PASSWORD_CHANGE',
  'EMAIL_CHANGE',
  'BANK_ACCOUNT_ADD',
  'BANK_ACCOUNT_DELETE',
  'TRUST_FUND',
  'TRUST_WITHDRAW',
  'CARD_APPLY',
  'CARD_TOPUP',
  'CARD_REVEAL',
  'CARD_PIN',
  'API_KEY_CREATE',
] as const;
export type CaptchaEvent = (typeof CAPTCHA_EVENTS)[number];
export const captchaEventSchema = z.enum(CAPTCHA_EVENTS);

/** Six digits (spec §5 "Codes are 6 digits"; §9 verification code). */
export const sixDigitCodeSchema = z.string().regex(/^\d{6}$/, { error: 'validation.code6' });

/**
 * The verification factors a sensitive action may carry (spec §3 security check form): the server
 * demands exactly those the user's trade configuration requires (spec §4 sensitive actions).
 * Routes that declare `sensitiveAction` extend their body schema with this.
 */
export const sensitiveFactorsSchema = z.object({
  mfaCode: sixDigitCodeSchema.optional(),
  emailCaptcha: sixDigitCodeSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
});
export type SensitiveFactors = z.infer<typeof sensitiveFactorsSchema>;
