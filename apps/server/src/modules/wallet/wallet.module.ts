import type { Clock } from '../../platform/clock/clock.ts';
import { randomBytes } from 'node:crypto';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import type { AssetCode } from '@meridian/contracts/money';
import type { WithdrawStatus } from '@meridian/contracts/wallet';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { MarketPrices } from '../market/market.service.ts';
import { moneyParam, NOTIFY_BATCH_MAX, type NoticeService, type NotifyInput } from '../notices/notices.service.ts';
import { createLocalScreeningProvider } from '../../platform/screening/address-screening.ts';
import { readOrCreateSecret, readOrCreateSecretFile } from '../../platform/security/secrets.ts';
import { type Chain, generateDemoXpubs, parseAccountXpub } from './wallet.addresses.ts';
import { seedWithdrawalLimits } from './wallet.limits.ts';
import { walletRoutes } from './wallet.routes.ts';
import {
  type LoanHoldings,
  type CardHoldings,
  type TrustHoldings,
  type UsdPriceSource,
  type WalletIdentity,
  type WalletNotifier,
  createWalletService,
  type WalletService,
} from './wallet.service.ts';

/** Withdraw status words as the messages show them. */
const WITHDRAW_STATUS_TEXT: Record<WithdrawStatus, { 'en-US': string; 'zh-HK': string }> = {
  0: { 'en-US': 'waiting', 'zh-HK': '等待中' },
  1: { 'en-US': 'processing', 'zh-HK': '處理中' },
  2: { 'en-US': 'successful', 'zh-HK': '已成功' },
  3: { 'en-US': 'failed', 'zh-HK': '已失敗' },
  4: { 'en-US': 'cancelled', 'zh-HK': '已取消' },
};

/** The "Deposit credited" message of `amount` `coinCode` to `userId` (rendered in the reader's language). */
function depositCreditedMessage(userId: string, coinCode: AssetCode, amount: string): NotifyInput {
  return {
    userId,
    category: 'DEPOSIT',
    title: { 'en-US': 'Deposit credited', 'zh-HK': '充值已到帳' },
    body: {
      'en-US': '{amount} {coin} has been credited to your wallet.',
      'zh-HK': '{amount} {coin} 已存入你的錢包。',
    },
    params: { amount: moneyParam(amount, coinCode, { unit: 'none' }), coin: coinCode },
    link: '/my/order/wallet/deposit',
  };
}

/**
 * The wallet's messages to users, in both languages (an email on every address-book addition), through
 * the notices module's `notify`, and `notifyMany` (at most `NOTIFY_BATCH_MAX` a call) for a block's credits.
 */
function walletNotifier(notices: Pick<NoticeService, 'notify' | 'notifyMany'>): WalletNotifier {
  const notify = (input: NotifyInput) => notices.notify(input);
  return {
    depositCredited: async (userId, coinCode, amount) => {
      await notify(depositCreditedMessage(userId, coinCode, amount));
    },
    depositsCredited: async (credits) => {
      // Every part is tried: one failed statement does not drop the other parts' messages.
      const errors: unknown[] = [];
      for (let index = 0; index < credits.length; index += NOTIFY_BATCH_MAX) {
        const part = credits.slice(index, index + NOTIFY_BATCH_MAX);
        await notices
          .notifyMany(part.map((credit) => depositCreditedMessage(credit.userId, credit.coinCode, credit.amount)))
          .catch((error: unknown) => errors.push(error));
      }
      if (errors.length > 0) throw new AggregateError(errors, 'deposit credit messages failed');
    },
    withdrawalStatusChanged: async (userId, coinCode, amount, status) => {
      const state = WITHDRAW_STATUS_TEXT[status];
      await notify({
        userId,
        category: 'WITHDRAW',
        title: { 'en-US': `Withdrawal ${state['en-US']}`, 'zh-HK': `提幣${state['zh-HK']}` },
        body: {
          'en-US': `Your withdrawal of {amount} {coin} is now ${state['en-US']}.`,
          'zh-HK': `你提幣 {amount} {coin} 的狀態已更新為「${state['zh-HK']}」。`,
        },
        params: { amount: moneyParam(amount, coinCode, { unit: 'none' }), coin: coinCode },
        link: '/my/order/wallet/withdraw',
      });
    },
    addressAdded: async (userId, label, network, address) => {
      await notify({
        userId,
        category: 'SECURITY',
        title: { 'en-US': 'Withdrawal address added', 'zh-HK': '已新增提幣地址' },
        body: {
          'en-US':
            '"{label}" ({network}) {address} was added to your address book. If this was not you, change your password and contact support.',
          'zh-HK': '「{label}」（{network}）{address} 已加入你的地址簿。如非本人操作，請立即更改密碼並聯絡客服。',
        },
        params: { label, network, address },
        link: '/my/address',
      });
    },
  };
}

