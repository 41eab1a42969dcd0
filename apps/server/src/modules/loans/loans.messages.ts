import type { NoticeParam } from '../notices/notices.service.ts';
import type { LocalizedText } from '@meridian/contracts/locale';

/**
 * A message of the loans module: title and body templates in both languages (params filled by notices;
 * prices and amounts are `moneyParam`s, formatted with their unit by the money formatter: "$3,180.24").
 */
export interface LoanMessage {
  title: LocalizedText;
  body: LocalizedText;
}

/**
 * LTV warning below the margin-call level (the 75 % alert): the LTV crossed {level}% on loan
 * {orderId}; no deadline yet.
 */
export const ltvWarningMessage: LoanMessage = {
  title: {
    'en-US': 'LTV warning: loan {orderId} LTV {ltv}%',
    'zh-HK': '貸款價值比率提示：借款 {orderId} 貸款價值比率 {ltv}%',
  },
  body: {
    'en-US':
      'The LTV of your {loanCoin} loan {orderId} reached {ltv}% (alert level {level}%) at a BTC price of {price}. It will be liquidated if BTC falls to {liquidationPrice}. Add collateral or repay to lower the LTV.',
    'zh-HK':
      '你的 {loanCoin} 借款 {orderId} 的貸款價值比率在 BTC 價格 {price} 時達到 {ltv}%（提示水平 {level}%）。若 BTC 跌至 {liquidationPrice}，借款將被平倉。請增加抵押品或還款以降低貸款價值比率。',
  },
};

/**
 * Margin call (an alert at or above the margin-call level, docs/decisions/0005-margin-call-before-liquidation.md):
 * the LTV crossed {level}%; from {deadline} (Hong Kong time, the end of the cure window) the loan may
 * be liquidated once its LTV reaches the liquidation level, and at {hardLtv}% at once.
 */
export const marginCallMessage: LoanMessage = {
  title: {
    'en-US': 'Margin call: loan {orderId} LTV {ltv}%',
    'zh-HK': '追加保證金通知：借款 {orderId} 貸款價值比率 {ltv}%',
  },
  body: {
    'en-US':
      'The LTV of your {loanCoin} loan {orderId} reached {ltv}% (alert level {level}%) at a BTC price of {price}. Add collateral or repay by {deadline} HKT. From then on it will be liquidated if BTC falls to {liquidationPrice} (LTV {liquidationLtv}%); at an LTV of {hardLtv}% it is liquidated at once.',
    'zh-HK':
      '你的 {loanCoin} 借款 {orderId} 的貸款價值比率在 BTC 價格 {price} 時達到 {ltv}%（提示水平 {level}%）。請於香港時間 {deadline} 前增加抵押品或還款。其後若 BTC 跌至 {liquidationPrice}（貸款價值比率 {liquidationLtv}%），借款將被平倉；貸款價值比率達到 {hardLtv}% 時會即時平倉。',
  },
};

/**
 * Liquidation receipt messages, one per kind of liquidation: what was sold, the fee, the
 * debt repaid, LTV before and after. PARTIAL brings LTV back to the initial level (the loan goes on);
 * FULL sells all the collateral after a price fall (status 5); OVERDUE after the grace (status 9).
 */
const LIQUIDATION_BODY: LocalizedText = {
  'en-US':
    'At a BTC price of {price} ({sources}), {collateralSold} BTC of your collateral was sold: fee {fee} {loanCoin}, debt repaid {debtRepaid} {loanCoin}, collateral returned {collateralReturned} BTC. LTV {ltvBefore}% → {ltvAfter}%.',
  'zh-HK':
    '在 BTC 價格 {price}（{sources}）時，你的抵押品中有 {collateralSold} BTC 被出售：手續費 {fee} {loanCoin}，已償還債務 {debtRepaid} {loanCoin}，退回抵押品 {collateralReturned} BTC。貸款價值比率 {ltvBefore}% → {ltvAfter}%。',
};
export const liquidationMessages: Record<'PARTIAL' | 'FULL' | 'OVERDUE', LoanMessage> = {
  PARTIAL: {
    title: { 'en-US': 'Loan {orderId} partly liquidated', 'zh-HK': '借款 {orderId} 已部分平倉' },
    body: LIQUIDATION_BODY,
  },
  FULL: {
    title: { 'en-US': 'Loan {orderId} liquidated', 'zh-HK': '借款 {orderId} 已全數平倉' },
    body: LIQUIDATION_BODY,
  },
  OVERDUE: {
    title: { 'en-US': 'Overdue loan {orderId} liquidated', 'zh-HK': '逾期借款 {orderId} 已平倉' },
    body: LIQUIDATION_BODY,
  },
};

