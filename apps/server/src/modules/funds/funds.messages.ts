import type { Locale, LocalizedText } from '@meridian/contracts/locale';
import { ASSET_PRECISION, type AssetCode, isAssetCode, toDecimalString } from '@meridian/contracts/money';
import { moneyParam, type NotifyInput } from '../notices/notices.service.ts';
import { type ProductRow, usd } from './funds.internal.ts';
import type { fundOrders } from './funds.tables.ts';

/**
 * A fund order the user just placed, as its message needs it. Amounts are wire decimals: `amount`
 * in USD shares ("100.00"), `coinAmount` in `coin` ("100.000000") for a WALLET order.
 */
export interface FundOrderFacts {
  userId: string;
  action: 'SUBSCRIBE' | 'REDEEM';
  actionType: 'WALLET' | 'USD' | 'FUND';
  productType: 'CURRENT' | 'FIXED';
  productName: Record<Locale, string>;
  amount: string;
  coin: string | null;
  coinAmount: string | null;
  /** The wire reference of a USD order. */
  reference: string | null;
}

/**
 * The facts of a just-written order row (`fund_orders`) of `product`. A WALLET order's coin amount
 * is the USD amount at 1:1 in the coin's precision, as the subscription and redemption move it.
 */
export function fundOrderFacts(order: typeof fundOrders.$inferSelect, product: ProductRow): FundOrderFacts {
  const coin: AssetCode | null = order.coin && isAssetCode(order.coin) ? order.coin : null;
  return {
    userId: order.userId,
    action: order.action === 'REDEEM' ? 'REDEEM' : 'SUBSCRIBE',
    actionType: order.actionType ?? 'WALLET',
    productType: product.type === 'FIXED' ? 'FIXED' : 'CURRENT',
    productName: { 'en-US': product.nameEn, 'zh-HK': product.nameZhHk },
    amount: usd(order.amountMinor),
    coin,
    coinAmount: coin
      ? toDecimalString(order.amountMinor * 10n ** BigInt(ASSET_PRECISION[coin] - ASSET_PRECISION.USD), coin)
      : null,
    reference: order.reference,
  };
}

interface FundMessageText {
  key: string;
  title: LocalizedText;
  body: LocalizedText;
}

/** Subscribing to the current fund with a stablecoin from the wallet (1:1 at par). */
const currentSubscribed: FundMessageText = {
  key: 'fund.current.subscribed',
  title: { 'en-US': 'Current fund subscribed', 'zh-HK': '已認購活期基金' },
  body: {
    'en-US': 'You subscribed {amount} of {product}, paid with {paid} from your wallet.',
    'zh-HK': '你已認購{product} {amount}，已從你的錢包支付 {paid}。',
  },
};

/** A USD subscription waiting for the user's wire (nothing has moved yet). */
const currentWireAwaited: FundMessageText = {
  key: 'fund.current.wire_awaited',
  title: { 'en-US': 'Subscription waiting for your wire', 'zh-HK': '認購正等候你的電匯' },
  body: {
    'en-US': 'Your subscription of {amount} to {product} is placed. Send the wire with reference {reference}.',
    'zh-HK': '你認購{product} {amount} 的申請已提交，請以參考編號 {reference} 匯款。',
  },
};

/** Subscribing to a fixed fund with current-fund shares. */
const fixedSubscribed: FundMessageText = {
  key: 'fund.fixed.subscribed',
  title: { 'en-US': 'Fixed fund subscribed', 'zh-HK': '已認購定期基金' },
  body: {
    'en-US': '{amount} moved from your current fund into {product}.',
    'zh-HK': '{amount} 已由你的活期基金轉入{product}。',
  },
};

/** Redeeming current-fund shares into a stablecoin in the wallet (instant, 1:1 at par). */
const currentRedeemed: FundMessageText = {
  key: 'fund.current.redeemed',
  title: { 'en-US': 'Current fund redeemed', 'zh-HK': '活期基金已贖回' },
  body: {
    'en-US': 'You redeemed {amount} of {product}: {paid} was credited to your wallet.',
    'zh-HK': '你已贖回{product} {amount}，{paid} 已存入你的錢包。',
  },
};

/** Redeeming current-fund shares to a bank account: the shares are frozen until the wire is sent. */
const currentWireRequested: FundMessageText = {
  key: 'fund.current.redeem_wire_requested',
  title: { 'en-US': 'Redemption requested', 'zh-HK': '已申請贖回' },
  body: {
    'en-US':
      'You asked to redeem {amount} of {product} to your bank account (reference {reference}). The shares are held until the wire is sent.',
    'zh-HK': '你已申請將{product} {amount} 贖回至你的銀行帳戶（參考編號 {reference}），份額將凍結至電匯發出為止。',
  },
};

function textOf(order: FundOrderFacts): FundMessageText {
  if (order.action === 'REDEEM') return order.actionType === 'USD' ? currentWireRequested : currentRedeemed;
  if (order.productType === 'FIXED') return fixedSubscribed;
  return order.actionType === 'USD' ? currentWireAwaited : currentSubscribed;
}

/**
 * The message of a fund order the user placed (category FUND, linked to the fund history): one
 * per subscription or redemption, written in the order's transaction (docs/notices.md "Money events").
 */
export function fundOrderMessage(order: FundOrderFacts): NotifyInput {
  const text = textOf(order);
  const name = (locale: Locale) => order.productName[locale];
  // The product's name is fixed per language, so it goes into each language's template itself.
  const withName = (template: LocalizedText): LocalizedText => ({
    'en-US': template['en-US'].replaceAll('{product}', name('en-US')),
    'zh-HK': template['zh-HK'].replaceAll('{product}', name('zh-HK')),
  });
  return {
    userId: order.userId,
    category: 'FUND',
    key: text.key,
    title: text.title,
    body: withName(text.body),
    params: {
      ...(order.reference && { reference: order.reference }),
      amount: moneyParam(order.amount, 'USD'),
      ...(order.coin && order.coinAmount && { paid: moneyParam(order.coinAmount, order.coin) }),
    },
    link: '/my/order/fund',
  };
}
