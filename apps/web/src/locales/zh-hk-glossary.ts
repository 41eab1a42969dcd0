/**
 * The zh-HK glossary as data: one Hong Kong term per concept, and the variants a text must not use
 * for it. `docs/zh-hk-glossary.md` explains the choices; `zh-hk-glossary.test.ts` fails when any
 * zh-HK text of the web, the contracts or the server uses a rejected variant, and when the doc
 * does not list a term or a variant of this table.
 */

/** A wording a text must not use for a concept. */
export interface RejectedVariant {
  /** The wording as the doc names it, e.g. `申購`. */
  readonly label: string;
  /** What matches it in a text; defaults to the label itself. */
  readonly pattern?: RegExp;
  /** Phrases in which the wording is right (another concept), removed from a text before matching. */
  readonly allowedIn?: readonly string[];
}

/** One concept: its English name, the zh-HK term Meridian uses, and the variants it rejects. */
export interface GlossaryTerm {
  readonly en: string;
  readonly zhHk: string;
  readonly rejected: readonly RejectedVariant[];
}

const v = (label: string, extra: Omit<RejectedVariant, 'label'> = {}): RejectedVariant => ({ label, ...extra });

/** Every glossary term with its rejected variants, in the doc's order. */
export const ZH_HK_GLOSSARY: readonly GlossaryTerm[] = [
  { en: 'account', zhHk: '帳戶', rejected: [v('賬戶')] },
  { en: 'card account', zhHk: '卡片帳戶', rejected: [v('卡帳戶')] },
  { en: 'withdraw (crypto)', zhHk: '提幣', rejected: [v('提現'), v('提款')] },
  {
    en: 'deposit (crypto)',
    zhHk: '充值',
    rejected: [
      v('充幣'),
      v('入金', { pattern: /入金(?!額)/ }),
      // A bank deposit (and a certificate of deposit) is 存款 in Hong Kong; a crypto deposit is not.
      v('存款', { allowedIn: ['銀行存款', '存款保障', '存款證', '證券、存款'] }),
    ],
  },
  { en: 'subscribe (a fund)', zhHk: '認購', rejected: [v('申購')] },
  { en: 'business day', zhHk: '工作日', rejected: [v('營業日'), v('工作天')] },
  { en: 'a number of days', zhHk: '日', rejected: [v('N 天', { pattern: /[\d}]\s*天/ })] },
  {
    en: 'LTV (loan-to-value ratio)',
    zhHk: '貸款價值比率',
    rejected: [v('抵押率'), v('按揭成數'), v('LTV 比率')],
  },
  { en: 'collateral', zhHk: '抵押品', rejected: [v('抵押物'), v('質押')] },
  { en: 'liquidation', zhHk: '平倉', rejected: [v('強平'), v('強制平倉')] },
  { en: 'margin call', zhHk: '追加保證金', rejected: [v('補倉')] },
  { en: 'digital assets', zhHk: '數碼資產', rejected: [v('數字資產')] },
  { en: 'network (blockchain)', zhHk: '網絡', rejected: [v('網路')] },
  { en: 'identity verification, KYC', zhHk: '身份認證', rejected: [v('身份驗證'), v('實名認證')] },
  { en: 'authenticator', zhHk: '驗證器', rejected: [v('身份驗證器')] },
  { en: 'passkey', zhHk: '密碼匙', rejected: [v('通行密鑰')] },
  { en: 'delete (an account)', zhHk: '刪除帳戶', rejected: [v('註銷')] },
  { en: 'app', zhHk: '應用程式', rejected: [v('App', { pattern: /\bApp\b/ })] },
  { en: 'per user', zhHk: '每位用戶', rejected: [v('每位會員')] },
  {
    en: 'a minimum (at least)',
    zhHk: '最少',
    rejected: [
      v('最低…不低於', { pattern: /最低[^，。；]*不低於/ }),
      v('最少…不少於', { pattern: /最少[^，。；]*不少於/ }),
    ],
  },
  { en: 'get (a quote, a code)', zhHk: '取得 / 索取', rejected: [v('獲取')] },
  { en: 'security code (trade password)', zhHk: '安全碼', rejected: [v('資金密碼')] },
  { en: 'sign in', zhHk: '登入', rejected: [v('登錄'), v('登陸')] },
  { en: 'email', zhHk: '電郵', rejected: [v('郵箱')] },
  {
    en: 'mobile number, SMS',
    zhHk: '手機號碼 / 短訊',
    rejected: [v('手機號', { pattern: /手機號(?!碼)/ }), v('短信')],
  },
  { en: 'settings, default', zhHk: '設定 / 預設', rejected: [v('設置'), v('默認')] },
  { en: 'message', zhHk: '訊息', rejected: [v('信息')] },
  { en: 'software, program', zhHk: '軟件 / 程式', rejected: [v('軟體'), v('程序')] },
];

/** A rejected variant found in a text. */
export interface GlossaryFinding {
  /** The term the text should have used. */
  readonly term: string;
  /** The variant it used. */
  readonly variant: string;
}

/** The rejected variants `text` uses, each with the term to use instead; `[]` when it keeps to the glossary. */
export function rejectedVariants(text: string, glossary: readonly GlossaryTerm[] = ZH_HK_GLOSSARY): GlossaryFinding[] {
  const findings: GlossaryFinding[] = [];
  for (const term of glossary) {
    for (const variant of term.rejected) {
      let checked = text;
      for (const phrase of variant.allowedIn ?? []) checked = checked.split(phrase).join('　');
      const found = variant.pattern ? variant.pattern.test(checked) : checked.includes(variant.label);
      if (found) findings.push({ term: term.zhHk, variant: variant.label });
    }
  }
  return findings;
}
