import type { Locale } from '@meridian/contracts/locale';
import { interpolate } from '@meridian/contracts/locale';
import type { CaptchaEvent } from '@meridian/contracts/security';

/**
 * Texts of the mails and SMS the identity module sends, in en-US and zh-HK (mails in the
 * user's language). `{placeholders}` are filled by `renderMail`.
 */
const EVENT_NAMES: Record<CaptchaEvent, Record<Locale, string>> = {
  WITHDRAW_ADDRESS_ADD: { 'en-US': 'adding a withdrawal address', 'zh-HK': '新增提幣地址' },
  PURCHASE: { 'en-US': 'a purchase', 'zh-HK': '認購' },
  MFA_ADD: { 'en-US': 'binding Google Authenticator', 'zh-HK': '綁定 Google 驗證器' },
  MFA_REMOVE: { 'en-US': 'unbinding Google Authenticator', 'zh-HK': '解除綁定 Google 驗證器' },
  REDEEM: { 'en-US': 'a redemption', 'zh-HK': '贖回' },
  CONFIG_SWITCH: { 'en-US': 'changing your security settings', 'zh-HK': '更改安全設定' },
  SECURITY_PASSWORD: { 'en-US': 'setting your security code', 'zh-HK': '設定安全碼' },
  FORGET_PASSWORD: { 'en-US': 'resetting your password', 'zh-HK': '重設密碼' },
  EMAIL_REGISTER: { 'en-US': 'creating your account', 'zh-HK': '註冊帳戶' },
  LOGIN_CHECK: { 'en-US': 'signing in', 'zh-HK': '登入' },
  LOAN_BORROW: { 'en-US': 'borrowing', 'zh-HK': '借款' },
  LOAN_REPAY: { 'en-US': 'a loan repayment', 'zh-HK': '還款' },
  LOAN_ADJUST: { 'en-US': 'adjusting collateral', 'zh-HK': '調整抵押品' },
  WITHDRAW: { 'en-US': 'a withdrawal', 'zh-HK': '提幣' },
  ACCOUNT_CANCEL: { 'en-US': 'deleting your account', 'zh-HK': '刪除帳戶' },
  MOBILE_BIND: { 'en-US': 'binding a mobile number', 'zh-HK': '綁定手機號碼' },
  PASSWORD_CHANGE: { 'en-US': 'changing your password', 'zh-HK': '更改密碼' },
  EMAIL_CHANGE: { 'en-US': 'changing your email address', 'zh-HK': '更改電郵地址' },
  BANK_ACCOUNT_ADD: { 'en-US': 'adding a bank account', 'zh-HK': '新增銀行帳戶' },
  BANK_ACCOUNT_DELETE: { 'en-US': 'removing a bank account', 'zh-HK': '移除銀行帳戶' },
  TRUST_FUND: { 'en-US': 'funding a trust', 'zh-HK': '為信託注資' },
  TRUST_WITHDRAW: { 'en-US': 'a withdrawal from a trust', 'zh-HK': '從信託提取' },
  CARD_APPLY: { 'en-US': 'applying for a card', 'zh-HK': '申請卡' },
  CARD_TOPUP: { 'en-US': 'topping up a card', 'zh-HK': '為卡充值' },
  CARD_REVEAL: { 'en-US': 'showing your card details', 'zh-HK': '顯示卡資料' },
  CARD_PIN: { 'en-US': 'setting your card PIN', 'zh-HK': '設定卡密碼' },
  API_KEY_CREATE: { 'en-US': 'creating an API key', 'zh-HK': '建立 API 金鑰' },
  PASSKEY_ADD: { 'en-US': 'adding a passkey', 'zh-HK': '新增密碼匙' },
  PASSKEY_REMOVE: { 'en-US': 'removing a passkey', 'zh-HK': '移除密碼匙' },
};

/** The "this wasn't me" line of security mails: `{freezeUrl}` is a one-time link. */
const FREEZE_EN = '\n\nThis wasn’t me — freeze my account at once (no sign-in needed): {freezeUrl}';
const FREEZE_ZH = '\n\n並非本人操作？立即凍結帳戶（無需登入）：{freezeUrl}';