/** A protection rule acted. */
export const protectionMessage: LoanMessage = {
  title: { 'en-US': 'Loan {orderId} protected', 'zh-HK': '借款 {orderId} 保障規則已執行' },
  body: {
    'en-US':
      'The LTV of loan {orderId} reached {ltvBefore}%: your protection rule {action} {amount} {unit}. LTV is now {ltvAfter}%.',
    'zh-HK':
      '借款 {orderId} 的貸款價值比率達到 {ltvBefore}%：你的保障規則已{action} {amount} {unit}。貸款價值比率現為 {ltvAfter}%。',
  },
};

/** The loan is overdue: 3× daily interest for up to {grace} days, then liquidation. */
export const overdueMessage: LoanMessage = {
  title: { 'en-US': 'Loan {orderId} is overdue', 'zh-HK': '借款 {orderId} 已逾期' },
  body: {
    'en-US':
      'Loan {orderId} was due on {repaymentDate}. Overdue interest accrues at 3 times the daily rate for up to {grace} days; after that the collateral is liquidated. Repay now to avoid liquidation.',
    'zh-HK':
      '借款 {orderId} 已於 {repaymentDate} 到期。逾期利息按日利率的 3 倍計算，最多 {grace} 日；其後抵押品將被平倉。請立即還款以免被平倉。',
  },
};

/** The user's own money events on a loan (category LOAN), as `notifyMany` takes them. */
export interface LoanEventMessage {
  userId: string;
  category: 'LOAN';
  key: string;
  title: LocalizedText;
  body: LocalizedText;
  /** Plain values, and amounts as `moneyParam`s (formatted when the message is read). */
  params: Record<string, NoticeParam>;
  link: string;
}

/** Joins template pieces language by language. */
const joined = (...parts: LocalizedText[]): LocalizedText => ({
  'en-US': parts.map((part) => part['en-US']).join(''),
  'zh-HK': parts.map((part) => part['zh-HK']).join(''),
});

/**
 * A loan taken: the principal paid into the wallet against the BTC collateral taken from it.
 * Amounts are wire decimals (`principal`, `interest` in `loanCoin`; `collateral` in BTC).
 */
export function borrowedMessage(input: {
  userId: string;
  orderId: string;
  loanCoin: string;
  principal: string;
  interest: string;
  collateral: string;
  termDays: number;
  repaymentDate: string;
}): LoanEventMessage {
  return {
    userId: input.userId,
    category: 'LOAN',
    key: 'loan.borrowed',
    title: { 'en-US': 'Loan {orderId} taken', 'zh-HK': '借款 {orderId} 已成功' },
    body: {
      'en-US':
        '{principal} was paid into your wallet against {collateral} of collateral, for {termDays} days at {interest} interest. Repay by {repaymentDate}.',
      'zh-HK':
        '{principal} 已存入你的錢包，抵押品為 {collateral}，期限 {termDays} 日，利息 {interest}。請於 {repaymentDate} 前還款。',
    },
    params: {
      orderId: input.orderId,
      termDays: String(input.termDays),
      repaymentDate: input.repaymentDate,
      principal: { amount: input.principal, asset: input.loanCoin },
      interest: { amount: input.interest, asset: input.loanCoin },
      collateral: { amount: input.collateral, asset: 'BTC' },
    },
    link: '/my/order/loan/history',
  };
}

const REPAID_FROM_WALLET: LocalizedText = {
  'en-US': 'You repaid {amount} from your wallet',
  'zh-HK': '你已從錢包還款 {amount}',
};
const REPAID_WITH_COLLATERAL: LocalizedText = {
  'en-US': '{collateralSold} of your collateral was sold to repay {amount}',
  'zh-HK': '你的抵押品中 {collateralSold} 已出售以償還 {amount}',
};
const REPAID_SPLIT: LocalizedText = {
  'en-US': ': interest {interest}, principal {principal}, fee {fee}.',
  'zh-HK': '：利息 {interest}，本金 {principal}，手續費 {fee}。',
};
const REPAID_CLOSED: LocalizedText = {
  'en-US': ' The loan is closed and {collateralReleased} of collateral was returned to your wallet.',
  'zh-HK': '借款已結清，{collateralReleased} 抵押品已退回你的錢包。',
};

