import { LOAN_STATUS } from '@meridian/contracts/loans';
import type Decimal from 'decimal.js';
import { and, asc, desc, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import {
  ENGINE_BATCH_ROWS,
  ENGINE_BATCHES_MAX,
  type LoanPrice,
  type LoanRow,
  type LoansDeps,
  ltvText,
  type SettingsRow,
} from './loans.internal.ts';
import { ltvWarningMessage, marginCallMessage } from './loans.messages.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import { moneyParam } from '../notices/notices.service.ts';
import { bpsToPct, debtOf, LoanDecimal, ltvOf, priceAtLtv, priceText, hongKongMinuteText } from './loans.rules.ts';
import { loans } from './loans.tables.ts';

/** Margin-call alerts and their re-arming, run on each price event (`runAlerts`). */
export function createAlerts(deps: LoansDeps) {
  /** The columns the alert pass reads (not whole rows: a page holds 250 of them). */
  const alertColumns = {
    id: loans.id,
    userId: loans.userId,
    loanCoin: loans.loanCoin,
    collateralMinor: loans.collateralMinor,
    outstandingPrincipalMinor: loans.outstandingPrincipalMinor,
    interestMinor: loans.interestMinor,
    interestPaidMinor: loans.interestPaidMinor,
    overdueInterestMinor: loans.overdueInterestMinor,
    overdueInterestPaidMinor: loans.overdueInterestPaidMinor,
    liquidationPrice: loans.liquidationPrice,
    alertsFired: loans.alertsFired,
    marginCallAt: loans.marginCallAt,
  };

  /** A loan's new alert mask, and whether its margin call is sent now (SET), cleared (CLEAR) or kept. */
  interface MaskChange {
    id: number;
    mask: number;
    marginCall: 'SET' | 'CLEAR' | 'KEEP';
  }

  /** Store new `alerts_fired` masks and margin-call instants for a page of loans in one UPDATE over `unnest`. */
  async function storeMasks(tx: Tx, changed: MaskChange[], now: Date): Promise<void> {
    if (changed.length === 0) return;
    await tx.execute(sql`
      UPDATE ${loans} AS l SET alerts_fired = u.mask,
        margin_call_at = CASE u.margin_call WHEN 'SET' THEN ${now.toISOString()}::timestamptz WHEN 'CLEAR' THEN NULL ELSE l.margin_call_at END
      FROM unnest(${pgArrayLiteral(changed.map((row) => row.id))}::bigint[], ${pgArrayLiteral(changed.map((row) => row.mask))}::integer[],
        ${pgArrayLiteral(changed.map((row) => row.marginCall))}::text[]) AS u(id, mask, margin_call)
      WHERE l.id = u.id`);
  }

  /**
   * Re-arm alerts: loans with a fired level whose LTV at `price` fell `alertRearmBps` (2 points)
   * below it get the bit cleared; the margin call (and its deadline) clears 2 points below the
   * margin-call level (docs/decisions/0005-margin-call-before-liquidation.md). Walks
   * `loans_alerted_open_idx` by id in pages of `ENGINE_BATCH_ROWS`. Returns the loans changed.
   */
  async function rearmAlerts(tx: Tx, settings: SettingsRow, price: LoanPrice, now: Date): Promise<number> {
    const ratio = (bps: number) => new LoanDecimal(bps).div(10_000);
    const levels = settings.alertLevelsBps;
    const open = inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]);
    let rearmed = 0;
    const marginCallRearm = ratio(settings.marginCallLtvBps - settings.alertRearmBps);
    let afterId = 0;
    for (let page = 0; page < ENGINE_BATCHES_MAX; page += 1) {
      const fired = await tx
        .select(alertColumns)
        .from(loans)
        .where(and(open, ne(loans.alertsFired, 0), sql`${loans.id} > ${afterId}`))
        .orderBy(asc(loans.id))
        .limit(ENGINE_BATCH_ROWS);
      const changed: MaskChange[] = [];
      for (const loan of fired) {
        const ltv = ltvOf(debtOf(loan), loan.collateralMinor, price.priceUsd);
        let mask = loan.alertsFired;
        levels.forEach((level, index) => {
          const bit = 1 << index;
          if ((mask & bit) !== 0 && ltv.lt(ratio(level - settings.alertRearmBps))) mask &= ~bit;
        });
        const isCleared = loan.marginCallAt !== null && ltv.lt(marginCallRearm);
        if (mask !== loan.alertsFired || isCleared)
          changed.push({ id: loan.id, mask, marginCall: isCleared ? 'CLEAR' : 'KEEP' });
      }
      await storeMasks(tx, changed, now);
      rearmed += changed.length;
      const last = fired.at(-1);
      if (!last || fired.length < ENGINE_BATCH_ROWS) break;
      afterId = last.id;
    }
    return rearmed;
  }

  /** The message of one level a loan crossed (the margin call at or above its level, a warning below). */
  function alertMessage(
    loan: Pick<LoanRow, 'id' | 'userId' | 'loanCoin' | 'collateralMinor'>,
    level: number,
    at: { debt: bigint; liquidationPrice: Decimal | null; deadline: string },
    settings: SettingsRow,
    price: LoanPrice,
  ): Parameters<LoansDeps['notifyMany']>[0][number] {
    const { debt, liquidationPrice, deadline: loanDeadline } = at;
    const marginCallBps = settings.marginCallLtvBps;
    return {
      userId: loan.userId,
      category: 'LOAN',
      ...(level >= marginCallBps ? marginCallMessage : ltvWarningMessage),
      params: {
        orderId: String(loan.id),
        loanCoin: loan.loanCoin,
        ltv: ltvText(debt, loan.collateralMinor, price.priceUsd),
        level: bpsToPct(level),
        price: moneyParam(priceText(price.priceUsd), 'USD'),
        liquidationPrice: liquidationPrice
          ? moneyParam(priceText(liquidationPrice), 'USD', { rounding: MONEY_ROUNDING.liquidationPrice })
          : '-',
        liquidationLtv: bpsToPct(settings.liquidationLtvBps),
        hardLtv: bpsToPct(settings.hardLiquidationLtvBps),
        deadline: loanDeadline,
      },
      link: '/loan',
    };
  }

  /**
   * Margin-call alerts (docs/decisions/0005-margin-call-before-liquidation.md): EVERY level
   * (75/80/85 %) a price event finds newly crossed is announced, one message per level in ascending
   * order, before the same event's liquidations (the engine runs this pass first, in the same
   * transaction, so the messages are written and delivered before or together with a receipt).
   * The first message at or above the margin-call level is the margin call: `margin_call_at` is set
   * to `now` and the message names the cure deadline (now + cure window, Hong Kong time). A loan at
   * or over the margin-call LTV without a margin call (e.g. cured, then fallen back) gets one.
   * Each level fires once until the LTV falls `alertRearmBps` (2 points) below it; the margin call
   * (and its deadline) clears when the LTV falls 2 points below the margin-call level.
   * Candidates: liquidation price ≥ price × lowest level ÷ liquidation LTV (the same index), those
   * with a reached level not fired yet or a missing margin call (filtered in SQL), read in pages of
   * `ENGINE_BATCH_ROWS` (keyset on liquidation price, id; at most `ENGINE_BATCHES_MAX` pages); each
   * page's masks are one UPDATE and its messages one `notifyMany` call. Re-arming walks
   * `loans_alerted_open_idx` by id, in pages the same way.
   */
  async function runAlerts(
    tx: Tx,
    settings: SettingsRow,
    price: LoanPrice,
    now: Date,
  ): Promise<{ alerts: number; rearmed: number }> {
    const levels = settings.alertLevelsBps;
    const marginCallBps = settings.marginCallLtvBps;
    const lowest = Math.min(marginCallBps, ...levels);
    const thresholdAt = (bps: number) => price.priceUsd.mul(bps).div(settings.liquidationLtvBps).toFixed();
    const threshold = thresholdAt(lowest);
    const ratio = (bps: number) => new LoanDecimal(bps).div(10_000);
    const ascending = levels.map((level, index) => ({ level, index })).sort((a, b) => a.level - b.level);
    const open = inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]);
    // Only loans with a level reached (liquidation price ≥ price × level ÷ liquidation LTV; the stored
    // price is rounded up, so this keeps every loan the exact LTV check below accepts) whose bit is
    // not set yet, or over the margin-call level without a margin call: loans already alerted are not
    // read again on every price event. "Bit not set" is written `mask & bit <> bit`: the planner
    // guesses an equality on an expression to hold for 0.5 % of rows and then sorted the whole range
    // (a bitmap scan) instead of walking the index backwards; an inequality it guesses at 99.5 %.
    const unfired = sql.join(
      [
        ...levels.map(
          (level, index) =>
            sql`((${loans.alertsFired} & ${1 << index}::integer) <> ${1 << index}::integer AND ${loans.liquidationPrice} >= ${thresholdAt(level)}::numeric)`,
        ),
        sql`(${loans.marginCallAt} IS NULL AND ${loans.liquidationPrice} >= ${thresholdAt(marginCallBps)}::numeric)`,
      ],
      sql` OR `,
    );
    const deadline = hongKongMinuteText(new Date(now.getTime() + settings.cureWindowMinutes * 60_000));
    let alerts = 0;
    let after: { price: string; id: number } | null = null;
    for (let page = 0; page < ENGINE_BATCHES_MAX; page += 1) {
      const rows = await tx
        .select(alertColumns)
        .from(loans)
        .where(
          and(
            open,
            sql`${loans.liquidationPrice} >= ${threshold}::numeric`,
            sql`(${unfired})`,
            after
              ? sql`${loans.liquidationPrice} <= ${after.price}::numeric AND (${loans.liquidationPrice} < ${after.price}::numeric OR ${loans.id} < ${after.id})`
              : undefined,
          ),
        )
        .orderBy(desc(loans.liquidationPrice), desc(loans.id))
        .limit(ENGINE_BATCH_ROWS);
      const changed: MaskChange[] = [];
      const messages: Parameters<LoansDeps['notifyMany']>[0] = [];
      for (const loan of rows) {
        const debt = debtOf(loan);
        const ltv = ltvOf(debt, loan.collateralMinor, price.priceUsd);
        let mask = loan.alertsFired;
        const crossed: number[] = [];
        for (const { level, index } of ascending) {
          const bit = 1 << index;
          if (ltv.gte(ratio(level)) && (mask & bit) === 0) {
            mask |= bit;
            crossed.push(level);
          }
        }
        const isMarginCall = loan.marginCallAt === null && ltv.gte(ratio(marginCallBps));
        if (isMarginCall && !crossed.some((level) => level >= marginCallBps)) crossed.push(marginCallBps);
        if (crossed.length === 0) continue;
        changed.push({ id: loan.id, mask, marginCall: isMarginCall ? 'SET' : 'KEEP' });
        const liquidationPrice = priceAtLtv(debt, loan.collateralMinor, settings.liquidationLtvBps);
        const loanDeadline =
          isMarginCall || loan.marginCallAt === null
            ? deadline
            : hongKongMinuteText(new Date(loan.marginCallAt.getTime() + settings.cureWindowMinutes * 60_000));
        for (const level of crossed)
          messages.push(alertMessage(loan, level, { debt, liquidationPrice, deadline: loanDeadline }, settings, price));
      }
      await storeMasks(tx, changed, now);
      if (messages.length > 0) await deps.notifyMany(messages, tx);
      alerts += messages.length;
      const last = rows.at(-1);
      if (!last || rows.length < ENGINE_BATCH_ROWS || last.liquidationPrice === null) break;
      after = { price: last.liquidationPrice, id: last.id };
    }
    const rearmed = await rearmAlerts(tx, settings, price, now);
    return { alerts, rearmed };
  }

  return { runAlerts };
}
