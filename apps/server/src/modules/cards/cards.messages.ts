import type { LocalizedText } from '@meridian/contracts/locale';

/**
 * In-app messages (with Web Push) of the cards module, in both languages; `{placeholders}` are
 * filled by the notices module from the message's params.
 */
export const cardMessages = {
  /** A payment waits for the user's 3-D Secure / "ask me above X" confirmation (spec §9: valid 5 minutes). */
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
} as const;
