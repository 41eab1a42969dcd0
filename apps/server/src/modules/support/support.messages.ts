import type { LocalizedText } from '@meridian/contracts/locale';

/**
 * In-app messages of the support module, in both languages;
 * `{reply}` is filled by the notices module from the message's params.
 */
export const supportMessages = {
  /** An operator replied; the request is In progress. */
  replied: {
    title: {
      'en-US': 'Reply to your account deletion request',
      'zh-HK': '你的刪除帳戶申請有新回覆',
    } satisfies LocalizedText,
    body: { 'en-US': 'Customer service: {reply}', 'zh-HK': '客戶服務回覆：{reply}' } satisfies LocalizedText,
  },
  /** The request was rejected: the account stays open. */
  rejected: {
    title: { 'en-US': 'Account deletion request declined', 'zh-HK': '刪除帳戶申請未獲批准' } satisfies LocalizedText,
    body: {
      'en-US': 'Your account deletion request was not approved. Customer service: {reply}',
      'zh-HK': '你的刪除帳戶申請未獲批准。客戶服務回覆：{reply}',
    } satisfies LocalizedText,
  },
  /** The account was closed as asked. */
  done: {
    title: { 'en-US': 'Account deleted', 'zh-HK': '帳戶已刪除' } satisfies LocalizedText,
    body: {
      'en-US': 'Your account was deleted as you asked. Customer service: {reply}',
      'zh-HK': '你的帳戶已按你的申請刪除。客戶服務回覆：{reply}',
    } satisfies LocalizedText,
  },
} as const;