/** What `buildApp` hands the wallet. */
export interface WalletModuleDeps {
  config: Config;
  database: Database;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  identity: WalletIdentity;
  /** The market module's prices (`market.service.prices`): balances are valued in USD with them. */
  prices: MarketPrices;
  /** Messages to users (in-app; SECURITY and WITHDRAW also go by email). */
  notices: NoticeService;
  /** The trust module (`trust.service`): what the user's trusts hold, for the account overview. */
  trustHoldings?: TrustHoldings;
  /** The loans module (`loans.service`): collateral and debt of current loans, for the account overview. */
  loanHoldings?: LoanHoldings;
  /** The cards module (`cards.service`): what the user's cards hold, for the account overview's CardAccount. */
  cardHoldings?: CardHoldings;
  log: { warn(detail: object, message: string): void; info(detail: object, message: string): void };
}

/**
 * Demo account xpubs for the embedded default, kept in `DATA_DIR/secrets/wallet-xpubs.json` so
 * that addresses survive restarts (public keys only: the seed that made them is discarded).
 */
function readOrCreateDemoXpubs(dataDir: string): Record<Chain, string> {
  const text = readOrCreateSecretFile(
    dataDir,
    'wallet-xpubs.json',
    () => `${JSON.stringify(generateDemoXpubs(), null, 2)}\n`,
  );
  return JSON.parse(text) as Record<Chain, string>;
}

/**
 * Wire the wallet: xpubs and the webhook secret from the configuration, or (outside production)
 * generated into DATA_DIR — in memory for a memory database, so tests leave no files behind.
 * No jobs: deposits and withdrawal results arrive by the custody webhook. At start, the default
 * withdrawal limits (docs/kyc.md "Withdrawal limits") are inserted where a level has none (in every mode: production
 * too).
 */
export function createWalletModule(deps: WalletModuleDeps): AppModule<WalletService> {
  const { config } = deps;
  const isEphemeral = config.database.kind === 'memory';
  const xpubText = config.wallet.xpubs ?? (isEphemeral ? generateDemoXpubs() : readOrCreateDemoXpubs(config.dataDir));
  const custodyWebhookSecret =
    config.wallet.custodyWebhookSecret ??
    (isEphemeral
      ? randomBytes(48).toString('base64url')
      : readOrCreateSecret(config.dataDir, 'custody-webhook-secret'));
  const prices: UsdPriceSource = {
    usdPerCoin: async (coinCode) =>
      (MARKET_COIN_CODES as readonly string[]).includes(coinCode)
        ? (await deps.prices.usdPrice(coinCode as MarketCoinCode)).priceUsd.toFixed()
        : null,
  };
  const service = createWalletService(deps.database.db, {
    reads: deps.database.reads,
    xpubs: {
      bitcoin: parseAccountXpub(xpubText.bitcoin),
      evm: parseAccountXpub(xpubText.evm),
      tron: parseAccountXpub(xpubText.tron),
    },
    identity: deps.identity,
    prices,
    notifier: walletNotifier(deps.notices),
    isWhitelistMode: config.wallet.isWhitelistMode,
    largeWithdrawalUsd: config.wallet.largeWithdrawalUsd,
    log: deps.log,
    screening: createLocalScreeningProvider(),
    clock: () => deps.clock.now(),
    ...(deps.trustHoldings && { trustHoldings: deps.trustHoldings }),
    ...(deps.loanHoldings && { loanHoldings: deps.loanHoldings }),
    ...(deps.cardHoldings && { cardHoldings: deps.cardHoldings }),
  });
  return {
    service,
    routes: walletRoutes({
      wallet: service,
      custodyWebhookSecret,
      isAddressLookupEnabled: !config.isProduction,
      clock: () => deps.clock.now(),
    }),
    jobs: [],
    start: () => seedWithdrawalLimits(deps.database.db),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The wallet service (other modules in process, CLIs and tests). */
    wallet: WalletService;
  }
}
