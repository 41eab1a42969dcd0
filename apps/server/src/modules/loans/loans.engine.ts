import { LOAN_STATUS, type LoanCoin, type LoanLiquidationKind, type LoanStatus } from '@meridian/contracts/loans';
import type Decimal from 'decimal.js';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Tx } from '../../platform/db/client.ts';
import { ENTRIES_PER_BATCH_MAX, postEntries, postEntry } from '../ledger/ledger.service.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { type EntryInput, platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import {
  btcText,
  COLLATERAL,
  coinText,
  collateralAccount,
  liquidationPriceOf,
  loadSettings,
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
import { liquidationMessages, ltvWarningMessage, marginCallMessage, overdueMessage } from './loans.messages.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import { moneyParam } from '../notices/notices.service.ts';
import {
  bpsToPct,
  daysBetween,
  debtOf,
  isOpenLoan,
  LoanDecimal,
  ltvOf,
  overdueInterest,
  planLiquidation,
  priceAtLtv,
  priceText,
  splitRepaid,
  splitShortfall,
  hongKongMinuteText,
} from './loans.rules.ts';
import { loanAdjustments, loanEngineAlarms, loanLiquidations, loans } from './loans.tables.ts';

/** Loans the engine handles per batch, and batches per price event (10,000 loans per run at most). */
export const ENGINE_BATCH_ROWS = 250;
export const ENGINE_BATCHES_MAX = 40;
/** A price older than this is stale: no liquidation, an alarm (the aggregator's own limit is 30 s). */
export const ENGINE_PRICE_MAX_AGE_MS = 60_000;

/** A price the engine may act on, or why it may not. */
export type EnginePrice = { price: LoanPrice } | { error: string };

/** What one price event did (tests, the replay CLI and the bench print it). */
export interface PriceEventReport {
  event: string | null;
  alarm: string | null;
  protections: number;
  partial: number;
  full: number;
  alerts: number;
  rearmed: number;
}

/**
 * The loan engine: overdue accrual and overdue liquidation, price liquidation in bounded
 * batches over the partial index of open loans' liquidation prices, and margin-call alerts. Every
 * action is one ledger entry in the job's transaction; the scheduler's advisory lock makes one
 * process (the leader) act, and the receipt's unique (loan, price event) makes each loan liquidated
 * at most once per price event, whatever restarts happen.
 */
