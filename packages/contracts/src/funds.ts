import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { assetCodeSchema, decimalAmountSchema, withAmountMinor } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Funds API contracts (funds, fund asset response, fund model, subscribe
 * option; fund types CURRENT/FIXED, action types USD/WALLET/FUND, module REDEEM; "below
 * minimum purchase share", "above maximum withdrawable share", "insufficient balance";
 * `fund/v2/asset|order|product|config|subscribe|redeem`; top yield 10.8 %, current fund 3.65 %
 * `EXW_CURRENT_PRODUCT`, period -1, fee COUNT 0, wire times).
 *
 * Units: a fund holds USD shares at a fixed price of 1 USD. Every share amount and every profit on
 * the wire is a decimal string of USD with 2 decimals ("10000.00"); the server keeps cents
 * (`bigint`). Rates are decimal strings in percent per year ("3.65" = 3.65 % p.a.).
 *
 * The spec marks none of `fund/v2/*` as an api-version 2.0 call (the version is in the path), so
 * none of these descriptors sets `apiVersion`.
 */

// ---------------------------------------------------------------- enums and constants

/** Id of the current (flexible) fund. */
export const CURRENT_PRODUCT_ID = 'EXW_CURRENT_PRODUCT';

/** Fund types: the current fund and the fixed-term funds. */
export const FUND_TYPES = ['CURRENT', 'FIXED'] as const;
export const fundTypeSchema = z.enum(FUND_TYPES);
export type FundType = z.infer<typeof fundTypeSchema>;

/**
 * Where money comes from or goes to: WALLET a stablecoin of the wallet (1:1), USD a wire
 * from / to a bound bank account, FUND current-fund shares (fixed funds are subscribed only from
 * them).
 */
export const FUND_ACTION_TYPES = ['WALLET', 'USD', 'FUND'] as const;
export const fundActionTypeSchema = z.enum(FUND_ACTION_TYPES);
export type FundActionType = z.infer<typeof fundActionTypeSchema>;

/** Stablecoins a fund takes and pays at 1:1 while inside the price pipeline's band (docs/prices.md). */
export const FUND_STABLECOINS = ['USDT', 'USDC', 'USDE'] as const;
export const fundStablecoinSchema = z.enum(FUND_STABLECOINS);
export type FundStablecoin = z.infer<typeof fundStablecoinSchema>;

/**
 * What a line of the fund history records: a subscription, a redemption, an interest payout
 * (monthly, as new current-fund shares) or a fixed order's maturity (principal + interest rolled
 * into the current fund).
 */
export const FUND_ORDER_ACTIONS = ['SUBSCRIBE', 'REDEEM', 'INTEREST', 'MATURITY'] as const;
export const fundOrderActionSchema = z.enum(FUND_ORDER_ACTIONS);
export type FundOrderAction = z.infer<typeof fundOrderActionSchema>;

/**
 * State of a fund order: PENDING waits for a wire (USD subscription: the incoming wire; USD
 * redemption: an operator sending it), HOLDING a fixed order earning until maturity, SUCCESS done,
 * FAILED an outgoing wire that failed (its shares returned), MATURED a fixed order paid into the
 * current fund.
 */
export const FUND_ORDER_STATUSES = ['PENDING', 'HOLDING', 'SUCCESS', 'FAILED', 'MATURED'] as const;
export const fundOrderStatusSchema = z.enum(FUND_ORDER_STATUSES);
export type FundOrderStatus = z.infer<typeof fundOrderStatusSchema>;

/** Wire times shown to the user (wire notes). */
export const WIRE_TIMES = {
  domestic: { 'en-US': '30 minutes to 2 hours', 'zh-HK': '30 分鐘至 2 小時' },
  international: { 'en-US': '1-5 days', 'zh-HK': '1 至 5 日' },
} as const;

/** A USD amount on the wire: decimal string with exactly 2 decimals. */
const usdTextSchema = z.string();
/** A calendar date in Hong Kong, YYYY-MM-DD. */
const dateTextSchema = z.string();

// ---------------------------------------------------------------- fund asset

