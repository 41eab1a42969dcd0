import { toDecimalString } from '@meridian/contracts/money';
import type {
  OpsWithdrawalLimit,
  ScreeningAlert,
  ScreeningAlertStatus,
  WithdrawLimitsContent,
} from '@meridian/contracts/wallet';
import type { Tx } from '../../platform/db/client.ts';
import { type LevelLimitsCents, listLimits, setLimits, toLimitsContent } from './wallet.limits.ts';
import { decideAlert, listAlerts, toScreeningAlert } from './wallet.screening.ts';
import { asAsset, type DepositRow, limitUsageOf, type WalletContext } from './wallet.internal.ts';
import { creditDepositInTx } from './wallet.deposits.ts';

/** Withdrawal limits per identity level and the screening alerts' decisions. */
export function createComplianceService(ctx: WalletContext) {
  /** `GET wallet/withdraw/limits`: the caller's level, and limit, used and left of each window (USD). */
  async function withdrawLimits(userId: string): Promise<WithdrawLimitsContent> {
    return toLimitsContent(await limitUsageOf(ctx, ctx.db, userId));
  }

  /** Operators: every level's limits. */
  async function listWithdrawalLimits(): Promise<OpsWithdrawalLimit[]> {
    return listLimits(ctx.db);
  }

  /** Operators (admin): set one level's limits (USD cents); audited in `withdrawal_limit_changes`. */
  async function setWithdrawalLimit(
    operatorEmail: string,
    level: number,
    limits: LevelLimitsCents,
  ): Promise<OpsWithdrawalLimit> {
    return setLimits(ctx.db, operatorEmail, level, limits, ctx.now());
  }

  /** Operators: screening alerts, oldest first, optionally of one status. */
  async function listScreeningAlerts(query: {
    pageID: number;
    pageSize: number;
    status?: ScreeningAlertStatus | undefined;
  }) {
    return listAlerts(ctx.db, query);
  }

  /**
   * Operators (compliance, admin): release an open alert — the hit was a false positive. A deposit
   * already FROZEN is credited in the same transaction (SUSPENSE → the user's available balance,
   * once: the deposit moves FROZEN → CREDITED with one conditional UPDATE); a deposit still waiting
   * for confirmations is credited when they arrive. The user is told of the credit.
   * @throws DomainError NOT_FOUND; SCREENING_ALERT_STATE_CHANGED (151) when already decided.
   */
  async function releaseScreeningAlert(
    operatorEmail: string,
    id: number,
    note: string | null,
  ): Promise<ScreeningAlert> {
    let credited: DepositRow | undefined;
    const alert = await ctx.db.transaction(async (tx) => {
      const decided = await decideAlert(tx, id, 'released', operatorEmail, note, ctx.now());
      if (decided.kind === 'deposit' && decided.referenceId !== null)
        credited = await releaseFrozenDepositInTx(tx, Number(decided.referenceId));
      return decided;
    });
    if (credited) {
      const asset = asAsset(credited.coinCode);
      await ctx.options.notifier
        ?.depositCredited(credited.userId, asset, toDecimalString(credited.amountMinor, asset))
        .catch((error: unknown) => ctx.options.log.warn({ err: error }, 'deposit notification failed'));
    }
    return toScreeningAlert(alert);
  }

  /**
   * Operators (compliance, admin): confirm an open alert — the hit stands; a deposit stays frozen in
   * SUSPENSE (or is frozen when its confirmations arrive). `note` says why.
   * @throws DomainError NOT_FOUND; SCREENING_ALERT_STATE_CHANGED (151) when already decided.
   */
  async function confirmScreeningAlert(operatorEmail: string, id: number, note: string): Promise<ScreeningAlert> {
    const alert = await ctx.db.transaction((tx) => decideAlert(tx, id, 'confirmed', operatorEmail, note, ctx.now()));
    return toScreeningAlert(alert);
  }

  /** FROZEN → CREDITED and SUSPENSE → user, once; undefined when the deposit is not frozen. */
  function releaseFrozenDepositInTx(tx: Tx, depositId: number): Promise<DepositRow | undefined> {
    return creditDepositInTx(ctx, tx, depositId, 'FROZEN');
  }

  return {
    withdrawLimits,
    listWithdrawalLimits,
    setWithdrawalLimit,
    listScreeningAlerts,
    releaseScreeningAlert,
    confirmScreeningAlert,
  };
}
