import type { LocalizedText } from '@meridian/contracts/locale';
import type { CardConfirmationOutcome, CardMessageInput } from './cards.internal.ts';

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
  /** The payment was approved and its amount held (the confirmation message, rewritten once answered). */
  confirmApproved: {
    title: { 'en-US': 'Card payment approved', 'zh-HK': '卡付款已批准' } satisfies LocalizedText,
    body: {
      'en-US': 'You approved the payment of {amount} {currency} to {merchant} on your card ending {last4}.',
      'zh-HK': '你已批准從尾號 {last4} 的卡向 {merchant} 付款 {amount} {currency}。',
    } satisfies LocalizedText,
  },
  /** The payment was declined: rejected by the user, or refused by the card's checks after approval. */
  confirmDeclined: {
    title: { 'en-US': 'Card payment declined', 'zh-HK': '卡付款已拒絕' } satisfies LocalizedText,
    body: {
      'en-US':
        'The payment of {amount} {currency} to {merchant} on your card ending {last4} was declined. Nothing was charged.',
      'zh-HK': '從尾號 {last4} 的卡向 {merchant} 付款 {amount} {currency} 已被拒絕，沒有扣款。',
    } satisfies LocalizedText,
  },
  /** Nobody confirmed within 5 minutes: declined. */
  confirmExpired: {
    title: { 'en-US': 'Card payment not confirmed in time', 'zh-HK': '卡付款未於限時內確認' } satisfies LocalizedText,
    body: {
      'en-US':
        'The payment of {amount} {currency} to {merchant} on your card ending {last4} was not confirmed within 5 minutes and was declined. Nothing was charged.',
      'zh-HK': '從尾號 {last4} 的卡向 {merchant} 付款 {amount} {currency} 未於 5 分鐘內確認，已被拒絕，沒有扣款。',
    } satisfies LocalizedText,
  },
} as const;

/** The link of a payment's confirmation message: the card page, highlighting it in its banner. */
export function confirmationLink(transactionId: number | string): string {
  return `/my/account/fiscard?confirm=${transactionId}`;
}

/**
 * How a confirmation message reads once the payment is decided (`NoticeService.resolveMessages`):
 * same parameters, the decision's texts, linked to the card page without the banner (docs/cards.md).
 */
export function confirmationResolution(outcome: CardConfirmationOutcome) {
  const text =
    outcome === 'APPROVED'
      ? cardMessages.confirmApproved
      : outcome === 'EXPIRED'
        ? cardMessages.confirmExpired
        : cardMessages.confirmDeclined;
  return { key: `card.confirm.${outcome.toLowerCase()}`, ...text, link: '/my/account/fiscard' };
}

/**
 * A card applied for: VIRTUAL cards are active at once, PHYSICAL ones go to review; the
 * production fee (a USDT wire decimal, absent when free) was taken from the wallet.
 */
export function cardAppliedMessage(input: {
  userId: string;
  kind: string;
  last4: string;
  currency: string;
  fee: string | null;
}): CardMessageInput {
  const isVirtual = input.kind === 'VIRTUAL';
  const feeLine: LocalizedText = input.fee
    ? { 'en-US': ' The fee of {fee} was paid from your wallet.', 'zh-HK': '手續費 {fee} 已從你的錢包支付。' }
    : { 'en-US': '', 'zh-HK': '' };
  const lead: LocalizedText = isVirtual
    ? {
        'en-US': 'Your virtual {currency} card ending {last4} is ready to use.',
        'zh-HK': '你尾號 {last4} 的 {currency} 虛擬卡已可使用。',
      }
    : {
        'en-US': 'Your physical {currency} card ending {last4} was applied for and is under review.',
        'zh-HK': '你已申請尾號 {last4} 的 {currency} 實體卡，現正審核中。',
      };
  return {
    userId: input.userId,
    category: 'CARD',
    key: isVirtual ? 'card.applied_virtual' : 'card.applied_physical',
    title: { 'en-US': 'Card applied', 'zh-HK': '已申請卡' },
    body: { 'en-US': lead['en-US'] + feeLine['en-US'], 'zh-HK': lead['zh-HK'] + feeLine['zh-HK'] },
    params: {
      last4: input.last4,
      currency: input.currency,
      ...(input.fee ? { fee: { amount: input.fee, asset: 'USDT' } } : {}),
    },
    link: '/my/account/fiscard',
  };
}

/** A top-up: `credit` of the card's currency added, `paid` of a stablecoin taken from the wallet (wire decimals). */
export function cardToppedUpMessage(input: {
  userId: string;
  last4: string;
  credit: { amount: string; asset: string };
  paid: { amount: string; asset: string };
}): CardMessageInput {
  return {
    userId: input.userId,
    category: 'CARD',
    key: 'card.topped_up',
    title: { 'en-US': 'Card topped up', 'zh-HK': '卡已增值' },
    body: {
      'en-US': '{credit} was added to your card ending {last4}, paid with {paid} from your wallet.',
      'zh-HK': '你尾號 {last4} 的卡已增值 {credit}，已從你的錢包支付 {paid}。',
    },
    params: { last4: input.last4, credit: input.credit, paid: input.paid },
    link: '/my/account/fiscard',
  };
}
