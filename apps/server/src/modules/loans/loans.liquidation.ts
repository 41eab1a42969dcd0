import { LOAN_STATUS, type LoanCoin, type LoanLiquidationKind, type LoanStatus } from '@meridian/contracts/loans';
import { and, desc, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { ENTRIES_PER_BATCH_MAX, postEntries } from '../ledger/ledger.service.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { type EntryInput, platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import {
  btcText,
  coinText,
  COLLATERAL,
  collateralAccount,
  ENGINE_BATCH_ROWS,
  ENGINE_BATCHES_MAX,
  liquidationPriceOf,
  type LoanPrice,
  type LoanRow,
  type LoansDeps,
  ltvText,
  mergePostings,
  paymentPostings,
  type SettingsRow,
  transition,
  walletBtc,
} from './loans.internal.ts';
import { liquidationMessages } from './loans.messages.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import { moneyParam } from '../notices/notices.service.ts';
import { debtOf, LoanDecimal, ltvOf, planLiquidation, priceText, splitRepaid, splitShortfall } from './loans.rules.ts';
import { loanLiquidations, loans } from './loans.tables.ts';
import type { LiquidationPlan, PaymentSplit } from './loans.rules.ts';

/**
 * Liquidation: work out one loan's liquidation in memory (`planLoan`), write a batch of them
 * set-based (`applyLiquidations`), liquidate one overdue loan (`liquidate`) or the candidates of a
 * price event (`liquidateCandidates`).
 */
