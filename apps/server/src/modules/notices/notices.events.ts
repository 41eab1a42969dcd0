/** Messages the identity module's security events produce, in both languages. */
import type { LocalizedText } from '@meridian/contracts/locale';
import type { NotifyInput } from './notices.service.ts';

/** A user's security event as the identity module reports it (`addSecurityEventListener`). */
export interface SecurityEventLike {
  userId: string;
  kind: string;
  device: string;
  ip: string | null;
}

/** What each security event tells the user; the body names the device and IP it came from. */
const SECURITY_TITLES: Record<string, LocalizedText> = {
  'login.success': { 'en-US': 'Sign-in from a new device', 'zh-HK': '新裝置登入' },
  'password.reset': { 'en-US': 'Login password reset', 'zh-HK': '登入密碼已重設' },
  'password.changed': { 'en-US': 'Login password changed', 'zh-HK': '登入密碼已更改' },
  'config.switched': { 'en-US': 'Security settings changed', 'zh-HK': '安全設定已更改' },
  'mfa.bound': { 'en-US': 'Authenticator app enabled', 'zh-HK': '已啟用驗證器' },
  'mfa.unbound': { 'en-US': 'Authenticator app removed', 'zh-HK': '已移除驗證器' },
  'security_password.set': { 'en-US': 'Trading password set', 'zh-HK': '已設定安全碼' },
  'security_password.changed': { 'en-US': 'Trading password changed', 'zh-HK': '安全碼已更改' },
  'mobile.bound': { 'en-US': 'Mobile number linked', 'zh-HK': '已綁定手提電話' },
  'mobile.changed': { 'en-US': 'Mobile number changed', 'zh-HK': '手提電話已更改' },
  'email.changed': { 'en-US': 'Email address changed', 'zh-HK': '電郵地址已更改' },
  'api_key.created': { 'en-US': 'New API key created', 'zh-HK': '已建立新的 API 金鑰' },
  'passkey.added': { 'en-US': 'Passkey added', 'zh-HK': '已新增密碼匙' },
  'passkey.removed': { 'en-US': 'Passkey removed', 'zh-HK': '已移除密碼匙' },
};

const SECURITY_BODY: LocalizedText = {
  'en-US': 'From {device} (IP {ip}). If this was not you, change your password and contact support at once.',
  'zh-HK': '來自 {device}（IP {ip}）。如非本人操作，請立即更改密碼並聯絡客服。',
};

/**
 * The message for a security event (sign-in from a new device, security setting
 * changed), or null for a kind the user is not told about.
 */
export function securityEventNotice(event: SecurityEventLike): NotifyInput | null {
  const title = SECURITY_TITLES[event.kind];
  if (!title) return null;
  return {
    userId: event.userId,
    // A new-device sign-in is already mailed by the identity module; the message only lists it.
    category: event.kind === 'login.success' ? 'ACCOUNT' : 'SECURITY',
    title,
    body: SECURITY_BODY,
    params: { device: event.device, ip: event.ip ?? '—' },
    link: '/my/security',
  };
}
