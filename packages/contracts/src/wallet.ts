import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText } from './limits.ts';
import { amountMinorSchema, assetCodeSchema, decimalAmountSchema, withAmountMinor } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';
import { defineEndpoint } from './endpoint.ts';
import { ANY_OPERATOR } from './operators.ts';

/**
 * Wallet API contracts (wallet coin, network, balance, withdraw record, withdraw address;
 * withdraw status; amount rules and label; wallet/*, account/balance, coinlist). Amounts
 * are decimal strings in the coin's precision; the server parses them exactly.
 */

/** Withdraw status: 0 waiting, 1 processing, 2 success, 3 failure, 4 cancel. */
export const WITHDRAW_STATUS = { WAITING: 0, PROCESSING: 1, SUCCESS: 2, FAILURE: 3, CANCEL: 4 } as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUS)[keyof typeof WITHDRAW_STATUS];
export const withdrawStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/**
 * Deposit status: pending until the network's confirmations are reached, then credited — or, when
 * its source address is on a sanctions list, FROZEN for review (held in the ledger's
 * SUSPENSE account until an operator releases it).
 */
export const DEPOSIT_STATUSES = ['PENDING', 'CREDITED', 'FROZEN'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** INTERNAL: between two Meridian users, settled at once without fee. OUTER: on chain. */
export const transferTypeSchema = z.enum(['INTERNAL', 'OUTER']);
export type TransferType = z.infer<typeof transferTypeSchema>;

/** Label of a saved address: 4–50 characters. */
export const addressLabelSchema = z
  .string()
  .trim()
  .min(4, { error: 'validation.addressLabel' })
  .max(50, { error: 'validation.addressLabel' });

/** A network a coin moves on, with its limits in the coin's decimals. */
export const coinNetworkSchema = z.object({
  network: z.string(),
  withdrawMin: z.string(),
  withdrawMax: z.string(),
  withdrawFee: z.string(),
  confirmationsRequired: z.number().int(),
  isDepositEnabled: z.boolean(),
  isWithdrawEnabled: z.boolean(),
});
export type CoinNetwork = z.infer<typeof coinNetworkSchema>;

/** A wallet coin: code, full name, icon, precision and its networks. */
export const walletCoinSchema = z.object({
  coinCode: assetCodeSchema,
  fullName: z.string(),
  icon: z.string(),
  precision: z.number().int(),
  nets: z.array(coinNetworkSchema),
});
export type WalletCoin = z.infer<typeof walletCoinSchema>;

/** `GET coinlist` and `GET wallet/coin/config`: the enabled coins with their networks. */
export const coinListContentSchema = z.array(walletCoinSchema);

/** `GET wallet/network?coin=` */
export const networkQuerySchema = z.object({ coin: assetCodeSchema });
export const networkListContentSchema = z.array(coinNetworkSchema);

/** `GET wallet/address?coin=&net=&action=deposit`: the user's deposit address for a coin and network. */
export const depositAddressQuerySchema = z.object({
  coin: assetCodeSchema,
  net: z.string().min(1).max(32),
  action: z.literal('deposit').default('deposit'),
});
export const depositAddressContentSchema = z.object({
  coinCode: assetCodeSchema,
  network: z.string(),
  address: z.string(),
  confirmationsRequired: z.number().int(),
});
export type DepositAddressContent = z.infer<typeof depositAddressContentSchema>;

/** One asset line of a balance (coinCode, type, amount, convert = USD value). */
export const balanceAssetSchema = z.object({
  coinCode: assetCodeSchema,
  type: z.enum(['available', 'frozen']),
  amount: z.string(),
  /** USD value, 2 decimals, rounded down; null when no price is available. */
  convert: z.string().nullable(),
});
export const balanceAccountSchema = z.object({
  /**
   * LoanAccount: the BTC pledged in
   * current loans (type `frozen`) and each loan coin's debt as a NEGATIVE amount (type `available`);
   * its `totalUsd` is collateral minus debt and may be negative.
   */
  accountType: z.enum(['MainAccount', 'FundAccount', 'CardAccount', 'TrustAccount', 'LoanAccount']),
  /** USD value of the account's assets, 2 decimals, rounded down. */
  totalUsd: z.string(),
  assets: z.array(balanceAssetSchema),
});
/** `GET wallet/balance`, `GET account/balance`, `GET wallet/overview`. */
export const balanceContentSchema = z.object({
  overview: z.object({ totalUsd: z.string(), accounts: z.array(balanceAccountSchema.omit({ assets: true })) }),
  wallet: z.object({ accounts: z.array(balanceAccountSchema) }),
});
export type BalanceContent = z.infer<typeof balanceContentSchema>;

const withdrawFieldsSchema = sensitiveFactorsSchema.extend({
  coin: assetCodeSchema,
  network: z.string().min(1).max(32),
  address: z.string().trim().min(1, { error: 'validation.withdrawAddressRequired' }).max(128),
  amount: decimalAmountSchema,
});

/**
 * `POST wallet/withdraw` (api-version 2.0) body, with the security-check factors. `amount` is a
 * decimal string of `coin` on the wire; parsed, it is `amountMinor` (positive, within the coin's
 * precision: `withAmountMinor`).
 */
export const withdrawBodySchema = withAmountMinor(withdrawFieldsSchema, (body) => body.coin);
/** The withdrawal body as a client sends it. */
export type WithdrawBody = z.input<typeof withdrawBodySchema>;
/** The withdrawal body as the service receives it: `amountMinor` in place of `amount`. */
export type ParsedWithdrawBody = z.output<typeof withdrawBodySchema>;

/**
 * `POST wallet/withdraw/check`: the dry run of a withdrawal. The same body as
 * `POST wallet/withdraw` without the security-check factors; it runs every check the withdrawal runs
 * (network, address format and burn list, limits, balance, security hold, whitelist) and changes
 * nothing, so the page can refuse a bad request before it asks for a one-time code. Its refusals are
 * the withdrawal's own (422 naming the field, 503/135, 104 …).
 */
export const withdrawCheckBodySchema = withAmountMinor(
  withdrawFieldsSchema.omit({ mfaCode: true, emailCaptcha: true, securityPassword: true }),
  (body) => body.coin,
);
/** The dry-run body as a client sends it. */
export type WithdrawCheckBody = z.input<typeof withdrawCheckBodySchema>;
/** The dry-run body as the service receives it: `amountMinor` in place of `amount`. */
export type ParsedWithdrawCheckBody = z.output<typeof withdrawCheckBodySchema>;
/** What the dry run answers: the withdrawal as it would be made (decimal strings in the coin's precision). */
export const withdrawCheckContentSchema = z.object({
  coinCode: assetCodeSchema,
  network: z.string(),
  /** The address as the withdrawal would store it (normalised for the network). */
  address: z.string(),
  /** INTERNAL when the address belongs to another Meridian user (no fee), OUTER on chain. */
  type: transferTypeSchema,
  amount: z.string(),
  fee: z.string(),
  /** amount + fee: what leaves the available balance. */
  totalDebited: z.string(),
});
export type WithdrawCheckContent = z.infer<typeof withdrawCheckContentSchema>;

/**
 * Coin actions of the wallet record: deposits, withdrawals, and the two legs of a swap —
 * `exchange_out` (the coin given) and `exchange_in` (the coin received).
 */
export const walletRecordActionSchema = z.enum(['deposit', 'withdraw', 'exchange_in', 'exchange_out']);
export type WalletRecordAction = z.infer<typeof walletRecordActionSchema>;

/**
 * A deposit, withdrawal or swap leg in the history. Swap legs have no
 * network, address, fee or hash: `network` and `address` are empty, `fee` is 0, `type` INTERNAL,
 * `status` 2 (done) and `id` is the ledger entry's id.
 */
export const walletRecordSchema = z.object({
  id: z.string(),
  action: walletRecordActionSchema,
  coinCode: assetCodeSchema,
  network: z.string(),
  address: z.string(),
  amount: z.string(),
  fee: z.string(),
  type: transferTypeSchema,
  /** Withdrawals: 0–4. Deposits: 0 pending, 2 credited. */
  status: z.number().int(),
  txHash: z.string().nullable(),
  confirmations: z.number().int().nullable(),
  /** Deposits: the confirmations needed before it is credited (the N of "k of N"); absent or null otherwise. */
  confirmationsRequired: z.number().int().nullable().optional(),
  createTime: z.string(),
});
export type WalletRecord = z.infer<typeof walletRecordSchema>;

/** `GET wallet/record`: history with its filters (coin, createTime range, status, type), paged. */
export const walletRecordQuerySchema = pageQuerySchema.extend({
  action: walletRecordActionSchema,
  coin: assetCodeSchema.optional(),
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
  status: z.coerce.number().int().min(0).max(4).optional(),
  type: transferTypeSchema.optional(),
});
export type WalletRecordQuery = z.infer<typeof walletRecordQuerySchema>;
export const walletRecordPageSchema = pageSchema(walletRecordSchema);

/** A saved withdrawal address. */
export const addressBookEntrySchema = z.object({
  id: z.number().int(),
  label: z.string(),
  network: z.string(),
  address: z.string(),
  createTime: z.string(),
  /** In whitelist mode, when it becomes usable. */
  usableAt: z.string(),
});
export type AddressBookEntry = z.infer<typeof addressBookEntrySchema>;
export const addressBookListSchema = z.array(addressBookEntrySchema);
/** `POST wallet/addressbook` body (WITHDRAW_ADDRESS_ADD security check). */
export const addressBookAddBodySchema = sensitiveFactorsSchema.extend({
  label: addressLabelSchema,
  network: z.string().min(1, { error: 'validation.networkRequired' }).max(32),
  address: z.string().trim().min(1, { error: 'validation.withdrawAddressRequired' }).max(128),
});
export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * The custody webhook (`POST custody/webhook`), signed with HMAC-SHA256 of the raw body in the
 * `X-Custody-Signature: sha256=<hex>` header. `sentAt` (ISO) must be within 5 minutes; `deliveryId`
 * is accepted once.
 */
export const custodyDepositEventSchema = withAmountMinor(
  z.object({
    type: z.literal('deposit'),
    network: z.string().min(1).max(32),
    coin: assetCodeSchema,
    address: z.string().min(1).max(128),
    txHash: z.string().min(1).max(128),
    outputIndex: z.number().int().min(0).max(1_000_000),
    amount: decimalAmountSchema,
    confirmations: z.number().int().min(0).max(1_000_000),
    /**
     * The address the coins came from (deposit-source screening), when custody knows it;
     * for a transaction with several inputs, any one of them (custody sends one report per input
     * address it wants screened). Optional: older reports have none.
     */
    fromAddress: z.string().min(1).max(128).optional(),
  }),
  (event) => event.coin,
);
export const custodyWithdrawalEventSchema = z.object({
  type: z.literal('withdrawal'),
  withdrawalId: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
  result: z.enum(['success', 'failure']),
  txHash: z.string().min(1).max(128).optional(),
  reason: z.string().max(500).optional(),
});
export const custodyWebhookBodySchema = z.object({
  deliveryId: z.string().min(1).max(128),
  sentAt: z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
  event: z.discriminatedUnion('type', [custodyDepositEventSchema, custodyWithdrawalEventSchema]),
});
/** The webhook body as custody sends it. */
export type CustodyWebhookBody = z.input<typeof custodyWebhookBodySchema>;
/** The webhook body as the service receives it: a deposit's `amountMinor` in place of `amount`. */
export type ParsedCustodyWebhookBody = z.output<typeof custodyWebhookBodySchema>;
/** Header carrying the webhook signature. */
export const HEADER_CUSTODY_SIGNATURE = 'X-Custody-Signature';
/** How far `sentAt` may be from the server's clock. */
export const CUSTODY_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** What the webhook answers: the deposit's state, or that the delivery was a duplicate. */
export const custodyWebhookContentSchema = z.object({
  isDuplicateDelivery: z.boolean(),
  depositId: z.string().nullable(),
  status: z.string().nullable(),
});

/**
 * Withdrawal limits by identity level, in USD: per rolling 24 hours and per calendar
 * month in Hong Kong time. Amounts are decimal strings with 2 decimals.
 */
export const withdrawLimitWindowSchema = z.object({
  /** The limit of the window. */
  limitUsd: z.string(),
  /** The USD value (at request time) of the withdrawals in the window that are not cancelled or failed. */
  usedUsd: z.string(),
  /** limitUsd − usedUsd, never below 0. */
  leftUsd: z.string(),
});
/** `GET wallet/withdraw/limits`: the caller's level and what is left of each window. */
export const withdrawLimitsContentSchema = z.object({
  level: z.number().int(),
  per24h: withdrawLimitWindowSchema,
  perMonth: withdrawLimitWindowSchema,
});
export type WithdrawLimitsContent = z.infer<typeof withdrawLimitsContentSchema>;
/** The window a withdrawal over the limit is refused for (`WITHDRAW_LIMIT_EXCEEDED` content). */
export const WITHDRAW_LIMIT_WINDOWS = ['24h', 'month'] as const;
export type WithdrawLimitWindow = (typeof WITHDRAW_LIMIT_WINDOWS)[number];

/**
 * Every wallet call (coinlist, wallet/*, account/balance) with its rules: the descriptors
 * the server registers its routes from and the web calls through (see `endpoint.ts`).
 */
export const walletEndpoints = {
  listCoins: defineEndpoint({
    method: 'GET',
    path: '/coinlist',
    tag: 'wallet',
    summary: 'Wallet coins with their networks',
    auth: 'none',
    content: coinListContentSchema,
  }),
  coinConfig: defineEndpoint({
    method: 'GET',
    path: '/wallet/coin/config',
    tag: 'wallet',
    summary: 'Coins with network limits, fees and switches',
    auth: 'none',
    content: coinListContentSchema,
  }),
  listNetworks: defineEndpoint({
    method: 'GET',
    path: '/wallet/network',
    tag: 'wallet',
    summary: 'Networks of one coin',
    auth: 'none',
    query: networkQuerySchema,
    content: networkListContentSchema,
  }),
  depositAddress: defineEndpoint({
    method: 'GET',
    path: '/wallet/address',
    tag: 'wallet',
    summary: 'The deposit address of a coin on a network',
    auth: 'user',
    apiKeyScope: 'read',
    query: depositAddressQuerySchema,
    content: depositAddressContentSchema,
    codes: ['DEPOSIT_UNAVAILABLE'],
  }),
  balance: defineEndpoint({
    method: 'GET',
    path: '/wallet/balance',
    tag: 'wallet',
    summary: 'Balances per coin (available, frozen) valued in USD',
    auth: 'user',
    apiKeyScope: 'read',
    content: balanceContentSchema,
  }),
  accountBalance: defineEndpoint({
    method: 'GET',
    path: '/account/balance',
    tag: 'wallet',
    summary: 'Balances per coin (available, frozen) valued in USD',
    auth: 'user',
    apiKeyScope: 'read',
    content: balanceContentSchema,
  }),
  overview: defineEndpoint({
    method: 'GET',
    path: '/wallet/overview',
    tag: 'wallet',
    summary: 'Balances per coin (available, frozen) valued in USD',
    auth: 'user',
    apiKeyScope: 'read',
    content: balanceContentSchema,
  }),
  withdraw: defineEndpoint({
    method: 'POST',
    path: '/wallet/withdraw',
    tag: 'wallet',
    summary: 'Withdraw to an address or to another Meridian user',
    auth: 'user',
    apiKeyScope: 'withdraw',
    kyc: 'basic',
    sensitiveAction: 'WITHDRAW',
    apiVersion: '2.0',
    isIdempotent: true,
    body: withdrawBodySchema,
    content: walletRecordSchema,
    codes: [
      'VERIFICATION_REQUIRED',
      'SECURITY_HOLD',
      'CAPTCHA_FAILED',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      'AMOUNT_BELOW_MIN',
      'AMOUNT_ABOVE_MAX',
      'WITHDRAW_UNAVAILABLE',
      'PRICE_UNAVAILABLE',
      'WITHDRAW_LIMIT_EXCEEDED',
    ],
  }),
  checkWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/wallet/withdraw/check',
    tag: 'wallet',
    summary: 'Dry run of a withdrawal: every check, nothing recorded, no code asked',
    auth: 'user',
    apiKeyScope: 'withdraw',
    kyc: 'basic',
    apiVersion: '2.0',
    body: withdrawCheckBodySchema,
    content: withdrawCheckContentSchema,
    codes: [
      'VERIFICATION_REQUIRED',
      'SECURITY_HOLD',
      'INSUFFICIENT_BALANCE',
      'AMOUNT_BELOW_MIN',
      'AMOUNT_ABOVE_MAX',
      'WITHDRAW_UNAVAILABLE',
      'PRICE_UNAVAILABLE',
      'WITHDRAW_LIMIT_EXCEEDED',
    ],
  }),
  withdrawLimits: defineEndpoint({
    method: 'GET',
    path: '/wallet/withdraw/limits',
    tag: 'wallet',
    summary: 'Withdrawal limits of the caller’s level in USD: per 24 hours and per month, used and left',
    auth: 'user',
    apiKeyScope: 'read',
    content: withdrawLimitsContentSchema,
  }),
  cancelWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/wallet/withdraw/:id/cancel',
    tag: 'wallet',
    summary: 'Cancel a waiting withdrawal',
    auth: 'user',
    apiKeyScope: 'withdraw',
    params: idParamSchema,
    content: walletRecordSchema,
    codes: ['NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
  listRecords: defineEndpoint({
    method: 'GET',
    path: '/wallet/record',
    tag: 'wallet',
    summary: 'Deposit or withdrawal history, filtered and paged',
    auth: 'user',
    apiKeyScope: 'read',
    query: walletRecordQuerySchema,
    content: walletRecordPageSchema,
  }),
  listAddressBook: defineEndpoint({
    method: 'GET',
    path: '/wallet/addressbook',
    tag: 'wallet',
    summary: 'Saved withdrawal addresses',
    auth: 'user',
    apiKeyScope: 'read',
    content: addressBookListSchema,
  }),
  addAddress: defineEndpoint({
    method: 'POST',
    path: '/wallet/addressbook',
    tag: 'wallet',
    summary: 'Save a withdrawal address (security check)',
    auth: 'user',
    sensitiveAction: 'WITHDRAW_ADDRESS_ADD',
    body: addressBookAddBodySchema,
    content: addressBookEntrySchema,
    codes: ['CAPTCHA_FAILED', 'CONFLICT'],
  }),
  deleteAddress: defineEndpoint({
    method: 'DELETE',
    path: '/wallet/addressbook/:id',
    tag: 'wallet',
    summary: 'Delete a saved address',
    auth: 'user',
    params: idParamSchema,
    content: z.null(),
    codes: ['NOT_FOUND'],
  }),
};

