import type { LocalizedText } from '@meridian/contracts/locale';

/**
 * In-app messages (with Web Push) of the cards module, in both languages; `{placeholders}` are
 * filled by the notices module from the message's params.
 */
export const cardMessages = {
  /** A payment waits for the user's 3-D Secure / "ask me above X" confirmation (valid 5 minutes). */
  confirm: {
    title: {
      'en-US': 'Confirm a card payment',
      'zh-HK': '請確認卡付款',
    } satisfies LocalizedText,
    body: {
      'en-US': '{merchant} asks for {amount} {currency} on your card ending {last4}. Confirm within 5 minutes.',
      'zh-HK': '{merchant} 要求從你尾號 {last4} 的卡扣款 {amount} {currency}，請於 5 分鐘內確認。',
    } satisfies LocalizedText,
  },
  /** Customer service approved a limit-change request. */
  limitApproved: {
    title: { 'en-US': 'Card limits changed', 'zh-HK': '卡片限額已變更' } satisfies LocalizedText,
    body: {
      'en-US': 'Your limit change request for the card ending {last4} was approved. Customer service: {reply}',
      'zh-HK': '你尾號 {last4} 的卡的限額變更申請已獲批准。客戶服務回覆：{reply}',
    } satisfies LocalizedText,
  },
  /** Customer service rejected a limit-change request, with its reply. */
  limitRejected: {
    title: { 'en-US': 'Card limit request declined', 'zh-HK': '卡片限額申請未獲批准' } satisfies LocalizedText,
    body: {
      'en-US': 'Your limit change request for the card ending {last4} was not approved. Customer service: {reply}',
      'zh-HK': '你尾號 {last4} 的卡的限額變更申請未獲批准。客戶服務回覆：{reply}',
    } satisfies LocalizedText,
  },
} as const;