/** The current fund part of the asset response (`currentProduct`), USD decimal strings. */
export const fundCurrentAssetSchema = z.object({
  /** Shares the user can redeem now. */
  usableShares: usdTextSchema,
  /** Shares held for a pending outgoing wire (redemption to USD), not redeemable again. */
  unusableShares: usdTextSchema,
  /** Interest accrued and not yet paid (paid on the first Hong Kong business day of the month). */
  unsettleProfit: usdTextSchema,
  /** Interest paid so far. */
  historyProfit: usdTextSchema,
  /** Shares that earn interest today (held since before today, Hong Kong time). */
  interestShares: usdTextSchema,
  /** Shares subscribed today: they earn from the next calendar day. */
  unInterestShares: usdTextSchema,
});

/** The fixed funds part of the asset response (`fixedProduct`), USD decimal strings. */
export const fundFixedAssetSchema = z.object({
  /** Interest paid at maturity so far. */
  historyProfit: usdTextSchema,
  /** Number of fixed orders held (not yet matured). */
  holdingProducts: z.number().int(),
  /** Principal of the fixed orders held. */
  totalShares: usdTextSchema,
  /** Principal of orders whose interest has not started (interest date not reached). */
  unInterestShares: usdTextSchema,
  /** Interest accrued on the orders held, paid at maturity. */
  unsettleProfit: usdTextSchema,
  /** Principal of orders earning interest. */
  interestShares: usdTextSchema,
});

/** `GET fund/v2/asset`. */
export const fundAssetSchema = z.object({
  /** Interest paid so far, current and fixed. */
  historyProfit: usdTextSchema,
  /** Current shares + fixed principal + unpaid accrued interest. */
  totalValue: usdTextSchema,
  /** Interest accrued for yesterday (Hong Kong calendar), current and fixed. */
  yesterdayProfit: usdTextSchema,
  currentProduct: fundCurrentAssetSchema,
  fixedProduct: fundFixedAssetSchema,
});
export type FundAsset = z.infer<typeof fundAssetSchema>;

// ---------------------------------------------------------------- products

/**
 * One tier of a tiered rate: `annualRate` applies to the part of a holding from the previous
 * tier's `upToShares` up to this one's (`null`: no upper bound, always the last tier).
 */
export const fundRateTierSchema = z.object({
  upToShares: usdTextSchema.nullable(),
  annualRate: z.string(),
});
export type FundRateTier = z.infer<typeof fundRateTierSchema>;

/** A fund product with the caller's holding of it. */
export const fundProductSchema = z.object({
  productId: z.string(),
  /** In the caller's language (User-Lang). */
  productName: z.string(),
  type: fundTypeSchema,
  /** Headline (first tier) rate, percent per year, e.g. "3.65". */
  annualRate: z.string(),
  /** Term in days; -1 for the current fund. */
  period: z.number().int(),
  /** Raise window [first day, last day] (Hong Kong dates) of a fixed fund; null for the current fund. */
  raiseDate: z.tuple([dateTextSchema, dateTextSchema]).nullable(),
  /** First day of interest of a fixed fund; null for the current fund (interest from the day after subscribing). */
  interestDate: dateTextSchema.nullable(),
  /** Maturity day of a fixed fund (interestDate + period); null for the current fund. */
  maturityDate: dateTextSchema.nullable(),
  /** Whether it can be subscribed now (current: always; fixed: inside the raise window). */
  subscribe: z.boolean(),
  /** Whether it can be redeemed by the user (current: yes; fixed: no early redemption). */
  redeem: z.boolean(),
  /** Action types accepted for subscribing / redeeming. */
  subscribeActionTypes: z.array(fundActionTypeSchema),
  redeemActionTypes: z.array(fundActionTypeSchema),
  rateTiers: z.array(fundRateTierSchema),
  /** The caller's shares of it (0.00 when signed out). */
  holdingShares: usdTextSchema,
  /** Interest paid to the caller on it. */
  profit: usdTextSchema,
  /** Interest accrued to the caller on it, not yet paid. */
  unsettleProfit: usdTextSchema,
  /** The caller's shares of it held for a pending outgoing wire. */
  frozen: usdTextSchema,
});
export type FundProduct = z.infer<typeof fundProductSchema>;

/** `GET fund/v2/product?type=`: every product, current first, then fixed by period. */
export const fundProductQuerySchema = z.object({ type: fundTypeSchema.optional() });
export const fundProductListSchema = z.array(fundProductSchema);

