import { interpolate, type LocalizedText } from '@meridian/contracts/locale';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { MailMessage } from '../../platform/mail/mailer.ts';

dayjs.extend(utc);

/** What the inactivity switch says at one stage, in both languages. */
export interface TrustInactivityTexts {
  /** The settlor's in-app message (templates + params; the notices module renders it in the reader's language). */
  message: { title: LocalizedText; body: LocalizedText; params: Record<string, string>; link: string };
  /** The settlor's email, rendered. */
  mail: { subject: LocalizedText; text: LocalizedText };
  /** A beneficiary's email (deadline stage only): both languages in one mail, since they are not users. */
  beneficiaryMail(name: string, sharePct: string): Pick<MailMessage, 'subject' | 'text'>;
}

const render = (text: LocalizedText, params: Record<string, string>): LocalizedText => ({
  'en-US': interpolate(text['en-US'], params),
  'zh-HK': interpolate(text['zh-HK'], params),
});

/**
 * Texts of the inactivity switch: reminders `daysBefore` 30, 14 and 3 days before the
 * deadline, and the deadline itself (`daysBefore` 0: beneficiaries notified, trust in claim). Dates
 * are shown as UTC calendar days (YYYY-MM-DD).
 */
export function trustInactivityMessages(input: {
  trustId: number;
  trustName: string;
  daysBefore: number;
  deadlineAt: Date;
  lastSignInAt: Date;
}): TrustInactivityTexts {
  const params = {
    name: input.trustName,
    days: String(input.daysBefore),
    deadline: dayjs.utc(input.deadlineAt).format('YYYY-MM-DD'),
    lastSignIn: dayjs.utc(input.lastSignInAt).format('YYYY-MM-DD'),
  };
  const link = `/product/trust/${input.trustId}`;
  if (input.daysBefore > 0) {
    const title: LocalizedText = {
      'en-US': 'Trust "{name}": sign in within {days} days',
      'zh-HK': '信託「{name}」：請於 {days} 日內登入',
    };
    const body: LocalizedText = {
      'en-US':
        'You have not signed in since {lastSignIn}. If you do not sign in by {deadline}, the beneficiaries of your trust "{name}" will be notified and the trust will move to claim.',
      'zh-HK':
        '你自 {lastSignIn} 起未曾登入。如你於 {deadline} 前仍未登入，我們將通知信託「{name}」的受益人，信託將轉為待申領狀態。',
    };
    return {
      message: { title, body, params, link },
      mail: { subject: render(title, params), text: render(body, params) },
      beneficiaryMail: () => ({ subject: '', text: '' }),
    };
  }
  const title: LocalizedText = {
    'en-US': 'Trust "{name}" moved to claim',
    'zh-HK': '信託「{name}」已轉為待申領',
  };
  const body: LocalizedText = {
    'en-US':
      'You have not signed in since {lastSignIn}, the inactivity period you chose. We have notified the beneficiaries of your trust "{name}"; after verifying them, our team will release it. Contact support if you wish to stop this.',
    'zh-HK':
      '你自 {lastSignIn} 起未曾登入，已達你設定的不活動期。我們已通知信託「{name}」的受益人；經核實受益人後，我們的團隊將發放信託資產。如欲停止，請聯絡客服。',
  };
  return {
    message: { title, body, params, link },
    mail: { subject: render(title, params), text: render(body, params) },
    beneficiaryMail: (name, sharePct) => {
      const all = { ...params, beneficiary: name, share: sharePct };
      const subject = render(
        { 'en-US': 'You are a beneficiary of a Meridian BTC trust', 'zh-HK': '你是 Meridian BTC 信託的受益人' },
        all,
      );
      const text = render(
        {
          'en-US':
            'Dear {beneficiary}, you are named as a beneficiary ({share}%) of the BTC trust "{name}" held at Meridian. Its settlor has not signed in since {lastSignIn}. Please contact Meridian support with proof of your identity; after verification our team will arrange the payout. Meridian never asks for your password or private keys.',
          'zh-HK':
            '{beneficiary}您好：你是 Meridian BTC 信託「{name}」的受益人（比例 {share}%）。信託委託人自 {lastSignIn} 起未曾登入。請攜同身份證明聯絡 Meridian 客服；經核實後，我們的團隊將安排發放。Meridian 絕不會索取你的密碼或私鑰。',
        },
        all,
      );
      const both = (pick: LocalizedText) => `${pick['en-US']}\n\n${pick['zh-HK']}`;
      return { subject: `${subject['en-US']} / ${subject['zh-HK']}`, text: both(text) };
    },
  };
}

/** What a movement of BTC into or out of a trust tells the settlor; `{name}` is the trust's name. */
const TRUST_MOVEMENT_TEXTS = {
  entrust: {
    key: 'trust.funded',
    title: { 'en-US': 'Entrusted to trust "{name}"', 'zh-HK': '已注資信託「{name}」' },
    body: {
      'en-US':
        '{amount} left your wallet for your trust "{name}": {net} is now held in trust and the 2% fee was {fee}.',
      'zh-HK': '{amount} 已由你的錢包轉入信託「{name}」：信託持有 {net}，2% 手續費為 {fee}。',
    },
  },
  withdraw: {
    key: 'trust.withdrawn',
    title: { 'en-US': 'Withdrawn from trust "{name}"', 'zh-HK': '已從信託「{name}」提取' },
    body: {
      'en-US': '{amount} was returned from your trust "{name}" to your wallet.',
      'zh-HK': '{amount} 已由信託「{name}」退回你的錢包。',
    },
  },
} satisfies Record<string, { key: string; title: LocalizedText; body: LocalizedText }>;

/**
 * The settlor's message of a trust movement (category TRUST, linked to the trust): the gross
 * amount, and for an entrustment the net held and the fee. Amounts are wire decimals of `asset`,
 * formatted when the message is read (docs/notices.md "Money events").
 */
export function trustMovementMessage(input: {
  userId: string;
  trustId: number;
  trustName: string;
  kind: 'entrust' | 'withdraw';
  asset: string;
  amount: string;
  net: string;
  fee: string;
}) {
  const text = TRUST_MOVEMENT_TEXTS[input.kind];
  return {
    userId: input.userId,
    category: 'TRUST' as const,
    key: text.key,
    title: text.title,
    body: text.body,
    params: {
      name: input.trustName,
      amount: { amount: input.amount, asset: input.asset },
      net: { amount: input.net, asset: input.asset },
      fee: { amount: input.fee, asset: input.asset },
    },
    link: `/product/trust/${input.trustId}`,
  };
}
