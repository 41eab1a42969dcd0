import type { FundReceivingAccount } from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import type { AppModule } from '../../platform/app-module.ts';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import type { Database } from '../../platform/db/client.ts';
import type { MarketPrices } from '../market/market.service.ts';
import { moneyParam, type NoticeService } from '../notices/notices.service.ts';
import type { FundsLogger } from './funds.internal.ts';
import { fundOrderFacts, fundOrderMessage } from './funds.messages.ts';
import { fundsRoutes } from './funds.routes.ts';
import { FUND_ACCRUAL_CONNECTIONS_POSTGRES, FUND_PAYOUT_CONNECTIONS_POSTGRES } from './funds.jobs.ts';
import { createFundsService, type FundsService } from './funds.service.ts';
import { createFundSettings, registerFundSettingKinds } from './funds.settings.ts';
import type { SettingsWorkflow } from '../admin/admin.types.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { BankAccountLookup, FundsIdentity, FundsNotifier } from './funds.types.ts';

/**
 * Meridian's receiving account for USD subscriptions by wire, shown with each order's reference.
 * A demo account outside production; set the real one through `FundsModuleDeps.receivingAccount`.
 */
export const DEFAULT_RECEIVING_ACCOUNT: FundReceivingAccount = {
  accountName: 'Meridian Custody Limited',
  bankName: 'Demo Bank (Hong Kong) Limited',
  accountNumber: '012-345678-001',
  swift: 'DEMOHKHHXXX',
  bankAddress: '1 Queen’s Road Central, Hong Kong',
  currency: 'USD',
};

/** What `buildApp` hands the funds module. */
export interface FundsModuleDeps {
  database: Database;
  clock: Clock;
  /** The market's prices: a stablecoin is taken at 1:1 while priced at its peg. */
  prices: MarketPrices;
  identity: FundsIdentity;
  notices: NoticeService;
  /** The payments module's bank accounts (`paymentsService.findBankAccount`). */
  bankAccounts: BankAccountLookup;
  receivingAccount?: FundReceivingAccount;
  log: FundsLogger;
  /** The back office's one four-eyes workflow: the module registers `funds.rateTiers` with it. */
  settingsWorkflow: SettingsWorkflow;
}

/** The funds' messages to users, in both languages (category FUND). */
function fundsNotifier(notices: NoticeService): FundsNotifier {
  return {
    orderPlaced: async (order, product, db) => {
      await notices.notify(fundOrderMessage(fundOrderFacts(order, product)), db);
    },
    fixedMatured: async (userId, productName: Record<Locale, string>, principal, interest, db) => {
      await notices.notify(
        {
          userId,
          category: 'FUND',
          key: 'fund.fixed.matured',
          title: { 'en-US': 'Fixed fund matured', 'zh-HK': '定期基金已到期' },
          body: {
            'en-US': `${productName['en-US']} matured: {principal} principal and {interest} interest moved into your current fund.`,
            'zh-HK': `${productName['zh-HK']}已到期：本金 {principal} 及利息 {interest} 已轉入你的活期基金。`,
          },
          params: { principal: moneyParam(principal, 'USD'), interest: moneyParam(interest, 'USD') },
          link: '/my/account/fund',
        },
        db,
      );
    },
    wireCredited: async (userId, amount, db) => {
      await notices.notify(
        {
          userId,
          category: 'FUND',
          key: 'fund.current.wire_credited',
          title: { 'en-US': 'Wire received', 'zh-HK': '已收到電匯' },
          body: {
            'en-US': 'Your wire of {amount} arrived: the shares are in your current fund.',
            'zh-HK': '你的 {amount} 電匯已到帳，份額已存入你的活期基金。',
          },
          params: { amount: moneyParam(amount, 'USD') },
          link: '/my/order/fund',
        },
        db,
      );
    },
    wireDecided: async (userId, amount, isSent, db) => {
      await notices.notify(
        {
          userId,
          category: 'FUND',
          title: isSent
            ? { 'en-US': 'Redemption wire sent', 'zh-HK': '贖回電匯已發出' }
            : { 'en-US': 'Redemption Failed', 'zh-HK': '贖回失敗' },
          body: isSent
            ? {
                'en-US':
                  'We sent your wire of {amount}. Domestic wires take 30 minutes to 2 hours, international 1-5 days.',
                'zh-HK': '我們已發出你的 {amount} 電匯。本地電匯約需 30 分鐘至 2 小時，國際電匯約需 1 至 5 日。',
              }
            : {
                'en-US': 'Your wire of {amount} could not be sent; the shares are back in your current fund.',
                'zh-HK': '你的 {amount} 電匯未能發出，份額已退回你的活期基金。',
              },
          key: isSent ? 'fund.current.redeem_wire_sent' : 'fund.current.redeem_wire_failed',
          params: { amount: moneyParam(amount, 'USD') },
          link: '/my/order/fund',
        },
        db,
      );
    },
  };
}