/**
 * A repayment the user made (from the wallet, or with collateral sold): what it paid, and on a
 * full repayment the collateral released. Amounts are the repayment record's wire decimals.
 */
export function repaidMessage(input: {
  userId: string;
  orderId: string;
  loanCoin: string;
  repayType: 'WALLET' | 'COLLATERAL';
  isClosed: boolean;
  amount: string;
  interest: string;
  principal: string;
  fee: string;
  collateralSold: string;
  collateralReleased: string;
}): LoanEventMessage {
  const inCoin = (amount: string) => ({ amount, asset: input.loanCoin });
  return {
    userId: input.userId,
    category: 'LOAN',
    key: input.isClosed ? 'loan.repaid_closed' : 'loan.repaid',
    title: input.isClosed
      ? { 'en-US': 'Loan {orderId} repaid', 'zh-HK': '借款 {orderId} 已還清' }
      : { 'en-US': 'Repayment on loan {orderId}', 'zh-HK': '借款 {orderId} 已還款' },
    body: joined(
      input.repayType === 'WALLET' ? REPAID_FROM_WALLET : REPAID_WITH_COLLATERAL,
      REPAID_SPLIT,
      ...(input.isClosed ? [REPAID_CLOSED] : []),
    ),
    params: {
      orderId: input.orderId,
      amount: inCoin(input.amount),
      interest: inCoin(input.interest),
      principal: inCoin(input.principal),
      fee: inCoin(input.fee),
      collateralSold: { amount: input.collateralSold, asset: 'BTC' },
      collateralReleased: { amount: input.collateralReleased, asset: 'BTC' },
    },
    link: '/my/order/loan/repay',
  };
}

/**
 * Collateral the user added from the wallet or withdrew to it: the amount, the collateral after
 * and, when a price was read, the LTV before and after (percent texts).
 */
export function adjustedMessage(input: {
  userId: string;
  orderId: string;
  direction: 'ADD' | 'REMOVE';
  amount: string;
  collateralAfter: string;
  ltvBeforePct: string | null;
  ltvAfterPct: string | null;
}): LoanEventMessage {
  const isAdd = input.direction === 'ADD';
  const hasLtv = input.ltvBeforePct !== null && input.ltvAfterPct !== null;
  return {
    userId: input.userId,
    category: 'LOAN',
    key: isAdd ? 'loan.collateral_added' : 'loan.collateral_withdrawn',
    title: isAdd
      ? { 'en-US': 'Collateral added to loan {orderId}', 'zh-HK': '借款 {orderId} 已增加抵押品' }
      : { 'en-US': 'Collateral withdrawn from loan {orderId}', 'zh-HK': '借款 {orderId} 已提取抵押品' },
    body: joined(
      isAdd
        ? {
            'en-US':
              '{amount} moved from your wallet to the collateral of loan {orderId}. Collateral now {collateralAfter}.',
            'zh-HK': '{amount} 已由你的錢包轉入借款 {orderId} 的抵押品。現時抵押品為 {collateralAfter}。',
          }
        : {
            'en-US':
              '{amount} of the collateral of loan {orderId} was returned to your wallet. Collateral now {collateralAfter}.',
            'zh-HK': '借款 {orderId} 的抵押品中 {amount} 已退回你的錢包。現時抵押品為 {collateralAfter}。',
          },
      hasLtv
        ? { 'en-US': ' LTV {ltvBefore}% → {ltvAfter}%.', 'zh-HK': '貸款價值比率 {ltvBefore}% → {ltvAfter}%。' }
        : { 'en-US': '', 'zh-HK': '' },
    ),
    params: {
      orderId: input.orderId,
      ...(hasLtv && { ltvBefore: input.ltvBeforePct!, ltvAfter: input.ltvAfterPct! }),
      amount: { amount: input.amount, asset: 'BTC' },
      collateralAfter: { amount: input.collateralAfter, asset: 'BTC' },
    },
    link: '/my/order/loan/adjust',
  };
}
