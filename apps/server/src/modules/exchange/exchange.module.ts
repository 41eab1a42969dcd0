import type { SwapRecord } from '@meridian/contracts/exchange';
import type { FastifyBaseLogger } from 'fastify';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { MarketPrices } from '../market/market.service.ts';
import { moneyParam, type NoticeService, type NotifyInput } from '../notices/notices.service.ts';
import { exchangeRoutes } from './exchange.routes.ts';
import { createExchangeService, type ExchangeAccounts, type ExchangeService } from './exchange.service.ts';

/** What `buildApp` hands the exchange module. */
export interface ExchangeModuleDeps {
  database: Database;
  /** The market module's prices (`market.service.prices`): every quote is priced from them. */
  prices: MarketPrices;
  clock: Clock;
  /** The identity service: a frozen account executes no swap. */
  identity: ExchangeAccounts;
  /** A "swap done" message is written in the transaction of every swap. */
  notices: NoticeService;
  log: FastifyBaseLogger;
}

/** The "swap done" message for a swap or flash exchange that executed; amounts as the screens show them. */
export function swapDoneNotice(
  userId: string,
  swap: Pick<SwapRecord, 'from' | 'to' | 'fromAmount' | 'toAmount'>,
): NotifyInput {
  return {
    userId,
    category: 'EXCHANGE',
    title: { 'en-US': 'Exchange completed', 'zh-HK': '兌換已完成' },
    body: {
      'en-US': 'You exchanged {fromAmount} {from} for {toAmount} {to}.',
      'zh-HK': '你已將 {fromAmount} {from} 兌換為 {toAmount} {to}。',
    },
    params: {
      fromAmount: moneyParam(swap.fromAmount, swap.from, { unit: 'none' }),
      from: swap.from,
      toAmount: moneyParam(swap.toAmount, swap.to, { unit: 'none' }),
      to: swap.to,
    },
    link: '/my/order/swap',
  };
}

/**
 * Wire the exchange: firm quotes and swaps through the ledger, priced by the market module, each
 * swap's message written with it; its job prunes quotes never executed.
 */
export function createExchangeModule(deps: ExchangeModuleDeps): AppModule<ExchangeService> {
  const { notices, log } = deps;
  const service = createExchangeService({
    db: deps.database.db,
    prices: deps.prices,
    clock: deps.clock,
    accounts: deps.identity,
    writeSwapMessages: async (tx, swaps) =>
      void (await notices.notifyMany(
        swaps.map(({ userId, swap }) => swapDoneNotice(userId, swap)),
        tx,
      )),
    onBatchRetried: (error, size) =>
      log.warn({ err: error, size }, 'swap batch failed as a whole; its swaps were retried one by one'),
  });
  return { service, routes: exchangeRoutes(service), jobs: service.jobs() };
}
