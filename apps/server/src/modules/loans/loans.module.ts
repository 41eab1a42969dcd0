import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import type { FundsService } from '../funds/funds.service.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import type { EnginePrice } from './loans.engine.ts';
import { loansRoutes } from './loans.routes.ts';
import { createLoansService, type LoansService } from './loans.service.ts';
import type { SettingsWorkflow } from '../admin/admin.types.ts';
import { createLoanSettings, registerLoanSettingKinds } from './loans.settings.ts';

/** What `buildApp` hands the loans module. */
export interface LoansModuleDeps {
  database: Database;
  /** The back office's four-eyes workflow (admin module): the loans register their risky numbers. */
  settingsWorkflow: SettingsWorkflow;
  /** The markets module's prices: BTC's median (PRICE_UNAVAILABLE when the pipeline refuses). */
  prices: MarketService['prices'];
  identity: Pick<IdentityService, 'assertNotFrozen'>;
  notices: Pick<NoticeService, 'notifyMany'>;
  clock: Clock;
  /** The current fund, for REPAY protection rules funded from it (`FundsService.redeemForLoanProtection`). */
  currentFund?: Pick<FundsService, 'redeemForLoanProtection'>;
  /** Serve `POST /api/dev/loan/price` (a settable BTC price for e2e runs); never in production. */
  isDevPriceEnabled?: boolean;
  log: {
    info(detail: object, message: string): void;
    warn(detail: object, message: string): void;
    error(detail: object, message: string): void;
  };
}

/** How often the engine takes a price event (the scheduler ticks every 5 s). */
export const LOAN_ENGINE_PERIOD_MS = 10_000;

/**
 * Wire the loans: routes `loan/*`, the seeded rules (start), and two leader jobs — the
 * engine (`loans.engine`: protection rules, liquidation, margin-call alerts on each new BTC price)
 * and the overdue run (`loans.overdue`, hourly).
 */
export function createLoansModule(deps: LoansModuleDeps): AppModule<LoansService> {
  let devPrice: string | null = null;
  registerLoanSettingKinds(deps.settingsWorkflow, () => deps.clock.now());
  const service = createLoansService({
    db: deps.database.db,
    btcPrice: async () => {
      if (devPrice !== null)
        return { priceUsd: new PriceDecimal(devPrice), observedAt: deps.clock.now(), sources: ['dev-price'] };
      const price = await deps.prices.usdPrice('BTC');
      return { priceUsd: price.priceUsd, observedAt: price.observedAt, sources: price.sources };
    },
    assertNotFrozen: (userId, db) => deps.identity.assertNotFrozen(userId, db),
    notifyMany: (inputs, tx) => deps.notices.notifyMany(inputs, tx),
    ...(deps.currentFund && {
      redeemCurrentFund: (tx, userId, coin, coinMinor, reference) =>
        deps.currentFund!.redeemForLoanProtection(tx, userId, coin, coinMinor, reference),
    }),
    now: () => deps.clock.now(),
    log: deps.log,
  });
  return {
    service,
    routes: loansRoutes({
      loans: service,
      settings: createLoanSettings(deps.database.db, () => deps.clock.now(), deps.settingsWorkflow),
      ...(deps.isDevPriceEnabled ? { devPrice: { set: (price: string | null) => void (devPrice = price) } } : {}),
    }),
    jobs: [
      {
        name: 'loans.engine',
        periodMs: LOAN_ENGINE_PERIOD_MS,
        prepare: () => service.engine.preparePrice(),
        run: async ({ tx, now }, prepared?: EnginePrice) =>
          void (await service.runPriceEvent(tx, prepared ?? { error: 'no price prepared' }, now)),
      },
      {
        name: 'loans.overdue',
        periodMs: 3_600_000,
        prepare: () => service.engine.preparePrice(),
        run: async ({ tx, now }, prepared?: EnginePrice) =>
          void (await service.runOverdue(tx, prepared ?? { error: 'no price prepared' }, now)),
      },
    ],
    start: () => service.seed(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The loans service (CLIs and tests). */
    loans: LoansService;
  }
}