// ---------------------------------------------------------------- config

/** Fee of a subscription or redemption (default: type COUNT, value 0: no fee). */
export const fundFeeSchema = z.object({ type: z.literal('COUNT'), value: z.number() });

/** A subscribe option: the amount rules of one product, USD decimal strings. */
export const fundSubscribeOptionSchema = z.object({
  /** The product id. */
  id: z.string(),
  name: z.string(),
  /** Smallest subscription. */
  min: usdTextSchema,
  /** Largest single subscription. */
  max: usdTextSchema,
  /** Most one user may hold of the product (subscriptions pending included). */
  limit: usdTextSchema,
  fee: fundFeeSchema,
  /** Smallest redemption (current fund), or null where the user cannot redeem. */
  redeemMin: usdTextSchema.nullable(),
});
export type FundSubscribeOption = z.infer<typeof fundSubscribeOptionSchema>;

/** Meridian's receiving bank account for USD subscriptions by wire (shown with the order's reference). */
export const fundReceivingAccountSchema = z.object({
  accountName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  swift: z.string(),
  bankAddress: z.string(),
  currency: z.literal('USD'),
});
export type FundReceivingAccount = z.infer<typeof fundReceivingAccountSchema>;

/** A stablecoin and whether it is taken at 1:1 now (inside its band). */
export const fundCoinStatusSchema = z.object({ coin: fundStablecoinSchema, isAtPar: z.boolean() });

/** `GET fund/v2/config`: the subscribe options, the coins, the receiving account and the wire times. */
export const fundConfigSchema = z.object({
  subscribeOptions: z.array(fundSubscribeOptionSchema),
  coins: z.array(fundCoinStatusSchema),
  receivingAccount: fundReceivingAccountSchema,
  /** Expected wire times in the caller's language. */
  wireTimes: z.object({ domestic: z.string(), international: z.string() }),
});
export type FundConfig = z.infer<typeof fundConfigSchema>;

// ---------------------------------------------------------------- orders (history)

/** Instructions of a wire: where to send it and the unique reference to quote. */
export const fundWireInstructionsSchema = z.object({
  reference: z.string(),
  receivingAccount: fundReceivingAccountSchema,
});

/** One line of the fund history. Amounts are USD decimal strings. */
export const fundOrderSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  type: fundTypeSchema,
  action: fundOrderActionSchema,
  /** Where the money came from / went to; null for INTEREST and MATURITY. */
  actionType: fundActionTypeSchema.nullable(),
  /** The stablecoin of a WALLET order; null otherwise. */
  coin: assetCodeSchema.nullable(),
  /** Shares subscribed or redeemed; the interest paid; the principal of a maturity. */
  amount: usdTextSchema,
  /** A maturity's interest (paid with the principal); null otherwise. */
  interest: usdTextSchema.nullable(),
  status: fundOrderStatusSchema,
  /** Fixed orders: when interest starts and when it matures (Hong Kong dates). */
  interestDate: dateTextSchema.nullable(),
  maturityDate: dateTextSchema.nullable(),
  /** A USD order's wire: the reference (and for a subscription, where to send it). */
  wire: fundWireInstructionsSchema.nullable(),
  createTime: z.string(),
  /** When it completed (credited, paid, matured); null while pending. */
  completeTime: z.string().nullable(),
});
export type FundOrder = z.infer<typeof fundOrderSchema>;

/** `GET fund/v2/order`: the user's fund history, newest first, filtered and paged like the other histories. */
export const fundOrderQuerySchema = pageQuerySchema.extend({
  type: fundTypeSchema.optional(),
  action: fundOrderActionSchema.optional(),
  coin: fundStablecoinSchema.optional(),
  /** Two ISO instants [from, to]; repeated query parameter. */
  createTime: z
    .union([instantText(), boundedList(instantText(), 2)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(
      z.tuple([
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
        z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
      ]),
    )
    .optional(),
});
export type FundOrderQuery = z.infer<typeof fundOrderQuerySchema>;
export const fundOrderPageSchema = pageSchema(fundOrderSchema);

// ---------------------------------------------------------------- earnings (chart)

/** Longest series of daily earnings. */
export const FUND_EARNINGS_DAYS_MAX = 366;

/** `GET fund/v2/earnings?days=30`: the last `days` Hong Kong days up to yesterday. */
export const fundEarningsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(FUND_EARNINGS_DAYS_MAX).default(30),
});
/** Interest accrued on one Hong Kong day (USD decimal strings); every day of the range is present. */
export const fundEarningsDaySchema = z.object({
  date: dateTextSchema,
  profit: usdTextSchema,
  currentProfit: usdTextSchema,
  fixedProfit: usdTextSchema,
});
export const fundEarningsSchema = z.array(fundEarningsDaySchema);
export type FundEarningsDay = z.infer<typeof fundEarningsDaySchema>;

