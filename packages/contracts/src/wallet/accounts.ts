import { z } from 'zod';
import { assetCodeSchema, decimalAmountSchema, withAmountMinor } from '../money.ts';
import { sensitiveFactorsSchema } from '../security.ts';

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