export function createLiquidation(deps: LoansDeps) {
  /** One loan's liquidation worked out in memory: its entry, the loan's new state, its receipt and message. */
  interface LiquidationWork {
    loan: LoanRow;
    kind: LoanLiquidationKind;
    entry: EntryInput;
    update: {
      status: LoanStatus;
      collateralMinor: bigint;
      outstandingPrincipalMinor: bigint;
      interestPaidMinor: bigint;
      overdueInterestPaidMinor: bigint;
      feesPaidMinor: bigint;
      liquidationPrice: string | null;
      isClosed: boolean;
    };
    receipt: Omit<typeof loanLiquidations.$inferInsert, 'entryId'>;
    message: Parameters<LoansDeps['notifyMany']>[0][number];
  }

  /**
   * Work out the liquidation of one LOCKED open loan at `price` for price event `event`:
   * partial back to the initial LTV when possible (the loan stays 3/4), else full (→ 5, or → 9 with
   * `isOverdue`): collateral sold to the desk, fee to the platform, debt repaid interest first, the
   * rest of the collateral returned, a shortfall to PLATFORM_LOAN_LOSS. Nothing is written here.
   */
  function planLoan(
    loan: LoanRow,
    settings: SettingsRow,
    price: LoanPrice,
    event: string,
    isOverdue: boolean,
  ): LiquidationWork {
    const debt = debtOf(loan);
    const plan = planLiquidation({
      debtMinor: debt,
      collateralMinor: loan.collateralMinor,
      price: price.priceUsd,
      targetLtvBps: settings.initialLtvBps,
      feeBps: settings.liquidationFeeBps,
      isFullOnly: isOverdue,
    });
    const isFull = plan.kind === 'FULL';
    // A shortfall's proceeds pay principal first, and only the principal left is the platform's loss;
    // interest left unpaid is written off, never booked (docs/decisions/0006-shortfall-income.md).
    const isShortfall = isFull && plan.shortfallMinor > 0n;
    const repaid = isShortfall ? splitShortfall(loan, plan.debtRepaidMinor) : splitRepaid(loan, plan.debtRepaidMinor);
    const principalLossMinor = isShortfall ? loan.outstandingPrincipalMinor - repaid.principalMinor : 0n;
    const postings = liquidationPostings(loan, plan, repaid, principalLossMinor);
    const afterRepaid = {
      ...loan,
      outstandingPrincipalMinor: loan.outstandingPrincipalMinor - repaid.principalMinor,
      interestPaidMinor: loan.interestPaidMinor + repaid.interestMinor,
      overdueInterestPaidMinor: loan.overdueInterestPaidMinor + repaid.overdueInterestMinor,
    };
    const status: LoanStatus = isFull
      ? transition(loan.status, isOverdue ? LOAN_STATUS.OVERDUE_LIQUIDATION : LOAN_STATUS.PRICE_LIQUIDATION)
      : (loan.status as LoanStatus);
    const collateralAfter = isFull ? 0n : loan.collateralMinor - plan.collateralSoldMinor;
    const debtAfter = isFull ? 0n : debtOf(afterRepaid);
    const kind: LoanLiquidationKind = isFull ? (isOverdue ? 'OVERDUE' : 'FULL') : 'PARTIAL';
    const ltvBefore = ltvText(debt, loan.collateralMinor, price.priceUsd);
    const ltvAfter = isFull ? null : ltvText(debtAfter, collateralAfter, price.priceUsd);
    return {
      loan,
      kind,
      entry: {
        kind: 'LOAN_LIQUIDATION',
        reference: `loan:${loan.id}`,
        idempotencyKey: `loan:${loan.id}:liquidation:${event}`,
        postings: mergePostings(postings),
        metadata: { price: priceText(price.priceUsd), sources: price.sources.join(',') },
      },
      update: isFull
        ? {
            status,
            collateralMinor: 0n,
            outstandingPrincipalMinor: 0n,
            // What was collected: on a shortfall less than the interest owed (the rest is written off).
            interestPaidMinor: afterRepaid.interestPaidMinor,
            overdueInterestPaidMinor: afterRepaid.overdueInterestPaidMinor,
            feesPaidMinor: loan.feesPaidMinor + plan.feeMinor,
            liquidationPrice: null,
            isClosed: true,
          }
        : {
            status,
            collateralMinor: collateralAfter,
            outstandingPrincipalMinor: afterRepaid.outstandingPrincipalMinor,
            interestPaidMinor: afterRepaid.interestPaidMinor,
            overdueInterestPaidMinor: afterRepaid.overdueInterestPaidMinor,
            feesPaidMinor: loan.feesPaidMinor + plan.feeMinor,
            liquidationPrice: liquidationPriceOf(debtAfter, collateralAfter, settings, true),
            isClosed: false,
          },
      receipt: liquidationReceipt({
        loan,
        kind,
        event,
        price,
        plan,
        repaid,
        principalLossMinor,
        ltvBefore,
        ltvAfter,
        status,
      }),
      message: liquidationMessage(loan, kind, plan, price, ltvBefore, ltvAfter),
    };
  }

  /**
   * The postings of one liquidation worked out by `planLoan`: collateral sold to the desk, the fee,
   * the debt repaid, a principal loss from PLATFORM_LOAN_LOSS, the rest of the collateral returned.
   */
  function liquidationPostings(
    loan: LoanRow,
    plan: LiquidationPlan,
    repaid: PaymentSplit,
    principalLossMinor: bigint,
  ): PostingInput[] {
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
    const desk = (asset: 'BTC' | LoanCoin) => platformAccount('PLATFORM_LOAN_LIQUIDATION', asset);
    const postings: PostingInput[] = [
      ...transfer(collateralAccount(userId), desk(COLLATERAL), plan.collateralSoldMinor),
      { account: desk(coin), amountMinor: -plan.feeMinor },
      { account: platformAccount('PLATFORM_FEES', coin), amountMinor: plan.feeMinor },
      ...paymentPostings(desk(coin), coin, repaid),
    ];
    if (principalLossMinor > 0n)
      postings.push(
        ...transfer(
          platformAccount('PLATFORM_LOAN_LOSS', coin),
          platformAccount('PLATFORM_LOAN_POOL', coin),
          principalLossMinor,
        ),
      );
    if (plan.collateralReturnedMinor > 0n)
      postings.push(...transfer(collateralAccount(userId), walletBtc(userId), plan.collateralReturnedMinor));
    return postings;
  }

  /** The receipt of one liquidation worked out by `planLoan` (its `loan_liquidations` row without the entry). */
  function liquidationReceipt(input: {
    loan: LoanRow;
    kind: LoanLiquidationKind;
    event: string;
    price: LoanPrice;
    plan: LiquidationPlan;
    repaid: PaymentSplit;
    principalLossMinor: bigint;
    ltvBefore: string;
    ltvAfter: string | null;
    status: LoanStatus;
  }): LiquidationWork['receipt'] {
    const { loan, kind, event, price, plan, repaid, principalLossMinor, ltvBefore, ltvAfter, status } = input;
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
    return {
      loanId: loan.id,
      userId,
      kind,
      loanCoin: coin,
      priceEvent: event,
      price: priceText(price.priceUsd),
      priceSources: price.sources,
      collateralSoldMinor: plan.collateralSoldMinor,
      feeMinor: plan.feeMinor,
      debtRepaidMinor: plan.debtRepaidMinor,
      collateralReturnedMinor: plan.collateralReturnedMinor,
      shortfallMinor: plan.shortfallMinor,
      principalRepaidMinor: repaid.principalMinor,
      interestRepaidMinor: repaid.interestMinor + repaid.overdueInterestMinor,
      principalLossMinor,
      ltvBefore,
      ltvAfter,
      statusAfter: status,
    };
  }

  /** The message of one liquidation worked out by `planLoan`. */
  function liquidationMessage(
    loan: LoanRow,
    kind: LoanLiquidationKind,
    plan: LiquidationPlan,
    price: LoanPrice,
    ltvBefore: string,
    ltvAfter: string | null,
  ): LiquidationWork['message'] {
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
    return {
      userId,
      category: 'LOAN',
      ...liquidationMessages[kind],
      params: {
        orderId: String(loan.id),
        kind,
        price: moneyParam(priceText(price.priceUsd), 'USD'),
        sources: price.sources.join(', '),
        collateralSold: moneyParam(btcText(plan.collateralSoldMinor), COLLATERAL, { unit: 'none' }),
        fee: moneyParam(coinText(plan.feeMinor, coin), coin, { unit: 'none', rounding: MONEY_ROUNDING.owed }),
        debtRepaid: moneyParam(coinText(plan.debtRepaidMinor, coin), coin, { unit: 'none' }),
        collateralReturned: moneyParam(btcText(plan.collateralReturnedMinor), COLLATERAL, { unit: 'none' }),
        loanCoin: coin,
        ltvBefore,
        ltvAfter: ltvAfter ?? '0.00',
      },
      link: '/my/order/loan/liquidation',
    };
  }

  /**
   * Write liquidations worked out by `planLoan` (up to a batch of loans, all LOCKED) set-based: the
   * entries through `postEntries` (64 per statement), one UPDATE of the loans over `unnest`, one
   * INSERT of the receipts, one call for the messages.
   */
  async function applyLiquidations(tx: Tx, works: LiquidationWork[]): Promise<void> {
    if (works.length === 0) return;
    const entryIds: number[] = [];
    for (let index = 0; index < works.length; index += ENTRIES_PER_BATCH_MAX) {
      const chunk = works.slice(index, index + ENTRIES_PER_BATCH_MAX);
      const results = await postEntries(
        tx,
        chunk.map((work) => work.entry),
      );
      for (const result of results) {
        // Every account debited is the loan's own collateral (held) or a platform account: a refusal is a bug.
        if (result instanceof Error) throw result;
        entryIds.push(result.entry.id);
      }
    }
    const now = deps.now();
    const column = (pick: (work: LiquidationWork) => string | number | bigint) => pgArrayLiteral(works.map(pick));
    await tx.execute(sql`
      UPDATE ${loans} AS l SET
        status = u.status, collateral_minor = u.collateral, outstanding_principal_minor = u.outstanding,
        interest_paid_minor = u.interest_paid, overdue_interest_paid_minor = u.overdue_paid, fees_paid_minor = u.fees,
        liquidation_price = nullif(u.lp, '')::numeric,
        alerts_fired = CASE WHEN u.is_closed THEN l.alerts_fired ELSE 0 END, margin_call_at = NULL,
        closed_at = CASE WHEN u.is_closed THEN ${now}::timestamptz ELSE l.closed_at END,
        updated_at = ${now}::timestamptz
      FROM unnest(
        ${column((w) => w.loan.id)}::bigint[], ${column((w) => w.update.status)}::smallint[],
        ${column((w) => w.update.collateralMinor)}::numeric[], ${column((w) => w.update.outstandingPrincipalMinor)}::numeric[],
        ${column((w) => w.update.interestPaidMinor)}::numeric[], ${column((w) => w.update.overdueInterestPaidMinor)}::numeric[],
        ${column((w) => w.update.feesPaidMinor)}::numeric[], ${column((w) => w.update.liquidationPrice ?? '')}::text[],
        ${column((w) => (w.update.isClosed ? 'true' : 'false'))}::boolean[]
      ) AS u(id, status, collateral, outstanding, interest_paid, overdue_paid, fees, lp, is_closed)
      WHERE l.id = u.id`);
    // The receipts: one INSERT over `unnest`, one parameter per column whatever the batch size (a
    // multi-row VALUES list bound 17 parameters per receipt: 4,250 for a batch of 250).
    const receipt = (pick: (r: LiquidationWork['receipt']) => string | number | bigint | null | undefined) =>
      column((work) => pick(work.receipt) ?? '');
    await tx.execute(sql`
      INSERT INTO ${loanLiquidations} (loan_id, user_id, kind, loan_coin, price_event, price, price_sources,
        collateral_sold_minor, fee_minor, debt_repaid_minor, collateral_returned_minor, shortfall_minor,
        principal_repaid_minor, interest_repaid_minor, principal_loss_minor,
        ltv_before, ltv_after, status_after, entry_id)
      SELECT r.loan_id, r.user_id, r.kind, r.loan_coin, r.price_event, r.price::numeric, r.price_sources::jsonb,
        r.sold, r.fee, r.repaid, r.returned, r.shortfall, r.principal_repaid, r.interest_repaid, r.principal_loss,
        r.ltv_before::numeric, nullif(r.ltv_after, '')::numeric, r.status_after, r.entry_id
      FROM unnest(
        ${receipt((r) => r.loanId)}::bigint[], ${receipt((r) => r.userId)}::uuid[], ${receipt((r) => r.kind)}::text[],
        ${receipt((r) => r.loanCoin)}::text[], ${receipt((r) => r.priceEvent)}::text[], ${receipt((r) => r.price)}::text[],
        ${column((work) => JSON.stringify(work.receipt.priceSources))}::text[],
        ${receipt((r) => r.collateralSoldMinor)}::numeric[], ${receipt((r) => r.feeMinor)}::numeric[],
        ${receipt((r) => r.debtRepaidMinor)}::numeric[], ${receipt((r) => r.collateralReturnedMinor)}::numeric[],
        ${receipt((r) => r.shortfallMinor)}::numeric[], ${receipt((r) => r.principalRepaidMinor)}::numeric[],
        ${receipt((r) => r.interestRepaidMinor)}::numeric[], ${receipt((r) => r.principalLossMinor)}::numeric[],
        ${receipt((r) => r.ltvBefore)}::text[], ${receipt((r) => r.ltvAfter)}::text[],
        ${receipt((r) => r.statusAfter)}::smallint[], ${pgArrayLiteral(entryIds)}::bigint[]
      ) WITH ORDINALITY AS r(loan_id, user_id, kind, loan_coin, price_event, price, price_sources, sold, fee, repaid,
        returned, shortfall, principal_repaid, interest_repaid, principal_loss, ltv_before, ltv_after, status_after,
        entry_id, ord)
      ORDER BY r.ord`);
    for (let index = 0; index < works.length; index += 500)
      await deps.notifyMany(
        works.slice(index, index + 500).map((work) => work.message),
        tx,
      );
  }

  /** Liquidate one LOCKED open loan now (overdue liquidation); see `planLoan`. */
  async function liquidate(
    tx: Tx,
    loan: LoanRow,
    settings: SettingsRow,
    price: LoanPrice,
    event: string,
    isOverdue: boolean,
  ): Promise<LoanLiquidationKind> {
    const work = planLoan(loan, settings, price, event, isOverdue);
    await applyLiquidations(tx, [work]);
    return work.kind;
  }

  /**
   * Price liquidation: open loans whose liquidation price ≥ `price`, an index range scan
   * of `loans_liquidation_price_open_idx`, in batches of `ENGINE_BATCH_ROWS` (rows locked, SKIP
   * LOCKED: a loan a user is repaying is taken on the next event), at most `ENGINE_BATCHES_MAX`,
   * highest liquidation price first, each batch keyed after the previous one (liquidation price, id).
   * Cure window (docs/decisions/0005-margin-call-before-liquidation.md): a loan is liquidated only
   * when its margin call was sent at least `cureWindowMinutes` before `now`, or its LTV reached
   * the hard level (`hardLiquidationLtvBps`, 95 %); the others wait (they stay candidates).
   */
  async function liquidateCandidates(
    tx: Tx,
    settings: SettingsRow,
    price: LoanPrice,
    event: string,
    now: Date,
  ): Promise<{ partial: number; full: number }> {
    const counts = { partial: 0, full: 0 };
    const threshold = price.priceUsd.toFixed();
    const hardThreshold = price.priceUsd.mul(settings.hardLiquidationLtvBps).div(settings.liquidationLtvBps).toFixed();
    const hardLtv = new LoanDecimal(settings.hardLiquidationLtvBps).div(10_000);
    const cureEndsBefore = new Date(now.getTime() - settings.cureWindowMinutes * 60_000);
    const isDue = (loan: LoanRow) =>
      (loan.marginCallAt !== null && loan.marginCallAt.getTime() <= cureEndsBefore.getTime()) ||
      ltvOf(debtOf(loan), loan.collateralMinor, price.priceUsd).gte(hardLtv);
    // Keyset: each batch starts below the previous one's last (liquidation price, id). Without it
    // every batch walked the index from the top past the entries of the loans the earlier batches
    // had just rewritten (their old versions stay in the index until vacuum): batch k visited
    // k × 250 dead entries first, 434 ms a batch at 1,000,000 loans.
    let after: { price: string; id: number } | null = null;
    for (let batch = 0; batch < ENGINE_BATCHES_MAX; batch += 1) {
      const rows: LoanRow[] = await tx
        .select()
        .from(loans)
        .where(
          and(
            inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]),
            sql`${loans.liquidationPrice} >= ${threshold}::numeric`,
            // The cure window, in SQL too (the stored price is rounded up, so this keeps every loan
            // `isDue` accepts): the hard level reached, or the margin call old enough.
            sql`(${loans.liquidationPrice} >= ${hardThreshold}::numeric OR ${loans.marginCallAt} <= ${cureEndsBefore.toISOString()}::timestamptz)`,
            after
              ? sql`${loans.liquidationPrice} <= ${after.price}::numeric AND (${loans.liquidationPrice} < ${after.price}::numeric OR ${loans.id} < ${after.id})`
              : undefined,
            // OFFSET 0 keeps this a per-row look-up of `loan_liquidations_event_uq`: as an anti-join
            // the planner, guessing few receipts for a new event, matched every candidate against
            // ALL of the event's receipts so far (batch k: 250 × k × 250 comparisons, 0.4–0.5 s a
            // batch at 1,000,000 loans; 1.4 ms with the look-up).
            sql`NOT EXISTS (SELECT 1 FROM ${loanLiquidations} WHERE ${loanLiquidations.loanId} = ${loans.id} AND ${loanLiquidations.priceEvent} = ${event} OFFSET 0)`,
          ),
        )
        .orderBy(desc(loans.liquidationPrice), desc(loans.id))
        .limit(ENGINE_BATCH_ROWS)
        .for('update', { skipLocked: true });
      // The SQL filter keeps a few loans just under the hard level (the stored price is rounded up).
      const works = rows.filter(isDue).map((loan) => planLoan(loan, settings, price, event, false));
      await applyLiquidations(tx, works);
      for (const work of works) {
        if (work.kind === 'PARTIAL') counts.partial += 1;
        else counts.full += 1;
      }
      const last = rows.at(-1);
      if (!last || rows.length < ENGINE_BATCH_ROWS || last.liquidationPrice === null) break;
      after = { price: last.liquidationPrice, id: last.id };
    }
    return counts;
  }

  return { liquidate, liquidateCandidates };
}