// ---------------------------------------------------------------- subscribe and redeem

/** A bank account id of the payments module (`fund/investor/bankAccount/select`), as text. */
const bankAccountIdSchema = z
  .union([
    z
      .string()
      .max(64, { abort: true })
      .regex(/^[\w-]{1,64}$/),
    z.number().int().positive(),
  ])
  .transform((value) => String(value));

function requireFor(
  body: { actionType: FundActionType; coin?: unknown; bankAccountId?: unknown },
  context: z.core.$RefinementCtx,
): void {
  if (body.actionType === 'WALLET' && body.coin === undefined)
    context.addIssue({ code: 'custom', path: ['coin'], message: 'validation.required' });
  if (body.actionType === 'USD' && body.bankAccountId === undefined)
    context.addIssue({ code: 'custom', path: ['bankAccountId'], message: 'validation.required' });
}

const subscribeFieldsSchema = sensitiveFactorsSchema
  .extend({
    productId: z.string().min(1).max(64),
    /** USD shares to buy = coin units paid (1:1), at most 2 decimals. */
    amount: decimalAmountSchema,
    actionType: fundActionTypeSchema,
    /** Required with WALLET: the stablecoin paid. */
    coin: fundStablecoinSchema.optional(),
    /** Required with USD: the bound bank account the wire comes from. */
    bankAccountId: bankAccountIdSchema.optional(),
  })
  .superRefine(requireFor);

/**
 * `POST fund/v2/subscribe` body (security check PURCHASE). `amount` is in USD shares with at most
 * 2 decimals even when paid in a 6-decimal stablecoin: "1000.50" debits 1000.500000 USDT. More
 * decimals are refused (120 naming `amount`), never rounded, so what the user typed is exactly what
 * moves. Parsed, it is `amountMinor` (USD cents).
 */
export const fundSubscribeBodySchema = withAmountMinor(subscribeFieldsSchema, () => 'USD');
export type FundSubscribeBody = z.input<typeof fundSubscribeBodySchema>;
export type ParsedFundSubscribeBody = z.output<typeof fundSubscribeBodySchema>;

const redeemFieldsSchema = sensitiveFactorsSchema
  .extend({
    productId: z.string().min(1).max(64),
    /** USD shares to redeem, at most 2 decimals. */
    amount: decimalAmountSchema,
    actionType: z.enum(['WALLET', 'USD']),
    /** Required with WALLET: the stablecoin received (1:1). */
    coin: fundStablecoinSchema.optional(),
    /** Required with USD: the bound bank account the wire goes to. */
    bankAccountId: bankAccountIdSchema.optional(),
  })
  .superRefine(requireFor);

/** `POST fund/v2/redeem` body (security check REDEEM): `amountMinor` USD cents once parsed. */
export const fundRedeemBodySchema = withAmountMinor(redeemFieldsSchema, () => 'USD');
export type FundRedeemBody = z.input<typeof fundRedeemBodySchema>;
export type ParsedFundRedeemBody = z.output<typeof fundRedeemBodySchema>;

// ---------------------------------------------------------------- descriptors

const SUBSCRIBE_CODES = [
  'VERIFICATION_REQUIRED',
  'CAPTCHA_FAILED',
  'CONFLICT',
  'NOT_FOUND',
  'KYC_REQUIRED',
  'ACCOUNT_FROZEN',
  'INSUFFICIENT_BALANCE',
  'FUND_BELOW_MIN_PURCHASE',
  'FUND_ABOVE_MAX_PURCHASE',
  'FUND_LIMIT_EXCEEDED',
  'FUND_NOT_RAISING',
  'FUND_ACTION_NOT_ALLOWED',
  'FUND_COIN_OFF_PEG',
  'FUND_BANK_ACCOUNT_NOT_FOUND',
  'PRICE_UNAVAILABLE',
] as const;