/**
 * Wire the funds: the service over the Hong Kong calendar, the stablecoin band of the
 * price pipeline, the notices and the payments module's bank accounts; the `fund/v2/*` and
 * `admin/wires*` routes; the rate tiers' four-eyes kind (`funds.rateTiers`, `funds.settings.ts`); at start the products are seeded (idempotent); one job, `funds.daily`,
 * run by the scheduler's leader every hour — the first run after 00:00 Hong Kong time accrues the
 * day before (and any missed days), matures the orders due and, on the month's first business day,
 * pays the interest; the other runs of the day find nothing to do. On PostgreSQL the accrual's
 * batches run on `FUND_ACCRUAL_CONNECTIONS_POSTGRES` pooled connections while the job's transaction
 * holds its lock, each batch committed on its own (the day is recorded after its last batch; a run
 * that dies leaves its committed batches and the next run accrues the rest, each (holding, day)
 * once); maturities follow in the job's transaction. The payout is its own job, `funds.payout`
 * (hourly, after `funds.daily` in the same tick, so it sees the day's accrual committed): its
 * transaction holds the job's lock while the batches run on `FUND_PAYOUT_CONNECTIONS_POSTGRES`
 * pooled connections, each batch committed on its own (a run that dies leaves its paid batches;
 * the next run pays the rest). PGlite has one connection: there the
 * accrual and the payout run in `funds.daily`'s transaction, one batch after another.
 */
export function createFundsModule(deps: FundsModuleDeps): AppModule<FundsService> {
  const service = createFundsService({
    db: deps.database.db,
    clock: deps.clock,
    calendar: getHongKongCalendar(),
    bankAccounts: deps.bankAccounts,
    par: { isAtPar: async (coin) => (await deps.prices.usdPrice(coin)).basis === 'peg' },
    identity: deps.identity,
    notifier: fundsNotifier(deps.notices),
    receivingAccount: deps.receivingAccount ?? DEFAULT_RECEIVING_ACCOUNT,
    log: deps.log,
  });
  registerFundSettingKinds(deps.settingsWorkflow);
  const fundSettings = createFundSettings(deps.settingsWorkflow);
  const isPostgres = deps.database.kind === 'postgres';
  return {
    service,
    routes: fundsRoutes({ funds: service, fundSettings }),
    jobs: [
      {
        name: 'funds.daily',
        periodMs: 3_600_000,
        run: async ({ tx }) =>
          service.runDaily(
            tx,
            isPostgres
              ? {
                  isPayoutSeparate: true,
                  accrualPool: { db: deps.database.db, connections: FUND_ACCRUAL_CONNECTIONS_POSTGRES },
                }
              : {},
          ),
      },
      ...(isPostgres
        ? [
            {
              name: 'funds.payout',
              periodMs: 3_600_000,
              run: async () => {
                await service.runPayout(deps.database.db, { connections: FUND_PAYOUT_CONNECTIONS_POSTGRES });
              },
            },
          ]
        : []),
    ],
    start: () => service.seedProducts(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The funds service (other modules in process, CLIs and tests). */
    funds: FundsService;
  }
}