/** The custody service's signed calls (machine callers: HMAC of the raw body, no CSRF header). */
export const custodyEndpoints = {
  webhook: defineEndpoint({
    method: 'POST',
    path: '/custody/webhook',
    tag: 'custody',
    summary: `Custody webhook, signed: ${HEADER_CUSTODY_SIGNATURE}: sha256=<HMAC-SHA256 of the raw body>`,
    auth: 'none',
    body: custodyWebhookBodySchema,
    content: custodyWebhookContentSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID', 'UNKNOWN_DEPOSIT_ADDRESS', 'BAD_REQUEST'],
  }),
  addressLookup: defineEndpoint({
    method: 'POST',
    path: '/custody/address-lookup',
    tag: 'custody',
    summary: 'The deposit address of a user (development deposit command only)',
    auth: 'none',
    isHidden: true,
    body: z.object({ email: z.email().max(254), coin: assetCodeSchema, network: z.string().min(1).max(32) }),
    content: depositAddressContentSchema,
  }),
};

// ---------------------------------------------------------------- operators

/** A limit row as operators see and edit it (USD decimal strings, 2 decimals). */
export const opsWithdrawalLimitSchema = z.object({
  level: z.number().int(),
  usdPer24h: z.string(),
  usdPerMonth: z.string(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type OpsWithdrawalLimit = z.infer<typeof opsWithdrawalLimitSchema>;
/** `PUT admin/withdrawal-limits/:level` path: levels 1–3 (level 0 cannot withdraw). */
export const withdrawalLimitLevelParamSchema = z.object({ level: z.coerce.number().int().min(1).max(3) });
/** `PUT admin/withdrawal-limits/:level` body: positive USD amounts, at most 2 decimals, parsed to cents. */
export const opsWithdrawalLimitBodySchema = z.object({
  usdPer24h: amountMinorSchema('USD'),
  usdPerMonth: amountMinorSchema('USD'),
});

/** What a screening alert is about: a refused withdrawal or address-book entry, or a frozen deposit. */
export const SCREENING_ALERT_KINDS = ['withdrawal', 'address_book', 'deposit'] as const;
export type ScreeningAlertKind = (typeof SCREENING_ALERT_KINDS)[number];
/** open → released (cleared: a frozen deposit is credited) or confirmed (stays refused/frozen). */
export const SCREENING_ALERT_STATUSES = ['open', 'released', 'confirmed'] as const;
export type ScreeningAlertStatus = (typeof SCREENING_ALERT_STATUSES)[number];

export const screeningAlertSchema = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.enum(SCREENING_ALERT_KINDS),
  network: z.string(),
  address: z.string(),
  listName: z.string(),
  /** The deposit id of a deposit alert; null for a refused withdrawal or address-book entry (nothing was recorded). */
  referenceId: z.string().nullable(),
  status: z.enum(SCREENING_ALERT_STATUSES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type ScreeningAlert = z.infer<typeof screeningAlertSchema>;
/** `GET admin/screening/alerts?status=open`: a page, oldest first, optionally of one status. */
export const screeningAlertQuerySchema = pageQuerySchema.extend({
  status: z.enum(SCREENING_ALERT_STATUSES).optional(),
});
/** `POST admin/screening/alerts/:id/release`: an optional note. */
export const screeningReleaseBodySchema = z.object({ note: z.string().trim().min(1).max(500).optional() });
/** `POST admin/screening/alerts/:id/confirm`: why the hit stands (required). */
export const screeningConfirmBodySchema = z.object({
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500),
});

/**
 * The operator calls of the wallet, registered by the admin module with the other
 * back-office routes (`/api/admin`, `auth: 'operator'`). Limits: read by any operator,
 * changed by `admin` only, each change audited. Screening alerts: listed by `support`, `compliance`
 * and `admin`; decided by `compliance` and `admin`.
 */
export const opsWalletEndpoints = {
  listWithdrawalLimits: defineEndpoint({
    method: 'GET',
    path: '/admin/withdrawal-limits',
    tag: 'back-office',
    summary: 'Withdrawal limits per identity level (USD per 24 hours and per month)',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(opsWithdrawalLimitSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  setWithdrawalLimit: defineEndpoint({
    method: 'PUT',
    path: '/admin/withdrawal-limits/:level',
    tag: 'back-office',
    summary: 'Change the withdrawal limits of one level (admin; audited)',
    auth: 'operator',
    roles: [],
    params: withdrawalLimitLevelParamSchema,
    body: opsWithdrawalLimitBodySchema,
    content: opsWithdrawalLimitSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  listScreeningAlerts: defineEndpoint({
    method: 'GET',
    path: '/admin/screening/alerts',
    tag: 'back-office',
    summary: 'Screening alerts (sanctions-list hits), oldest first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: screeningAlertQuerySchema,
    content: pageSchema(screeningAlertSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  releaseScreeningAlert: defineEndpoint({
    method: 'POST',
    path: '/admin/screening/alerts/:id/release',
    tag: 'back-office',
    summary: 'Release an alert: a frozen deposit is credited to the user (once)',
    auth: 'operator',
    roles: ['compliance'],
    params: idParamSchema,
    body: screeningReleaseBodySchema,
    content: screeningAlertSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SCREENING_ALERT_STATE_CHANGED'],
  }),
  confirmScreeningAlert: defineEndpoint({
    method: 'POST',
    path: '/admin/screening/alerts/:id/confirm',
    tag: 'back-office',
    summary: 'Confirm an alert: the hit stands, a deposit stays frozen (note required)',
    auth: 'operator',
    roles: ['compliance'],
    params: idParamSchema,
    body: screeningConfirmBodySchema,
    content: screeningAlertSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SCREENING_ALERT_STATE_CHANGED'],
  }),
};