const REDEEM_CODES = [
  'VERIFICATION_REQUIRED',
  'CAPTCHA_FAILED',
  'CONFLICT',
  'NOT_FOUND',
  'KYC_REQUIRED',
  'ACCOUNT_FROZEN',
  'FUND_BELOW_MIN_REDEEM',
  'FUND_ABOVE_MAX_REDEEM',
  'FUND_ACTION_NOT_ALLOWED',
  'FUND_NO_EARLY_REDEMPTION',
  'FUND_COIN_OFF_PEG',
  'FUND_BANK_ACCOUNT_NOT_FOUND',
  'PRICE_UNAVAILABLE',
] as const;

/**
 * Every fund call (`fund/v2/*`) with its rules. Funds need investor verification (level 2): `kyc: 'investor'`. Subscribing and redeeming move money: security check (PURCHASE,
 * REDEEM) and `Idempotency-Key`.
 */
export const fundEndpoints = {
  asset: defineEndpoint({
    method: 'GET',
    path: '/fund/v2/asset',
    tag: 'funds',
    summary: 'The caller’s fund totals: current and fixed shares, paid and unpaid interest',
    auth: 'user',
    apiKeyScope: 'read',
    kyc: 'investor',
    content: fundAssetSchema,
    codes: ['KYC_REQUIRED'],
  }),
  order: defineEndpoint({
    method: 'GET',
    path: '/fund/v2/order',
    tag: 'funds',
    summary: 'Fund history: subscriptions, redemptions, interest, maturities; filtered and paged',
    auth: 'user',
    apiKeyScope: 'read',
    kyc: 'investor',
    query: fundOrderQuerySchema,
    content: fundOrderPageSchema,
    codes: ['KYC_REQUIRED'],
  }),
  product: defineEndpoint({
    method: 'GET',
    path: '/fund/v2/product',
    tag: 'funds',
    summary: 'Fund products with rates, tiers, windows and the caller’s holding',
    auth: 'user',
    kyc: 'investor',
    query: fundProductQuerySchema,
    content: fundProductListSchema,
    codes: ['KYC_REQUIRED'],
  }),
  config: defineEndpoint({
    method: 'GET',
    path: '/fund/v2/config',
    tag: 'funds',
    summary: 'Subscribe options (min, max, limit, fee), coins at par, receiving account, wire times',
    auth: 'user',
    kyc: 'investor',
    content: fundConfigSchema,
    codes: ['KYC_REQUIRED'],
  }),
  earnings: defineEndpoint({
    method: 'GET',
    path: '/fund/v2/earnings',
    tag: 'funds',
    summary: 'Interest accrued per Hong Kong day over the last N days (chart)',
    auth: 'user',
    apiKeyScope: 'read',
    kyc: 'investor',
    query: fundEarningsQuerySchema,
    content: fundEarningsSchema,
    codes: ['KYC_REQUIRED'],
  }),
  subscribe: defineEndpoint({
    method: 'POST',
    path: '/fund/v2/subscribe',
    tag: 'funds',
    summary: 'Subscribe a fund from a stablecoin (WALLET), a wire (USD) or current shares (FUND)',
    auth: 'user',
    apiKeyScope: 'trade',
    kyc: 'investor',
    sensitiveAction: 'PURCHASE',
    isIdempotent: true,
    body: fundSubscribeBodySchema,
    content: fundOrderSchema,
    codes: SUBSCRIBE_CODES,
  }),
  redeem: defineEndpoint({
    method: 'POST',
    path: '/fund/v2/redeem',
    tag: 'funds',
    summary: 'Redeem current-fund shares to a stablecoin (WALLET, instant) or a wire (USD)',
    auth: 'user',
    apiKeyScope: 'trade',
    kyc: 'investor',
    sensitiveAction: 'REDEEM',
    isIdempotent: true,
    body: fundRedeemBodySchema,
    content: fundOrderSchema,
    codes: REDEEM_CODES,
  }),
};