export function createLoanEngine(deps: LoansDeps) {
  async function alarm(tx: Tx, reason: string, detail: Record<string, unknown>): Promise<void> {
    deps.log.error({ reason, ...detail }, 'loans engine alarm: no liquidation');
    await tx.insert(loanEngineAlarms).values({ reason, detail });
  }

  /** The loan with overdue interest accrued up to `today` and status 4 when past due (no database). */
  function previewOverdue(loan: LoanRow, settings: SettingsRow, today: string): LoanRow {
    if (!isOpenLoan(loan.status) || today <= loan.repaymentDate) return loan;
    const days = Math.min(settings.overdueGraceDays, daysBetween(loan.repaymentDate, today));
    const newDays = days - loan.overdueDays;
    const added =
      newDays > 0
        ? overdueInterest(loan.outstandingPrincipalMinor, loan.annualRateBps, settings.overdueRateMultiplier, newDays)
        : 0n;
    return {
      ...loan,
      status: LOAN_STATUS.OVERDUE,
      overdueDays: Math.max(days, loan.overdueDays),
      overdueInterestMinor: loan.overdueInterestMinor + added,
    };
  }

  /**
   * Accrue overdue interest on a LOCKED loan row up to Hong Kong day `today` (3 × the daily
   * rate on the outstanding principal per natural day, up to the grace of 3 days) and move it 3 → 4
   * after its repayment date; the liquidation price is rewritten. Returns the row as stored.
   */
  async function accrueOverdue(tx: Tx, loan: LoanRow, settings: SettingsRow, today: string): Promise<LoanRow> {
    const next = previewOverdue(loan, settings, today);
    if (next === loan) return loan;
    const status =
      next.status === loan.status ? (loan.status as LoanStatus) : transition(loan.status, LOAN_STATUS.OVERDUE);
    const [updated] = await tx
      .update(loans)
      .set({
        status,
        overdueDays: next.overdueDays,
        overdueInterestMinor: next.overdueInterestMinor,
        liquidationPrice: liquidationPriceOf(debtOf(next), next.collateralMinor, settings, true),
        updatedAt: deps.now(),
      })
      .where(eq(loans.id, loan.id))
      .returning();
    if (loan.status !== LOAN_STATUS.OVERDUE)
      await deps.notifyMany(
        [
          {
            userId: loan.userId,
            category: 'LOAN',
            ...overdueMessage,
            params: { orderId: String(loan.id), repaymentDate: loan.repaymentDate, grace: settings.overdueGraceDays },
            link: '/my/order/loan/history',
          },
        ],
        tx,
      );
    return updated!;
  }

  /**
   * A cure (docs/decisions/0005-margin-call-before-liquidation.md): after the customer (or their
   * protection rule) added collateral or repaid, an LTV at `price` under the margin-call level
   * clears the margin call, its deadline and the alert levels at and above it, so a later crossing
   * is announced again with a new cure window. No price (an addition needs none): nothing changes
   * here; the engine clears the margin call once the LTV is 2 points under the level.
   */
  function curePatch(
    loan: Pick<LoanRow, 'marginCallAt' | 'alertsFired'>,
    debtAfterMinor: bigint,
    collateralAfterMinor: bigint,
    price: Decimal | null,
    settings: SettingsRow,
  ): { marginCallAt?: null; alertsFired?: number } {
    if (loan.marginCallAt === null || price === null) return {};
    if (ltvOf(debtAfterMinor, collateralAfterMinor, price).gte(new LoanDecimal(settings.marginCallLtvBps).div(10_000)))
      return {};
    let mask = loan.alertsFired;
    settings.alertLevelsBps.forEach((level, index) => {
      if (level >= settings.marginCallLtvBps) mask &= ~(1 << index);
    });
    return { marginCallAt: null, alertsFired: mask };
  }

  /**
   * Move collateral on a LOCKED open loan (user or protection rule): ADD wallet → collateral, REMOVE
   * collateral → wallet (the caller checked the LTV). One entry (kind LOAN_COLLATERAL) and the record.
   */
  async function applyAdjustment(
    tx: Tx,
    loan: LoanRow,
    settings: SettingsRow,
    input: {
      direction: 'ADD' | 'REMOVE';
      amountMinor: bigint;
      origin: 'USER' | 'PROTECTION';
      price: Decimal | null;
      idempotencyKey: string;
      requestHash: string;
    },
  ) {
    const userId = loan.userId;
    const collateralAfter =
      input.direction === 'ADD' ? loan.collateralMinor + input.amountMinor : loan.collateralMinor - input.amountMinor;
    const { entry } = await postEntry(tx, {
      kind: 'LOAN_COLLATERAL',
      reference: `loan:${loan.id}`,
      idempotencyKey: `loan:${loan.id}:adjust:${input.origin}:${input.idempotencyKey}`,
      postings:
        input.direction === 'ADD'
          ? transfer(walletBtc(userId), collateralAccount(userId), input.amountMinor)
          : transfer(collateralAccount(userId), walletBtc(userId), input.amountMinor),
    });
    const debt = debtOf(loan);
    await tx
      .update(loans)
      .set({
        collateralMinor: collateralAfter,
        liquidationPrice: liquidationPriceOf(debt, collateralAfter, settings, true),
        ...curePatch(loan, debt, collateralAfter, input.price, settings),
        updatedAt: deps.now(),
      })
      .where(eq(loans.id, loan.id));
    const [record] = await tx
      .insert(loanAdjustments)
      .values({
        loanId: loan.id,
        userId,
        direction: input.direction,
        origin: input.origin,
        amountMinor: input.amountMinor,
        collateralAfterMinor: collateralAfter,
        ltvBefore: input.price ? ltvText(debt, loan.collateralMinor, input.price) : null,
        ltvAfter: input.price ? ltvText(debt, collateralAfter, input.price) : null,
        price: input.price ? priceText(input.price) : null,
        entryId: entry.id,
        idempotencyKey: input.idempotencyKey,
        requestHash: input.requestHash,
      })
      .returning();
    return record!;
  }

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
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
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
    const desk = (asset: 'BTC' | LoanCoin) => platformAccount('PLATFORM_LOAN_LIQUIDATION', asset);
    const postings: PostingInput[] = [
      ...transfer(collateralAccount(userId), desk(COLLATERAL), plan.collateralSoldMinor),
      { account: desk(coin), amountMinor: -plan.feeMinor },
      { account: platformAccount('PLATFORM_FEES', coin), amountMinor: plan.feeMinor },
      ...paymentPostings(desk(coin), coin, repaid),
    ];
    const afterRepaid = {
      ...loan,
      outstandingPrincipalMinor: loan.outstandingPrincipalMinor - repaid.principalMinor,
      interestPaidMinor: loan.interestPaidMinor + repaid.interestMinor,
      overdueInterestPaidMinor: loan.overdueInterestPaidMinor + repaid.overdueInterestMinor,
    };
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
      receipt: {
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
      },
      message: {
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
      },
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

  /** The name of a price event: the observation instant and the price (each loan acts once per event). */
  function eventOf(price: LoanPrice): string {
    return `${price.observedAt.toISOString()}@${priceText(price.priceUsd)}`;
  }

  /** A price the engine may act on, or the alarm reason (refused by the pipeline, or stale). */
  function checkPrice(prepared: EnginePrice, now: Date): { price: LoanPrice } | { reason: string; detail: object } {
    if ('error' in prepared) return { reason: 'PRICE_UNAVAILABLE', detail: { error: prepared.error } };
    const ageMs = now.getTime() - prepared.price.observedAt.getTime();
    if (ageMs > ENGINE_PRICE_MAX_AGE_MS)
      return { reason: 'PRICE_STALE', detail: { observedAt: prepared.price.observedAt.toISOString(), ageMs } };
    return prepared;
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
          messages.push({
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
          });
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

  return {
    previewOverdue,
    accrueOverdue,
    curePatch,
    applyAdjustment,
    liquidate,
    liquidateCandidates,
    eventOf,

    /** The job's `prepare`: the BTC median price, or why there is none (never throws). */
    async preparePrice(): Promise<EnginePrice> {
      try {
        return { price: await deps.btcPrice() };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },

    /**
     * One price event (the `loans.engine` job, leader only): protection rules first (`protect`,
     * given by the service), then alerts (every level crossed, before any liquidation of the same
     * event), then liquidation of the loans whose cure window is over or that reached the hard
     * level. A refused or stale price → nothing is liquidated, an alarm is logged and stored.
     */
    async runPriceEvent(
      tx: Tx,
      prepared: EnginePrice,
      now: Date,
      protect: (tx: Tx, settings: SettingsRow, price: LoanPrice, event: string) => Promise<number>,
    ): Promise<PriceEventReport> {
      const checked = checkPrice(prepared, now);
      const report: PriceEventReport = {
        event: null,
        alarm: null,
        protections: 0,
        partial: 0,
        full: 0,
        alerts: 0,
        rearmed: 0,
      };
      if (!('price' in checked)) {
        await alarm(tx, checked.reason, checked.detail as Record<string, unknown>);
        return { ...report, alarm: checked.reason };
      }
      const settings = await loadSettings(tx);
      const event = eventOf(checked.price);
      report.event = event;
      report.protections = await protect(tx, settings, checked.price, event);
      const alerts = await runAlerts(tx, settings, checked.price, now);
      const counts = await liquidateCandidates(tx, settings, checked.price, event, now);
      return { ...report, ...counts, ...alerts };
    },

    /**
     * The overdue job (hourly, leader only): open loans past their repayment date (index
     * `loans_due_open_idx`) get overdue interest accrued and go 3 → 4 (with a message); those past
     * the grace (3 natural days) are liquidated in full → 9 at the current price (none without a
     * valid price: alarm). Bounded per run.
     */
    async runOverdue(tx: Tx, prepared: EnginePrice, now: Date): Promise<{ overdue: number; liquidated: number }> {
      const settings = await loadSettings(tx);
      const today = hongKongDay(now);
      const rows = await tx
        .select()
        .from(loans)
        .where(
          and(
            inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]),
            sql`${loans.repaymentDate} < ${today}`,
          ),
        )
        .orderBy(asc(loans.repaymentDate))
        .limit(ENGINE_BATCH_ROWS * ENGINE_BATCHES_MAX)
        .for('update', { skipLocked: true });
      const checked = checkPrice(prepared, now);
      let overdue = 0;
      let liquidated = 0;
      let isAlarmed = false;
      for (const row of rows) {
        const loan = await accrueOverdue(tx, row, settings, today);
        if (row.status !== loan.status) overdue += 1;
        if (daysBetween(loan.repaymentDate, today) <= settings.overdueGraceDays) continue;
        if (!('price' in checked)) {
          if (!isAlarmed) await alarm(tx, checked.reason, { ...checked.detail, job: 'overdue' });
          isAlarmed = true;
          continue;
        }
        await liquidate(tx, loan, settings, checked.price, `overdue:${today}`, true);
        liquidated += 1;
      }
      return { overdue, liquidated };
    },
  };
}

export type LoanEngine = ReturnType<typeof createLoanEngine>;
