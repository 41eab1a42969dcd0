import { z } from 'zod';
import { coinMap, emptyToUndefined, type NodeEnv } from './env-rules.ts';

/** The wallet (custody webhook, deposit xpubs, withdrawal rules) and the EVM chain watcher. */
export const walletEnvSchema = z.object({
  /** Secret of the custody webhook's HMAC-SHA256 signature (≥ 32 characters). Generated into DATA_DIR when absent (not in production). */
  CUSTODY_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Account-level extended public keys for deposit addresses: zpub/xpub at m/84'/0'/0' (Bitcoin), xpub at m/44'/60'/0' (ETH, ERC20), xpub at m/44'/195'/0' (TRC20). A demo set is generated into DATA_DIR when absent (not in production). */
  WALLET_XPUB_BITCOIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[xz]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… or zpub… extended public key' })
      .optional(),
  ),
  WALLET_XPUB_EVM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… extended public key' })
      .optional(),
  ),
  WALLET_XPUB_TRON: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… extended public key' })
      .optional(),
  ),
  /** Withdraw only to address-book entries at least 24 hours old. */
  WITHDRAW_WHITELIST_MODE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Withdrawals whose USD value at request time is over this amount (a decimal string of USD, at
   * most 2 decimals) need a second finance operator's approval before another one processes them.
   */
  LARGE_WITHDRAWAL_USD: z
    .string()
    .regex(/^(0|[1-9]\d*)(\.\d{1,2})?$/, { error: 'must be a USD amount such as 10000 or 2500.50' })
    .default('10000'),
  /**
   * JSON-RPC URL of an Ethereum node: when set, the chain watcher (docs/chain.md) credits ETH,
   * USDT and USDC deposits from the chain; unset, EVM deposits arrive by the custody webhook.
   */
  EVM_RPC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^(https?|wss?)$/ }).optional()),
  /** Time between two looks at the node for new blocks. */
  EVM_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(4000),
  /** Most blocks the watcher reads in one poll (catching up after a pause). */
  EVM_BLOCKS_PER_POLL: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Confirmations per coin before a chain deposit is credited, `ETH=12,USDT=12`; a coin not named keeps its network's setting. */
  EVM_CONFIRMATIONS: z.preprocess(emptyToUndefined, coinMap(/^\d{1,6}$/, 'a whole number').optional()),
  /** ERC-20 contracts watched per coin, `USDT=0x…,USDC=0x…`; default: the Ethereum mainnet USDT and USDC contracts. */
  EVM_TOKENS: z.preprocess(emptyToUndefined, coinMap(/^0x[0-9a-fA-F]{40}$/, 'a 0x… contract address').optional()),
  /** Smallest chain deposit credited per coin (decimal amounts, `ETH=0.001,USDT=1`); smaller ones are held for review. */
  EVM_DEPOSIT_MINIMUMS: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
  /** First block the watcher reads when it has no cursor yet; default: the node's latest block then. */
  EVM_START_BLOCK: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).optional()),
  /** Key (≥ 32 characters) sealing the EVM hot wallet's private key at rest (docs/chain.md "Withdrawals"). Generated into DATA_DIR when absent; required in production with EVM_RPC_URL. */
  CHAIN_VAULT_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Highest EIP-1559 max fee per gas a withdrawal transaction may offer, in gwei (a decimal). */
  EVM_MAX_FEE_GWEI: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{1,6}(\.\d{1,9})?$/, { error: 'must be a gwei amount such as 200 or 1.5' })
      .default('200'),
  ),
  /** A withdrawal transaction not mined this long after its broadcast is replaced with a higher fee (same nonce). */
  CHAIN_REPLACE_AFTER_MS: z.coerce.number().int().min(1000).max(86_400_000).default(180_000),
  /** Block-explorer link of a transaction: `{hash}` is replaced by the hash, else the hash is appended. */
  EVM_EXPLORER_TX_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/ }).default('https://etherscan.io/tx/{hash}'),
  ),
  /** Hot-wallet balance per coin below which withdrawals of it queue and the back office is alerted (`ETH=0.5,USDT=1000`). */
  EVM_HOT_WALLET_MIN: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
  /** Hot-wallet balance per coin above which the back office is asked to move the excess to cold storage. */
  EVM_HOT_WALLET_MAX: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
});

/** The wallet and chain variables after parsing. */
export type WalletEnv = z.infer<typeof walletEnvSchema>;

