import type { FundReceivingAccount } from '@meridian/contracts/funds';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import type { Db } from '../../platform/db/client.ts';
import { createDatesService } from './funds.dates.ts';
import { type FundsLogger } from './funds.internal.ts';
import { createHistoryService } from './funds.history.ts';
import { createJobsService } from './funds.jobs.ts';
import { createOrdersService } from './funds.orders.ts';
import { createProductsService } from './funds.products.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { BankAccountLookup, FundsIdentity, FundsNotifier, StablecoinPar } from './funds.types.ts';
import { createWiresService } from './funds.wires.ts';

export type { ProductInput } from './funds.products.ts';
export type { AccrualDayResult, BatchOptions, PayoutResult } from './funds.jobs.ts';
export type { FundCalendarDates, FundMaturityDate } from './funds.dates.ts';
export { payoutDaysBetween } from './funds.dates.ts';

/** What the funds service needs (see `FundsContext`). */
export interface FundsServiceDeps {
  db: Db;
  clock: Clock;
  calendar: BusinessCalendar;
  bankAccounts: BankAccountLookup;
  par: StablecoinPar;
  identity: FundsIdentity;
  notifier: FundsNotifier;
  receivingAccount: FundReceivingAccount;
  log: FundsLogger;
}

/**
 * The funds: products and their tiers, subscriptions and redemptions (stablecoins 1:1,
 * USD wires, fixed orders from current shares), the asset view, history and earnings, the daily
 * accrual, monthly payout and maturities, and the operators' wires. One object made of the
 * module's parts (`funds.products.ts`, `funds.orders.ts`, `funds.history.ts`, `funds.jobs.ts`,
 * `funds.wires.ts`) over one shared context; other modules, CLIs and tests import this file only.
 * Every balance change is one journal entry of `modules/ledger` in the transaction of the row that
 * explains it.
 */
export function createFundsService(deps: FundsServiceDeps) {
  const ctx = { ...deps };
  return {
    ...createProductsService(ctx),
    ...createOrdersService(ctx),
    ...createHistoryService(ctx),
    ...createJobsService(ctx),
    ...createWiresService(ctx),
    ...createDatesService(ctx),
  };
}

/** The funds service's type. */
export type FundsService = ReturnType<typeof createFundsService>;
