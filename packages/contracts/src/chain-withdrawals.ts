import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';

/**
 * Withdrawals sent on chain from the EVM hot wallet (docs/chain.md "Withdrawals"): SIGNED (nonce
 * assigned), BROADCAST (in the node's pool), MINED (in a block, fewer than N confirmations),
 * CONFIRMED (N reached: the withdrawal succeeded), REVERTED (the withdrawal failed, funds returned).
 */
export const chainWithdrawalStatusSchema = z.enum(['SIGNED', 'BROADCAST', 'MINED', 'CONFIRMED', 'REVERTED']);
export type ChainWithdrawalStatus = z.infer<typeof chainWithdrawalStatusSchema>;

/** One chain withdrawal as the back office lists it. Fees in gwei per gas (decimal strings). */
export const chainWithdrawalSchema = z.object({
  id: z.string(),
  /** The wallet withdrawal it pays. */
  withdrawalId: z.string(),
  nonce: z.number().int(),
  coinCode: z.string(),
  /** The ERC-20 contract, or null for ETH. */
  tokenAddress: z.string().nullable(),
  toAddress: z.string(),
  /** In the token's base units (wei for ETH), as a decimal string. */
  amountRaw: z.string(),
  gasLimit: z.string(),
  maxFeePerGasGwei: z.string(),
  maxPriorityFeePerGasGwei: z.string(),
  status: chainWithdrawalStatusSchema,
  /** The latest transaction sent, or the one mined. */
  txHash: z.string().nullable(),
  /** `txHash` on the configured block explorer (EVM_EXPLORER_TX_URL). */
  explorerUrl: z.string().nullable(),
  /** Transactions signed for the nonce (1 + replacements). */
  attempts: z.number().int(),
  minedBlock: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  createTime: z.string(),
  /** The last send (first or replacement). */
  broadcastTime: z.string().nullable(),
  /** The row's last change (sent, mined, settled, failed). */
  updateTime: z.string().nullable(),
});
export type ChainWithdrawal = z.infer<typeof chainWithdrawalSchema>;

export const chainWithdrawalQuerySchema = pageQuerySchema.extend({ status: chainWithdrawalStatusSchema.optional() });
export type ChainWithdrawalQuery = z.infer<typeof chainWithdrawalQuerySchema>;

/** A back-office alert about the hot wallet's balance of a coin (amounts as decimal strings of the coin). */
export const hotWalletAlertSchema = z.object({
  id: z.string(),
  coinCode: z.string(),
  /** low: below EVM_HOT_WALLET_MIN, its withdrawals queue; excess: above EVM_HOT_WALLET_MAX, move the excess to cold storage. */
  kind: z.enum(['low', 'excess']),
  balance: z.string(),
  limit: z.string(),
  status: z.enum(['open', 'resolved']),
  createTime: z.string(),
  resolvedTime: z.string().nullable(),
});

/**
 * One coin of the hot wallet: its balance as the node reports it now (null when the node does not
 * answer or there is no hot wallet yet) against EVM_HOT_WALLET_MIN / _MAX (null when not set); decimal
 * strings of the coin, rounded down to its precision.
 */
export const hotWalletBalanceSchema = z.object({
  coinCode: z.string(),
  balance: z.string().nullable(),
  min: z.string().nullable(),
  max: z.string().nullable(),
});
export type HotWalletBalance = z.infer<typeof hotWalletBalanceSchema>;

/**
 * The hot wallet: its address, the next nonce it will use, its balance per coin (ETH, then the
 * configured tokens) with the thresholds, and its balance alerts (open first, newest first).
 */
export const hotWalletSchema = z.object({
  address: z.string().nullable(),
  nextNonce: z.number().int().nullable(),
  balances: z.array(hotWalletBalanceSchema),
  alerts: z.array(hotWalletAlertSchema),
});
export type HotWallet = z.infer<typeof hotWalletSchema>;

/**
 * The chain transaction of one of the user's withdrawals; every field null when the hot wallet has
 * not sent it (yet, or it is paid another way) or it is not the user's.
 */
export const withdrawalChainSchema = z.object({
  status: chainWithdrawalStatusSchema.nullable(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
});
export type WithdrawalChain = z.infer<typeof withdrawalChainSchema>;

export const withdrawalChainParamsSchema = z.object({
  id: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
});

/** The chain withdrawals' calls: the back office's reads (role finance) and the user's link. */
export const chainWithdrawalEndpoints = {
  listChainWithdrawals: defineEndpoint({
    method: 'GET',
    path: '/admin/chain/withdrawals',
    tag: 'back-office',
    summary: 'Withdrawals sent from the EVM hot wallet (nonce, fees, status, hash), newest first',
    auth: 'operator',
    roles: ['finance'],
    query: chainWithdrawalQuerySchema,
    content: pageSchema(chainWithdrawalSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  hotWallet: defineEndpoint({
    method: 'GET',
    path: '/admin/chain/hot-wallet',
    tag: 'back-office',
    summary: 'The EVM hot wallet: address, next nonce, balances against their thresholds, balance alerts',
    auth: 'operator',
    roles: ['finance'],
    content: hotWalletSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  withdrawalChain: defineEndpoint({
    method: 'GET',
    path: '/wallet/withdraw/:id/chain',
    tag: 'wallet',
    summary: "One of the user's withdrawals on chain: status, transaction hash and its block-explorer link",
    auth: 'user',
    apiKeyScope: 'read',
    params: withdrawalChainParamsSchema,
    content: withdrawalChainSchema,
    codes: ['LOGIN_EXPIRED'],
  }),
};