/** The wallet variables' rules across variables. */
export function checkWalletEnv(env: WalletEnv & { NODE_ENV: NodeEnv }, ctx: z.RefinementCtx): void {
  const xpubCount = [env.WALLET_XPUB_BITCOIN, env.WALLET_XPUB_EVM, env.WALLET_XPUB_TRON].filter(Boolean).length;
  if (xpubCount > 0 && xpubCount < 3) {
    ctx.addIssue({
      code: 'custom',
      path: ['WALLET_XPUB_BITCOIN'],
      message: 'and WALLET_XPUB_EVM and WALLET_XPUB_TRON must be set together',
    });
  }
  if (env.NODE_ENV === 'production') {
    for (const name of [
      'CUSTODY_WEBHOOK_SECRET',
      'WALLET_XPUB_BITCOIN',
      'WALLET_XPUB_EVM',
      'WALLET_XPUB_TRON',
    ] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
    if (env.EVM_RPC_URL && !env.CHAIN_VAULT_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['CHAIN_VAULT_KEY'],
        message: 'is required in production with EVM_RPC_URL',
      });
    }
  }
}

/** Wallet: custody webhook secret and deposit xpubs (generated into DATA_DIR, or memory, when absent outside production). */
export interface WalletConfig {
  custodyWebhookSecret: string | undefined;
  xpubs: { bitcoin: string; evm: string; tron: string } | undefined;
  isWhitelistMode: boolean;
  /** USD (decimal string): a withdrawal worth more needs a second operator's approval (LARGE_WITHDRAWAL_USD). */
  largeWithdrawalUsd: string;
}

/** The wallet's settings from CUSTODY_WEBHOOK_SECRET, WALLET_XPUB_*, WITHDRAW_WHITELIST_MODE and LARGE_WITHDRAWAL_USD. */
export function walletConfig(e: WalletEnv): WalletConfig {
  return {
    custodyWebhookSecret: e.CUSTODY_WEBHOOK_SECRET,
    xpubs:
      e.WALLET_XPUB_BITCOIN && e.WALLET_XPUB_EVM && e.WALLET_XPUB_TRON
        ? { bitcoin: e.WALLET_XPUB_BITCOIN, evm: e.WALLET_XPUB_EVM, tron: e.WALLET_XPUB_TRON }
        : undefined,
    isWhitelistMode: e.WITHDRAW_WHITELIST_MODE,
    largeWithdrawalUsd: e.LARGE_WITHDRAWAL_USD,
  };
}

/**
 * The EVM chain watcher (docs/chain.md). Per-coin maps are keyed by coin code; `confirmations` in
 * blocks, `depositMinimums` decimal amounts of the coin.
 */
export interface EvmConfig {
  rpcUrl: string;
  pollIntervalMs: number;
  blocksPerPoll: number;
  confirmations: Record<string, number>;
  tokens: Record<string, string>;
  depositMinimums: Record<string, string>;
  startBlock: number | undefined;
  /** Withdrawals sent from the hot wallet (docs/chain.md "Withdrawals"). */
  withdrawals: {
    /** CHAIN_VAULT_KEY; undefined: generated into DATA_DIR (memory for a memory database). */
    vaultKey: string | undefined;
    /** EVM_MAX_FEE_GWEI as a decimal string of gwei. */
    maxFeeGwei: string;
    replaceAfterMs: number;
    /** EVM_EXPLORER_TX_URL. */
    explorerTxUrl: string;
    /** Decimal amounts per coin code (EVM_HOT_WALLET_MIN, EVM_HOT_WALLET_MAX). */
    hotWalletMin: Record<string, string>;
    hotWalletMax: Record<string, string>;
  };
}

/** The chain watcher's settings from EVM_*: null without EVM_RPC_URL (EVM deposits then arrive by the custody webhook). */
export function evmConfig(e: WalletEnv): EvmConfig | null {
  return e.EVM_RPC_URL === undefined
    ? null
    : {
        rpcUrl: e.EVM_RPC_URL,
        pollIntervalMs: e.EVM_POLL_INTERVAL_MS,
        blocksPerPoll: e.EVM_BLOCKS_PER_POLL,
        confirmations: Object.fromEntries(
          Object.entries(e.EVM_CONFIRMATIONS ?? {}).map(([code, value]) => [code, Number(value)]),
        ),
        tokens: e.EVM_TOKENS ?? {
          USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
          USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        },
        depositMinimums: { ETH: '0.001', USDT: '1', USDC: '1', ...e.EVM_DEPOSIT_MINIMUMS },
        startBlock: e.EVM_START_BLOCK,
        withdrawals: {
          vaultKey: e.CHAIN_VAULT_KEY,
          maxFeeGwei: e.EVM_MAX_FEE_GWEI,
          replaceAfterMs: e.CHAIN_REPLACE_AFTER_MS,
          explorerTxUrl: e.EVM_EXPLORER_TX_URL,
          hotWalletMin: e.EVM_HOT_WALLET_MIN ?? {},
          hotWalletMax: e.EVM_HOT_WALLET_MAX ?? {},
        },
      };
}