const TEMPLATES = {
  code: {
    subject: { 'en-US': 'Meridian verification code: {code}', 'zh-HK': 'Meridian 驗證碼：{code}' },
    text: {
      'en-US':
        'Your code for {event} is {code}. It is valid for 10 minutes. If you did not ask for it, ignore this mail and do not share the code.',
      'zh-HK': '你用於{event}的驗證碼為 {code}，10 分鐘內有效。如非本人操作，請忽略此郵件，切勿向任何人透露驗證碼。',
    },
  },
  alreadyRegistered: {
    subject: { 'en-US': 'You already have a Meridian account', 'zh-HK': '你已擁有 Meridian 帳戶' },
    text: {
      'en-US':
        'Someone tried to create an account with this address, which already has one. To get in, log in or reset your password. If it was not you, no action is needed.',
      'zh-HK':
        '有人嘗試以此電郵地址註冊帳戶，但此地址已有帳戶。如需登入，請直接登入或重設密碼。如非本人操作，無需理會。',
    },
  },
  newDevice: {
    subject: { 'en-US': 'New sign-in to your Meridian account', 'zh-HK': '你的 Meridian 帳戶有新裝置登入' },
    text: {
      'en-US':
        'Your account was signed in from a new device at {time} (UTC) from IP {ip} ({device}). If this was not you, change your password now.' +
        FREEZE_EN,
      'zh-HK':
        '你的帳戶於 {time}（UTC）在新裝置登入，IP 為 {ip}（{device}）。如非本人操作，請立即更改密碼。' + FREEZE_ZH,
    },
  },
  passwordReset: {
    subject: { 'en-US': 'Your Meridian password was changed', 'zh-HK': '你的 Meridian 密碼已更改' },
    text: {
      'en-US':
        'Your password was changed. Every session was signed out and withdrawals are held for 24 hours. If this was not you, contact support at once.' +
        FREEZE_EN,
      'zh-HK': '你的密碼已更改，所有登入已被登出，提幣將暫停 24 小時。如非本人操作，請立即聯絡客戶服務。' + FREEZE_ZH,
    },
  },
  emailChanged: {
    subject: { 'en-US': 'Your Meridian email address was changed', 'zh-HK': '你的 Meridian 電郵地址已更改' },
    text: {
      'en-US':
        'The email address of your account was changed to {newEmail}. This address no longer signs in, other sessions were signed out and withdrawals are held for 72 hours. If this was not you, contact support at once.' +
        FREEZE_EN,
      'zh-HK':
        '你帳戶的電郵地址已更改為 {newEmail}。此地址已不能用於登入，其他登入已被登出，提幣將暫停 72 小時。如非本人操作，請立即聯絡客戶服務。' +
        FREEZE_ZH,
    },
  },
  accountClosed: {
    subject: { 'en-US': 'Your Meridian account is closed', 'zh-HK': '你的 Meridian 帳戶已刪除' },
    text: {
      'en-US':
        'Your account has been closed and your personal data removed. Transaction records are kept as the law requires.',
      'zh-HK': '你的帳戶及個人資料已刪除。交易紀錄將按法律要求保存。',
    },
  },
  smsCode: {
    subject: { 'en-US': '', 'zh-HK': '' },
    text: {
      'en-US': '[Meridian] Your code for {event} is {code}, valid for 10 minutes.',
      'zh-HK': '【Meridian】你用於{event}的驗證碼為 {code}，10 分鐘內有效。',
    },
  },
} as const;

export type MailKind = keyof typeof TEMPLATES;

/** Subject and body of mail `kind` in `locale`; `event` (a captcha event) is named in words. */
export function renderMail(
  kind: MailKind,
  locale: Locale,
  params: Record<string, string> & { event?: CaptchaEvent },
): { subject: string; text: string } {
  const filled = { ...params, ...(params.event ? { event: EVENT_NAMES[params.event][locale] } : {}) };
  const template = TEMPLATES[kind];
  return { subject: interpolate(template.subject[locale], filled), text: interpolate(template.text[locale], filled) };
}
