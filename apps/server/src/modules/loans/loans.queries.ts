import {
  LOAN_CURRENT_STATUSES,
  type LoanAdjustRecord,
  type LoanAsset,
  type LoanCalc,
  type LoanCoin,
  type LoanCoins,
  type LoanConfig,
  type LoanLiquidationRecord,
  type LoanOrder,
  type LoanRepayRecord,
  type ParsedLoanCalcQuery,
  type ParsedLoanOrderQuery,
} from '@meridian/contracts/loans';
import { toDecimalString } from '@meridian/contracts/money';
import { type Page, type PageQuery } from '@meridian/contracts/pagination';
import { and, eq, inArray } from 'drizzle-orm';
import { accountBalance } from '../ledger/ledger.service.ts';
import { platformAccount } from '../ledger/ledger.types.ts';
import {
  btcText,
  coinText,
  COLLATERAL,
  loadCoin,
  loadSettings,
  loadTerm,
  loadTerms,
  type LoanRow,
  ltvText,
  MICRO_PER_CENT,
  protectedLoanIds,
  toOrder,
} from './loans.internal.ts';
import {
  addDays,
  bpsToPct,
  collateralFor,
  dailyRatePct,
  debtOf,
  maxPrincipalFor,
  priceAtLtv,
  priceText,
  proceedsOf,
  repaymentDateOf,
  termInterest,
} from './loans.rules.ts';
import { loanAdjustments, loanCoins, loanLiquidations, loanRepayments, loans } from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';
import {
  historyConditions,
  pageOf,
  toAdjustRecord,
  toLiquidationRecord,
  toRepayRecord,
  tryPrice,
} from './loans.records.ts';

/** One current loan's dates for the calendar (`LoansService.calendarDatesOf`). */
export interface LoanCalendarDates {
  orderId: string;
  loanCoin: LoanCoin;
  /** Outstanding principal, decimal text of `loanCoin`. */
  outstandingPrincipal: string;
  /** Hong Kong day the loan falls due. */
  repaymentDate: string;
  /** Last Hong Kong day of the overdue grace (liquidation the day after). */
  graceEndDate: string;
  graceDays: number;
}

