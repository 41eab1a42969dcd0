import type { Db } from '../../platform/db/client.ts';
import { createAddressBookService } from './wallet.address-book.ts';
import { createBalancesService } from './wallet.balances.ts';
import { createComplianceService } from './wallet.compliance.ts';
import { createCustodyService } from './wallet.custody.ts';
import { createDashboardService } from './wallet.dashboard.ts';
import { createDepositsService } from './wallet.deposits.ts';
import type { WalletContext } from './wallet.internal.ts';
import { createNetworksService } from './wallet.networks.ts';
import { createOperatorsService } from './wallet.operators.ts';
import { createRecordsService } from './wallet.records.ts';
import type { WalletServiceOptions } from './wallet.types.ts';
import { createWithdrawalsService } from './wallet.withdrawals.ts';

export type {
  CardHoldings,
  FactorCheck,
  LoanHoldings,
  NetworkSettings,
  NetworkSettingsPatch,
  ObservedDeposit,
  PendingConfirmation,
  OperatorQueueSize,
  OpsDepositRow,
  OpsWithdrawal,
  RecordedDeposit,
  TrustHoldings,
  UsdPriceSource,
  WalletActivityItem,
  WalletFlowTotal,
  WalletIdentity,
  WalletNotifier,
  WalletServiceOptions,
  WithdrawalOptions,
} from './wallet.types.ts';

/**
 * The wallet: coins and networks, watch-only deposit addresses, custody-reported
 * deposits credited exactly once, withdrawals with their state machine, the address book, balances
 * and history. Every balance change goes through `postEntry` of the ledger module, in the same
 * transaction as the row that records why.
 *
 * One object made of the module's parts over one shared context (`WalletContext`):
 * `wallet.networks.ts` (coins, networks, their settings), `wallet.deposits.ts` (deposit addresses,
 * the one credit path), `wallet.custody.ts` (the custody webhook), `wallet.withdrawals.ts` (the
 * user's withdrawals), `wallet.operators.ts` (the operators' withdrawal decisions and lists),
 * `wallet.compliance.ts` (withdrawal limits, screening alerts), `wallet.records.ts` (history),
 * `wallet.balances.ts` (balances and the account overview), `wallet.address-book.ts` and
 * `wallet.dashboard.ts` (the back office's figures). Other modules, CLIs and tests import this
 * file (and `wallet.types.ts`) only.
 */
export function createWalletService(db: Db, options: WalletServiceOptions) {
  const ctx: WalletContext = { db, reads: options.reads ?? db, now: options.clock, options };
  const networks = createNetworksService(ctx);
  const deposits = createDepositsService(ctx);
  return {
    ...networks,
    ...deposits,
    ...createCustodyService(ctx, deposits),
    ...createWithdrawalsService(ctx),
    ...createOperatorsService(ctx),
    ...createComplianceService(ctx),
    ...createRecordsService(ctx),
    ...createBalancesService(ctx, networks),
    ...createAddressBookService(ctx),
    ...createDashboardService(ctx),
  };
}

/** The wallet service's type (the object `createWalletService` returns). */
export type WalletService = ReturnType<typeof createWalletService>;
