/**
 * Every route of the product by name, with its absolute path. Route objects use the name
 * as their id, so menus highlight by name (`useMatches`) and links are built with `pathTo` — a typo
 * in a name or a missing parameter is a compile error.
 */
export const ROUTE_PATHS = {
  Home: '/',
  About: '/about',
  USDE: '/usde',
  Earn: '/product/earn',
  Fiscard: '/product/fiscard',
  /** The card marketing screens: physical, virtual, business, card-issuing API. */
  FiscardPhysical: '/product/fiscard/physical',
  FiscardVirtual: '/product/fiscard/virtual',
  FiscardBusiness: '/product/fiscard/business',
  FiscardApi: '/product/fiscard/api',
  Trust: '/product/trust',
  /** One of the signed-in user's trusts. */
  TrustDetail: '/product/trust/:id',
  Exchange: '/exchange',
  Loan: '/loan',
  Messages: '/messages',
  Test: '/test',
  Download: '/download',
  PrivacyPolicy: '/legal/privacy',
  AmlKycPolicy: '/legal/aml-kyc',
  Identity: '/identity',
  IdentityBasic: '/identity/basic',
  IdentityInvestor: '/identity/investor',
  IdentityAml: '/identity/aml',
  IdentityTax: '/identity/tax',
  IdentityQualified: '/identity/qualified',
  /** The qualified-investor step as `KYC_STEPS` (and so a 143 answer's `route`) names it: the same page. */
  IdentityQualify: '/identity/qualify',
  /** A verified user's change of residence (country, address, new proof of address). */
  IdentityResidence: '/identity/residence',

  Wallet: '/account/wallet',
  DepositWalletDefault: '/account/wallet/deposit',
  DepositWallet: '/account/wallet/deposit/:coin',
  WithdrawWalletDefault: '/account/wallet/withdraw',
  WithdrawWallet: '/account/wallet/withdraw/:coin',

  My: '/my',
  Order: '/my/order',
  WalletHistory: '/my/order/wallet',
  DepositHistory: '/my/order/wallet/deposit',
  WithdrawHistory: '/my/order/wallet/withdraw',
  SwapHistory: '/my/order/swap',
  FundHistory: '/my/order/fund',
  LoanHistory: '/my/order/loan',
  LoanOrder: '/my/order/loan/history',
  LoanRepayRecord: '/my/order/loan/repay',
  LoanAdjustRecord: '/my/order/loan/adjust',
  LoanLiquidationRecord: '/my/order/loan/liquidation',

  Account: '/my/account',
  AccountOverview: '/my/account/overview',
  MainAccount: '/my/account/main',
  FundAccount: '/my/account/fund',
  FiscardAccount: '/my/account/fiscard',
  AccountStatement: '/my/account/statement',
  /** The user's dates and the ICS feed. */
  Calendar: '/my/calendar',

  Payment: '/my/payment',
  PaymentBank: '/my/payment/bank',
  AddBank: '/my/payment/bank-add',
  Profile: '/my/profile',
  Security: '/my/security',
  DeleteAccount: '/my/security/account/delete',
  EnableSMS: '/my/security/enable-sms',
  ResetPass: '/my/security/password',
  SetPin: '/my/security/pin',
  GoogleAuthenticators: '/my/security/google-authenticator',
  /** The user's developer API keys. */
  ApiKeys: '/my/security/api-keys',
  Address: '/my/address',
  /** The published proof of liabilities and the user's own proof. */
  ProofOfLiabilities: '/proof-of-liabilities',
  /** The "this wasn't me" link of security emails: one press freezes the account. */
  Freeze: '/freeze/:token',
} as const satisfies Record<string, `/${string}`>;

export type RouteName = keyof typeof ROUTE_PATHS;
type RoutePaths = typeof ROUTE_PATHS;

/** The `:name` parameters of a path pattern, as a union of names. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

type PathArgs<Name extends RouteName> = [ParamNames<RoutePaths[Name]>] extends [never]
  ? []
  : [params: Record<ParamNames<RoutePaths[Name]>, string>];

/** Names of routes without parameters: menus and tabs link to these. */
export type StaticRouteName = {
  [Name in RouteName]: [ParamNames<RoutePaths[Name]>] extends [never] ? Name : never;
}[RouteName];

/** The path of a named route with its parameters filled (each encoded). */
export function pathTo<Name extends RouteName>(name: Name, ...args: PathArgs<Name>): string {
  const [params] = args as [Record<string, string>?];
  return ROUTE_PATHS[name].replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params?.[key] ?? ''));
}

export function isRouteName(value: string): value is RouteName {
  return Object.hasOwn(ROUTE_PATHS, value);
}

/** Default coin of deposit and withdraw pages. */
export const DEFAULT_WALLET_COIN = 'USDE';