/** The loans' reads: coins, rules, the borrow preview, the user's loans, totals, dates and history lists. */
export function createQueriesService(deps: LoansContext) {
  const { db } = deps;

  return {
    /** `GET loan/coins`: collateral BTC; each loan coin with its minimum and what the pool can still lend. */
    async coins(): Promise<LoanCoins> {
      const rows = await db.select().from(loanCoins).orderBy(loanCoins.sortOrder);
      const list = await Promise.all(
        rows.map(async (row) => {
          const lent = -(await accountBalance(db, platformAccount('PLATFORM_LOAN_POOL', row.coin as LoanCoin)));
          const available = row.poolCapacityMinor - lent;
          return {
            coin: row.coin as LoanCoin,
            isEnabled: row.isEnabled,
            minPrincipal: coinText(row.minPrincipalMinor, row.coin),
            available: coinText(available > 0n ? available : 0n, row.coin),
          };
        }),
      );
      return { collateralCoins: [{ coin: COLLATERAL, isEnabled: true }], loanCoins: list };
    },

    /** `GET loan/config`: the rules' numbers from the database. */
    async config(): Promise<LoanConfig> {
      const settings = await loadSettings(db);
      const terms = await loadTerms(db);
      return {
        terms: terms
          .filter((term) => term.isEnabled)
          .map((term) => ({
            termDays: term.termDays,
            annualRatePct: bpsToPct(term.annualRateBps),
            dailyRatePct: dailyRatePct(term.annualRateBps),
          })),
        initialLtvPct: bpsToPct(settings.initialLtvBps),
        marginCallLtvPct: bpsToPct(settings.marginCallLtvBps),
        liquidationLtvPct: bpsToPct(settings.liquidationLtvBps),
        alertLtvPcts: settings.alertLevelsBps.map(bpsToPct),
        cureWindowMinutes: settings.cureWindowMinutes,
        hardLiquidationLtvPct: bpsToPct(settings.hardLiquidationLtvBps),
        alertRearmPct: bpsToPct(settings.alertRearmBps),
        maxOutstandingUsd: toDecimalString(settings.maxOutstandingUsdMinor, 'USD'),
        liquidationFeePct: bpsToPct(settings.liquidationFeeBps),
        earlyRepayFeePct: bpsToPct(settings.earlyRepayFeeBps),
        overdueGraceDays: settings.overdueGraceDays,
        overdueRateMultiplier: settings.overdueRateMultiplier,
      };
    },

    /**
     * `GET loan/calc`: the loan that would be made now. Collateral only → the largest principal at
     * the initial LTV; principal only → the least collateral for it; both → that pair's LTV.
     * @throws DomainError PRICE_UNAVAILABLE, LOAN_COIN_DISABLED, NOT_FOUND (term switched off)
     */
    async calc(query: ParsedLoanCalcQuery): Promise<LoanCalc> {
      const settings = await loadSettings(db);
      const term = await loadTerm(db, query.termDays);
      await loadCoin(db, query.loanCoin);
      const price = await deps.btcPrice();
      const coin = query.loanCoin;
      const maxPrincipal =
        query.collateralMinor === undefined
          ? null
          : maxPrincipalFor(
              query.collateralMinor,
              price.priceUsd,
              settings.initialLtvBps,
              term.annualRateBps,
              term.termDays,
            );
      const principal = query.principalMinor ?? maxPrincipal ?? 0n;
      const interest = termInterest(principal, term.annualRateBps, term.termDays);
      const debt = principal + interest;
      const collateral = query.collateralMinor ?? collateralFor(debt, price.priceUsd, settings.initialLtvBps);
      const liquidationPrice = priceAtLtv(debt, collateral, settings.liquidationLtvBps);
      const marginCallPrice = priceAtLtv(debt, collateral, settings.marginCallLtvBps);
      return {
        loanCoin: coin,
        collateralCoin: COLLATERAL,
        termDays: term.termDays,
        collateralAmount: btcText(collateral),
        principal: coinText(principal, coin),
        annualRatePct: bpsToPct(term.annualRateBps),
        dailyRatePct: dailyRatePct(term.annualRateBps),
        interest: coinText(interest, coin),
        totalRepay: coinText(debt, coin),
        ltvPct: ltvText(debt, collateral, price.priceUsd),
        maxPrincipal: maxPrincipal === null ? null : coinText(maxPrincipal, coin),
        price: priceText(price.priceUsd),
        priceAt: price.observedAt.toISOString(),
        marginCallPrice: marginCallPrice ? priceText(marginCallPrice) : '0.00',
        liquidationPrice: liquidationPrice ? priceText(liquidationPrice) : '0.00',
        repaymentDate: repaymentDateOf(deps.now(), term.termDays),
      };
    },

    /** `GET loan/order/list`: the user's loans, newest first, filtered, paged. */
    async listOrders(userId: string, query: ParsedLoanOrderQuery): Promise<Page<LoanOrder>> {
      const settings = await loadSettings(db);
      const statuses = query.isCurrent ? [...LOAN_CURRENT_STATUSES] : query.status;
      const conditions = [
        ...historyConditions(
          { userId: loans.userId, loanId: loans.id, createdAt: loans.createdAt, loanCoin: loans.loanCoin },
          userId,
          query,
        ),
        statuses && statuses.length > 0 ? inArray(loans.status, statuses) : undefined,
      ];
      const price = (await tryPrice(deps))?.priceUsd ?? null;
      const page = await pageOf(db, loans, conditions, query, (row: LoanRow) => row);
      const guarded = await protectedLoanIds(
        db,
        page.list.map((row) => row.id),
      );
      return { ...page, list: page.list.map((row) => toOrder(row, settings, price, guarded.has(row.id))) };
    },

    /** `GET loan/asset`: totals of the user's current loans. */
    async asset(userId: string): Promise<LoanAsset> {
      const settings = await loadSettings(db);
      const rows = await db
        .select()
        .from(loans)
        .where(and(eq(loans.userId, userId), inArray(loans.status, [...LOAN_CURRENT_STATUSES])));
      const price = await tryPrice(deps);
      let collateral = 0n;
      let debtTotal = 0n;
      let principalTotal = 0n;
      const debts = new Map<LoanCoin, { principal: bigint; debt: bigint }>();
      for (const row of rows) {
        const coin = row.loanCoin as LoanCoin;
        const debt = debtOf(row);
        collateral += row.collateralMinor;
        debtTotal += debt;
        principalTotal += row.outstandingPrincipalMinor;
        const seen = debts.get(coin) ?? { principal: 0n, debt: 0n };
        debts.set(coin, { principal: seen.principal + row.outstandingPrincipalMinor, debt: seen.debt + debt });
      }
      const maxMicro = settings.maxOutstandingUsdMinor * MICRO_PER_CENT;
      const remaining = maxMicro - principalTotal;
      const collateralUsd = price ? proceedsOf(collateral, price.priceUsd) / MICRO_PER_CENT : null;
      return {
        collateralAmount: btcText(collateral),
        collateralUsd: collateralUsd === null ? null : toDecimalString(collateralUsd, 'USD'),
        debtUsd: toDecimalString(debtTotal, 'USDT'),
        outstandingPrincipalUsd: toDecimalString(principalTotal, 'USDT'),
        debts: [...debts].map(([loanCoin, value]) => ({
          loanCoin,
          outstandingPrincipal: coinText(value.principal, loanCoin),
          debt: coinText(value.debt, loanCoin),
        })),
        currentCount: rows.length,
        ltvPct: price && collateral > 0n ? ltvText(debtTotal, collateral, price.priceUsd) : null,
        remainingLimitUsd: toDecimalString(remaining > 0n ? remaining : 0n, 'USDT'),
        price: price ? priceText(price.priceUsd) : null,
      };
    },

    /** Collateral and debt per user for the account overview: BTC pledged and debt per coin (current loans). */
    async holdingsOf(
      userId: string,
    ): Promise<{ collateralMinor: bigint; debts: { coin: LoanCoin; debtMinor: bigint }[] }> {
      const rows = await db
        .select()
        .from(loans)
        .where(and(eq(loans.userId, userId), inArray(loans.status, [...LOAN_CURRENT_STATUSES])));
      const debts = new Map<LoanCoin, bigint>();
      let collateralMinor = 0n;
      for (const row of rows) {
        collateralMinor += row.collateralMinor;
        debts.set(row.loanCoin as LoanCoin, (debts.get(row.loanCoin as LoanCoin) ?? 0n) + debtOf(row));
      }
      return { collateralMinor, debts: [...debts].map(([coin, debtMinor]) => ({ coin, debtMinor })) };
    },

    /**
     * Each of the user's loans' term interest (owed in full from the borrow), minor units of its
     * coin, by the loan's ledger reference (`loan:7`): the statement's loan section (docs/statements.md "Loans").
     */
    async termInterestByReference(userId: string): Promise<Map<string, bigint>> {
      const rows = await db
        .select({ id: loans.id, interestMinor: loans.interestMinor })
        .from(loans)
        .where(eq(loans.userId, userId))
        .limit(10_000);
      return new Map(rows.map((row) => [`loan:${row.id}`, row.interestMinor]));
    },

    /**
     * The dates of the user's current loans, for the calendar (docs/calendar.md): each
     * loan's repayment day (Hong Kong, `YYYY-MM-DD`) and the last day of its overdue grace, the
     * repayment day + `overdueGraceDays` of the settings (the overdue job liquidates the day after).
     * `outstandingPrincipal`: decimal text of the loan coin. At most a few dozen rows per user.
     */
    async calendarDatesOf(userId: string): Promise<LoanCalendarDates[]> {
      const settings = await loadSettings(db);
      const rows = await db
        .select()
        .from(loans)
        .where(and(eq(loans.userId, userId), inArray(loans.status, [...LOAN_CURRENT_STATUSES])));
      return rows.map((row) => ({
        orderId: String(row.id),
        loanCoin: row.loanCoin as LoanCoin,
        outstandingPrincipal: coinText(row.outstandingPrincipalMinor, row.loanCoin as LoanCoin),
        repaymentDate: row.repaymentDate,
        graceEndDate: addDays(row.repaymentDate, settings.overdueGraceDays),
        graceDays: settings.overdueGraceDays,
      }));
    },

    /** `GET loan/repay/record`. */
    async repayRecords(
      userId: string,
      query: PageQuery & { loanCoin?: string; createTime?: [string, string]; orderId?: string },
    ): Promise<Page<LoanRepayRecord>> {
      return pageOf(db, loanRepayments, historyConditions(loanRepayments, userId, query), query, toRepayRecord);
    },

    /** `GET loan/adjust/record`. */
    async adjustRecords(
      userId: string,
      query: PageQuery & { createTime?: [string, string]; orderId?: string; direction?: string },
    ): Promise<Page<LoanAdjustRecord>> {
      return pageOf(
        db,
        loanAdjustments,
        [
          ...historyConditions(loanAdjustments, userId, { ...query, loanCoin: undefined }),
          query.direction ? eq(loanAdjustments.direction, query.direction) : undefined,
        ],
        query,
        toAdjustRecord,
      );
    },

    /** `GET loan/liquidation/record`. */
    async liquidationRecords(
      userId: string,
      query: PageQuery & { loanCoin?: string; createTime?: [string, string]; orderId?: string },
    ): Promise<Page<LoanLiquidationRecord>> {
      return pageOf(
        db,
        loanLiquidations,
        historyConditions(loanLiquidations, userId, query),
        query,
        toLiquidationRecord,
      );
    },
  };
}
