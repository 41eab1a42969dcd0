import {
  LOAN_COINS,
  LOAN_CURRENT_STATUSES,
  LOAN_STATUS,
  type LoanAdjustCalc,
  type LoanAdjustRecord,
  type LoanAsset,
  type LoanCalc,
  type LoanCoin,
  type LoanCoins,
  type LoanConfig,
  type LoanLiquidationRecord,
  type LoanOrder,
  type LoanProtection,
  type LoanRepayCalc,
  type LoanRepayRecord,
  type LoanRepayType,
  type LoanStatus,
  type ParsedLoanAdjustBody,
  type ParsedLoanBorrowBody,
  type ParsedLoanCalcQuery,
  type ParsedLoanOrderQuery,
  type ParsedLoanProtectionBody,
  type ParsedLoanRepayBody,
} from '@meridian/contracts/loans';
import { toDecimalString } from '@meridian/contracts/money';
import { type Page, type PageQuery, totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import { createLoanEngine, type EnginePrice, type PriceEventReport } from './loans.engine.ts';
import { moneyParam } from '../notices/notices.service.ts';
import { adjustedMessage, borrowedMessage, protectionMessage, repaidMessage } from './loans.messages.ts';
import {
  assertOpen,
  btcText,
  COLLATERAL,
  coinText,
  collateralAccount,
  type FactorCheck,
  liquidationPriceOf,
  loadCoin,
  loadOwnLoan,
  loadSettings,
  loadTerm,
  loadTerms,
  type LoanPrice,
  type LoanRow,
  type LoansDeps,
  ltvText,
  mergePostings,
  NO_FACTORS,
  paymentPostings,
  protectedLoanIds,
  repaidStatusOn,
  type SettingsRow,
  toOrder,
  transition,
  walletBtc,
  walletCoin,
} from './loans.internal.ts';
import {
  addDays,
  bpsToPct,
  collateralFor,
  dailyRatePct,
  daysBetween,
  feeOf,
  debtOf,
  isLtvWithin,
  isOpenLoan,
  ltvOf,
  maxPrincipalFor,
  overdueInterest,
  type PaymentSplit,
  priceAtLtv,
  priceText,
  proceedsOf,
  repaymentDateOf,
  satoshiFor,
  splitPayment,
  termInterest,
} from './loans.rules.ts';
import {
  loanAdjustments,
  loanCoins,
  loanLiquidations,
  loanProtections,
  loanRepayments,
  loans,
  loanSettings,
  loanTerms,
} from './loans.tables.ts';

export type { FactorCheck, LoanPrice } from './loans.internal.ts';

/** Default rules, seeded once. Editable afterwards with `updateSettings`. */
export const LOAN_DEFAULTS = {
  terms: [
    { termDays: 30, annualRateBps: 1200 },
    { termDays: 90, annualRateBps: 1000 },
    { termDays: 180, annualRateBps: 900 },
    { termDays: 360, annualRateBps: 800 },
  ],
  /** 100 of the coin minimum; pool capacity 50,000,000 of each coin. */
  coins: LOAN_COINS.map((coin, index) => ({
    coin,
    minPrincipalMinor: 100_000_000n,
    poolCapacityMinor: 50_000_000_000_000n,
    sortOrder: index,
  })),
  settings: {
    id: 1,
    initialLtvBps: 7000,
    marginCallLtvBps: 8000,
    liquidationLtvBps: 9000,
    alertLevelsBps: [7500, 8000, 8500],
    alertRearmBps: 200,
    maxOutstandingUsdMinor: 100_000_000n,
    liquidationFeeBps: 200,
    earlyRepayFeeBps: 200,
    overdueGraceDays: 3,
    overdueRateMultiplier: 3,
    /** docs/decisions/0005-margin-call-before-liquidation.md: 60 minutes to cure, 95 % liquidates at once. */
    cureWindowMinutes: 60,
    hardLiquidationLtvBps: 9500,
  },
};

/** Micro units (loan coins) per USD cent. */
const MICRO_PER_CENT = 10_000n;

type RepayPlan = {
  split: PaymentSplit;
  collateralSoldMinor: bigint;
  collateralReleasedMinor: bigint;
  statusAfter: LoanStatus;
  debtAfterMinor: bigint;
  collateralAfterMinor: bigint;
  price: LoanPrice | null;
};

/**
 * Loans (`loan/*`). Borrow a stablecoin against BTC, repay
 * (interest first; early repayment charge), adjust collateral, protection rules, and the engine's
 * jobs (overdue, liquidation, margin-call alerts; `loans.engine.ts`). Every balance change is one
 * ledger entry posted in the transaction that writes its record (docs/loans.md).
 */
export function createLoansService(deps: LoansDeps) {
  const { db } = deps;
  const engine = createLoanEngine(deps);

  /** Accrue overdue interest up to `today` on a locked loan row (3 → 4 when past due); returns the row as updated. */
  async function bringUpToDate(tx: Tx, loan: LoanRow, settings: SettingsRow, today: string): Promise<LoanRow> {
    return engine.accrueOverdue(tx, loan, settings, today);
  }

  async function pageOf<T>(
    table: PgTable & { userId: PgColumn; id: PgColumn; createdAt: PgColumn },
    conditions: (SQL | undefined)[],
    query: PageQuery,
    map: (row: never) => T,
  ): Promise<Page<T>> {
    const where = and(...conditions);
    const [total] = await db.select({ n: count() }).from(table).where(where);
    const rows = await db
      .select()
      .from(table)
      .where(where)
      .orderBy(desc(table.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = total?.n ?? 0;
    return {
      list: rows.map((row) => map(row as never)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalPage: totalPages(totalCount, query.pageSize),
      totalCount,
    };
  }

  function historyConditions(
    table: { userId: PgColumn; loanId: PgColumn; createdAt: PgColumn; loanCoin?: PgColumn },
    userId: string,
    query: { loanCoin?: string; createTime?: [string, string]; orderId?: string },
  ): (SQL | undefined)[] {
    return [
      eq(table.userId, userId),
      query.orderId ? eq(table.loanId, Number(query.orderId)) : undefined,
      query.loanCoin && table.loanCoin ? eq(table.loanCoin, query.loanCoin) : undefined,
      query.createTime ? gte(table.createdAt, new Date(query.createTime[0])) : undefined,
      query.createTime ? lte(table.createdAt, new Date(query.createTime[1])) : undefined,
    ];
  }

  /** The user's outstanding principal over current loans, in micro units (stablecoins at 1 USD). */
  async function outstandingOf(tx: DbOrTx, userId: string): Promise<bigint> {
    const [row] = await tx
      .select({ total: sql<string>`coalesce(sum(${loans.outstandingPrincipalMinor}), 0)::text` })
      .from(loans)
      .where(and(eq(loans.userId, userId), inArray(loans.status, [...LOAN_CURRENT_STATUSES])));
    return BigInt(row?.total ?? '0');
  }

  function requireKey(idempotencyKey: string | undefined): string {
    if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
    return idempotencyKey;
  }

  async function tryPrice(): Promise<LoanPrice | null> {
    try {
      return await deps.btcPrice();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PRICE_UNAVAILABLE') return null;
      throw error;
    }
  }

  // ---------------------------------------------------------------- repay plan

  /**
   * What a repayment made now does: the split (interest first, then overdue
   * interest, then principal with the early charge before the repayment date), the BTC sold when
   * paid with collateral (rounded up at the current price), the collateral released on a full
   * repayment and the status after (6, 7 or 8).
   * `price` is fetched by the caller before any transaction (required for COLLATERAL).
   * @throws DomainError LOAN_NOT_REPAYABLE, LOAN_REPAY_TOO_MUCH, PRICE_UNAVAILABLE (collateral), INSUFFICIENT_BALANCE (collateral too small)
   */
  async function planRepay(
    loan: LoanRow,
    settings: SettingsRow,
    input: { repayType: LoanRepayType; amountMinor: bigint | undefined },
    today: string,
    price: LoanPrice | null,
  ): Promise<RepayPlan> {
    assertOpen(loan);
    const isEarly = today < loan.repaymentDate;
    const full = splitPayment(loan, undefined, isEarly, settings.earlyRepayFeeBps);
    if (input.amountMinor !== undefined && input.amountMinor > full.totalMinor)
      throw new DomainError('LOAN_REPAY_TOO_MUCH', {
        debt: coinText(full.totalMinor, loan.loanCoin),
        unit: loan.loanCoin,
      });
    const split = splitPayment(loan, input.amountMinor, isEarly, settings.earlyRepayFeeBps);
    if (split.totalMinor <= 0n) throw new FieldError('amount', 'validation.amountPositive');
    let collateralSoldMinor = 0n;
    if (input.repayType === 'COLLATERAL') {
      if (!price) throw new DomainError('PRICE_UNAVAILABLE');
      collateralSoldMinor = satoshiFor(split.totalMinor, price.priceUsd);
      if (collateralSoldMinor > loan.collateralMinor) throw new DomainError('INSUFFICIENT_BALANCE');
    }
    const collateralLeft = loan.collateralMinor - collateralSoldMinor;
    const afterStatus = split.isFull ? repaidStatusOn(today, loan.repaymentDate) : (loan.status as LoanStatus);
    return {
      split,
      collateralSoldMinor,
      collateralReleasedMinor: split.isFull ? collateralLeft : 0n,
      statusAfter: afterStatus,
      debtAfterMinor: debtOf(loan) - (split.totalMinor - split.feeMinor),
      collateralAfterMinor: split.isFull ? 0n : collateralLeft,
      price,
    };
  }

  function toRepayRecord(row: typeof loanRepayments.$inferSelect): LoanRepayRecord {
    const coin = row.loanCoin;
    return {
      id: String(row.id),
      orderId: String(row.loanId),
      loanCoin: coin as LoanCoin,
      repayType: row.repayType as LoanRepayType,
      origin: row.origin as LoanRepayRecord['origin'],
      amount: coinText(row.amountMinor, coin),
      interest: coinText(row.interestMinor, coin),
      overdueInterest: coinText(row.overdueInterestMinor, coin),
      principal: coinText(row.principalMinor, coin),
      fee: coinText(row.feeMinor, coin),
      collateralSold: btcText(row.collateralSoldMinor),
      collateralReleased: btcText(row.collateralReleasedMinor),
      price: row.price,
      statusAfter: row.statusAfter as LoanStatus,
      createTime: row.createdAt.toISOString(),
    };
  }

  function toAdjustRecord(row: typeof loanAdjustments.$inferSelect): LoanAdjustRecord {
    return {
      id: String(row.id),
      orderId: String(row.loanId),
      direction: row.direction as LoanAdjustRecord['direction'],
      origin: row.origin as LoanAdjustRecord['origin'],
      collateralCoin: COLLATERAL,
      amount: btcText(row.amountMinor),
      collateralAfter: btcText(row.collateralAfterMinor),
      ltvBeforePct: row.ltvBefore,
      ltvAfterPct: row.ltvAfter,
      price: row.price,
      createTime: row.createdAt.toISOString(),
    };
  }

  function toLiquidationRecord(row: typeof loanLiquidations.$inferSelect): LoanLiquidationRecord {
    const coin = row.loanCoin;
    return {
      id: String(row.id),
      orderId: String(row.loanId),
      kind: row.kind as LoanLiquidationRecord['kind'],
      loanCoin: coin as LoanCoin,
      price: row.price,
      priceSources: row.priceSources,
      collateralSold: btcText(row.collateralSoldMinor),
      fee: coinText(row.feeMinor, coin),
      debtRepaid: coinText(row.debtRepaidMinor, coin),
      collateralReturned: btcText(row.collateralReturnedMinor),
      shortfall: coinText(row.shortfallMinor, coin),
      principalRepaid: row.principalRepaidMinor === null ? null : coinText(row.principalRepaidMinor, coin),
      interestRepaid: row.interestRepaidMinor === null ? null : coinText(row.interestRepaidMinor, coin),
      principalLoss: row.principalLossMinor === null ? null : coinText(row.principalLossMinor, coin),
      ltvBeforePct: row.ltvBefore,
      ltvAfterPct: row.ltvAfter,
      statusAfter: row.statusAfter as LoanStatus,
      createTime: row.createdAt.toISOString(),
    };
  }

  function toProtection(row: typeof loanProtections.$inferSelect, coin: string): LoanProtection {
    return {
      orderId: String(row.loanId),
      isEnabled: row.isEnabled,
      action: row.action as LoanProtection['action'],
      triggerLtvPct: row.triggerLtvBps / 100,
      targetLtvPct: row.targetLtvBps / 100,
      maxAmount: row.action === 'ADD_COLLATERAL' ? btcText(row.maxAmountMinor) : coinText(row.maxAmountMinor, coin),
      repaySource: row.repaySource as LoanProtection['repaySource'],
      lastRunTime: row.lastRunAt?.toISOString() ?? null,
      updateTime: row.updatedAt.toISOString(),
    };
  }

  /**
   * Protection rules, run by the engine before alerts and liquidation: each enabled rule
   * whose loan's LTV reached its trigger adds collateral from the wallet (ADD_COLLATERAL) or repays
   * (REPAY) from the wallet's loan coin or, with `repaySource` FUND, from current-fund shares
   * redeemed 1:1 into the wallet first (a FUND_REDEEM entry and a fund history line, whole cents
   * rounded up: a sub-cent rest stays in the wallet), up to its maximum and what the source holds,
   * to bring the LTV back to its target. Each run is the repayment's or adjustment's entry, a record
   * (origin PROTECTION) and a message, in the engine's transaction.
   * Candidates: liquidation price × liquidation LTV ≥ price × trigger.
   */
  async function runProtections(tx: Tx, settings: SettingsRow, price: LoanPrice, event: string): Promise<number> {
    const p = price.priceUsd.toFixed();
    const rows = await tx
      .select({ loan: loans, rule: loanProtections })
      .from(loanProtections)
      .innerJoin(loans, eq(loans.id, loanProtections.loanId))
      .where(
        and(
          eq(loanProtections.isEnabled, true),
          inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]),
          sql`${loans.liquidationPrice} * ${settings.liquidationLtvBps} >= ${p}::numeric * ${loanProtections.triggerLtvBps}`,
        ),
      )
      .limit(500)
      .for('update', { of: loans, skipLocked: true });
    let runs = 0;
    const today = hongKongDay(deps.now());
    for (const { loan, rule } of rows) {
      const coin = loan.loanCoin as LoanCoin;
      const debt = debtOf(loan);
      const ltvBefore = ltvText(debt, loan.collateralMinor, price.priceUsd);
      let amountMinor: bigint;
      let unit: string = COLLATERAL;
      if (rule.action === 'ADD_COLLATERAL') {
        const need = collateralFor(debt, price.priceUsd, rule.targetLtvBps) - loan.collateralMinor;
        const held = await accountBalance(tx, walletBtc(loan.userId));
        amountMinor = [need, rule.maxAmountMinor, held].reduce((a, b) => (a < b ? a : b));
        if (amountMinor <= 0n) continue;
        await engine.applyAdjustment(tx, loan, settings, {
          direction: 'ADD',
          amountMinor,
          origin: 'PROTECTION',
          price: price.priceUsd,
          idempotencyKey: `protection:${event}`,
          requestHash: 'protection',
        });
      } else {
        unit = coin;
        const keep = (proceedsOf(loan.collateralMinor, price.priceUsd) * BigInt(rule.targetLtvBps)) / 10_000n;
        // The debt must fall by `debt − keep`; before the repayment date the principal part also pays
        // its early charge, which does not lower the debt, so it is offered on top.
        const reduction = debt - keep;
        const unpaidInterest =
          loan.interestMinor - loan.interestPaidMinor + (loan.overdueInterestMinor - loan.overdueInterestPaidMinor);
        const principalPart = reduction > unpaidInterest ? reduction - unpaidInterest : 0n;
        const need = reduction + (today < loan.repaymentDate ? feeOf(principalPart, settings.earlyRepayFeeBps) : 0n);
        const wanted = need < rule.maxAmountMinor ? need : rule.maxAmountMinor;
        const held =
          rule.repaySource === 'FUND'
            ? ((await deps.redeemCurrentFund?.(tx, loan.userId, coin, wanted, `${event}:${loan.id}`)) ?? 0n)
            : await accountBalance(tx, walletCoin(loan.userId, coin));
        const offered = wanted < held ? wanted : held;
        if (offered <= 0n) continue;
        const plan = await planRepay(loan, settings, { repayType: 'WALLET', amountMinor: offered }, today, price);
        amountMinor = plan.split.totalMinor;
        if (amountMinor <= 0n) continue;
        await applyRepayment(tx, loan, settings, plan, {
          repayType: 'WALLET',
          origin: 'PROTECTION',
          idempotencyKey: `protection:${event}`,
          requestHash: 'protection',
        });
      }
      const [after] = await tx.select().from(loans).where(eq(loans.id, loan.id));
      await tx.update(loanProtections).set({ lastRunAt: deps.now() }).where(eq(loanProtections.loanId, loan.id));
      await deps.notifyMany(
        [
          {
            userId: loan.userId,
            category: 'LOAN',
            ...protectionMessage,
            params: {
              orderId: String(loan.id),
              ltvBefore,
              ltvAfter:
                after && isOpenLoan(after.status)
                  ? ltvText(debtOf(after), after.collateralMinor, price.priceUsd)
                  : '0.00',
              action: rule.action === 'ADD_COLLATERAL' ? '+' : '-',
              amount: moneyParam(unit === COLLATERAL ? btcText(amountMinor) : coinText(amountMinor, unit), unit, {
                unit: 'none',
              }),
              unit,
            },
            link: '/loan',
          },
        ],
        tx,
      );
      runs += 1;
    }
    return runs;
  }

  return {
    engine,

    /** One price event of the engine (job `loans.engine`; tests call it with a transaction). */
    runPriceEvent: (tx: Tx, prepared: EnginePrice, now: Date) =>
      engine.runPriceEvent(tx, prepared, now, runProtections),

    /** The overdue job's run (job `loans.overdue`). */
    runOverdue: (tx: Tx, prepared: EnginePrice, now: Date) => engine.runOverdue(tx, prepared, now),

    /** One price event at the current price in its own transaction (tests, the replay CLI). */
    async tickEngine(options: { asLeader?: boolean } = {}): Promise<PriceEventReport | null> {
      const prepared = await engine.preparePrice();
      return db.transaction(async (tx) => {
        if (options.asLeader) {
          // The scheduler's lock of job `loans.engine` (platform/jobs/scheduler.ts): busy → the leader is acting.
          const result = await tx.execute(
            sql`SELECT pg_try_advisory_xact_lock(${0x4a0b}, hashtext('loans.engine')) AS locked`,
          );
          const [row] = (result as unknown as { rows: { locked: boolean }[] }).rows;
          if (!row?.locked) return null;
        }
        return engine.runPriceEvent(tx, prepared, deps.now(), runProtections);
      });
    },

    /** One overdue run in its own transaction (tests, the replay CLI). */
    async tickOverdue(): Promise<{ overdue: number; liquidated: number }> {
      const prepared = await engine.preparePrice();
      return db.transaction((tx) => engine.runOverdue(tx, prepared, deps.now()));
    },

    /** Seed the default coins, terms and settings (once; existing rows are kept as edited). */
    async seed(): Promise<void> {
      await db.insert(loanSettings).values(LOAN_DEFAULTS.settings).onConflictDoNothing();
      await db.insert(loanTerms).values(LOAN_DEFAULTS.terms).onConflictDoNothing();
      await db.insert(loanCoins).values(LOAN_DEFAULTS.coins).onConflictDoNothing();
    },

    /** Edit the rules' numbers (operators, tests). The database checks keep the LTV levels ordered. */
    async updateSettings(change: Partial<Omit<typeof loanSettings.$inferInsert, 'id'>>): Promise<void> {
      await db
        .update(loanSettings)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanSettings.id, 1));
    },

    /** Edit a borrowable coin (switch off, minimum principal, pool capacity). */
    async updateCoin(coin: LoanCoin, change: Partial<Omit<typeof loanCoins.$inferInsert, 'coin'>>): Promise<void> {
      await db
        .update(loanCoins)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanCoins.coin, coin));
    },

    /** Edit a term's APR (basis points) or switch it off. */
    async updateTerm(termDays: number, change: { annualRateBps?: number; isEnabled?: boolean }): Promise<void> {
      await db
        .update(loanTerms)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanTerms.termDays, termDays));
    },

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
      const price = (await tryPrice())?.priceUsd ?? null;
      const page = await pageOf(loans, conditions, query, (row: LoanRow) => row);
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
      const price = await tryPrice();
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

    /**
     * `POST loan/borrow`: pledge `collateralMinor` satoshi and borrow `principalMinor` of
     * the loan coin for `termDays`. Checks: coin enabled, minimum principal, LTV (principal + term
     * interest) ÷ collateral value ≤ initial LTV (70 %), the user's outstanding principal ≤ maximum
     * (1,000,000 USD), the wallet holds the BTC, the pool can lend it. Then ONE journal entry (kind
     * LOAN_BORROW): wallet BTC → loan collateral, lending pool → wallet loan coin; the order goes
     * 0 → 2 → 3 in the same transaction. A pool short of liquidity records the order as 1 (fail).
     * Replays under the same `Idempotency-Key` are answered by the route layer's one store before this
     * runs (docs/api.md "Idempotency"), and `settleAnswer` stores the answer in the borrow's
     * transaction; a key whose order failed for want of liquidity refuses again.
     * @throws DomainError LOAN_COIN_DISABLED, LOAN_BELOW_MIN, LOAN_LTV_TOO_HIGH, LOAN_ABOVE_MAX, LOAN_POOL_INSUFFICIENT, INSUFFICIENT_BALANCE, PRICE_UNAVAILABLE, ACCOUNT_FROZEN, CONFLICT, CAPTCHA_FAILED
     */
    async borrow(
      userId: string,
      body: Pick<ParsedLoanBorrowBody, 'loanCoin' | 'termDays'> & { collateralMinor: bigint; principalMinor: bigint },
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<LoanOrder> {
      const key = requireKey(idempotencyKey);
      // A key whose order failed for want of liquidity stays failed (the order row holds the key).
      const [failed] = await db
        .select()
        .from(loans)
        .where(and(eq(loans.userId, userId), eq(loans.idempotencyKey, key), eq(loans.status, LOAN_STATUS.FAIL)));
      if (failed)
        throw new DomainError('LOAN_POOL_INSUFFICIENT', {
          amount: coinText(failed.principalMinor, failed.loanCoin),
          unit: failed.loanCoin,
        });
      const settings = await loadSettings(db);
      const coin = await loadCoin(db, body.loanCoin);
      const term = await loadTerm(db, body.termDays);
      const principal = body.principalMinor;
      if (principal < coin.minPrincipalMinor)
        throw new DomainError('LOAN_BELOW_MIN', {
          amount: coinText(coin.minPrincipalMinor, coin.coin),
          unit: coin.coin,
        });
      const price = await deps.btcPrice();
      const interest = termInterest(principal, term.annualRateBps, term.termDays);
      const debt = principal + interest;
      const ltv = ltvOf(debt, body.collateralMinor, price.priceUsd);
      if (!isLtvWithin(ltv, settings.initialLtvBps))
        throw new DomainError('LOAN_LTV_TOO_HIGH', {
          ltv: ltvText(debt, body.collateralMinor, price.priceUsd),
          max: bpsToPct(settings.initialLtvBps),
        });
      const maxMicro = settings.maxOutstandingUsdMinor * MICRO_PER_CENT;
      const aboveMax = () =>
        new DomainError('LOAN_ABOVE_MAX', {
          amount: toDecimalString(settings.maxOutstandingUsdMinor, 'USD'),
          unit: 'USD',
        });
      if ((await outstandingOf(db, userId)) + principal > maxMicro) throw aboveMax();
      await deps.assertNotFrozen(userId);
      if ((await accountBalance(db, walletBtc(userId))) < body.collateralMinor)
        throw new DomainError('INSUFFICIENT_BALANCE');
      await factors.check();
      const now = deps.now();
      const repaymentDate = repaymentDateOf(now, term.termDays);
      let poolShort = false;
      try {
        const row = await db.transaction(async (tx) => {
          // One borrower at a time per user (the maximum) and per coin (the pool's capacity).
          await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`loans:user:${userId}`}))`);
          const lockedCoin = await loadCoin(tx, body.loanCoin, true);
          await deps.assertNotFrozen(userId, tx);
          if ((await outstandingOf(tx, userId)) + principal > maxMicro) throw aboveMax();
          const lent = -(await accountBalance(tx, platformAccount('PLATFORM_LOAN_POOL', body.loanCoin)));
          if (lent + principal > lockedCoin.poolCapacityMinor) {
            poolShort = true;
            throw new DomainError('LOAN_POOL_INSUFFICIENT', {
              amount: coinText(principal, coin.coin),
              unit: coin.coin,
            });
          }
          const [created] = await tx
            .insert(loans)
            .values({
              userId,
              status: LOAN_STATUS.INIT,
              loanCoin: body.loanCoin,
              collateralMinor: body.collateralMinor,
              principalMinor: principal,
              outstandingPrincipalMinor: principal,
              termDays: term.termDays,
              annualRateBps: term.annualRateBps,
              interestMinor: interest,
              borrowedAt: now,
              repaymentDate,
              idempotencyKey: key,
              requestHash: REQUEST_HASH_IN_STORE,
            })
            .returning();
          const processing = transition(created!.status, LOAN_STATUS.PROCESSING);
          const { entry } = await postEntry(tx, {
            kind: 'LOAN_BORROW',
            reference: `loan:${created!.id}`,
            idempotencyKey: `loan:${created!.id}:borrow`,
            postings: [
              ...transfer(walletBtc(userId), collateralAccount(userId), body.collateralMinor),
              ...transfer(
                platformAccount('PLATFORM_LOAN_POOL', body.loanCoin),
                walletCoin(userId, body.loanCoin),
                principal,
              ),
            ],
          });
          const [updated] = await tx
            .update(loans)
            .set({
              status: transition(processing, LOAN_STATUS.REPAYABLE),
              entryId: entry.id,
              liquidationPrice: liquidationPriceOf(debt, body.collateralMinor, settings, true),
              updatedAt: now,
            })
            .where(eq(loans.id, created!.id))
            .returning();
          const amounts = { principal: coinText(principal, coin.coin), interest: coinText(interest, coin.coin) };
          const loan = { userId, orderId: String(updated!.id), loanCoin: coin.coin, termDays: term.termDays };
          const collateral = btcText(body.collateralMinor);
          await deps.notifyMany([borrowedMessage({ ...loan, ...amounts, collateral, repaymentDate })], tx);
          await factors.consume(tx);
          await settleAnswer?.(tx, toOrder(updated!, settings, price.priceUsd, false));
          return updated!;
        });
        return toOrder(row, settings, price.priceUsd, false);
      } catch (error) {
        if (poolShort) {
          // Status 1 (fail) is recorded: the order existed and failed for want of liquidity.
          await db
            .insert(loans)
            .values({
              userId,
              status: transition(LOAN_STATUS.INIT, LOAN_STATUS.FAIL),
              loanCoin: body.loanCoin,
              collateralMinor: body.collateralMinor,
              principalMinor: principal,
              outstandingPrincipalMinor: 0n,
              termDays: term.termDays,
              annualRateBps: term.annualRateBps,
              interestMinor: 0n,
              borrowedAt: now,
              repaymentDate,
              closedAt: now,
              idempotencyKey: key,
              requestHash: REQUEST_HASH_IN_STORE,
            })
            .onConflictDoNothing();
        }
        throw error;
      }
    },

    /** `GET loan/repay/calc`: what `loan/repay` with the same fields would do now. */
    async repayCalc(
      userId: string,
      query: { orderId: string; repayType: LoanRepayType; amountMinor: bigint | undefined },
    ): Promise<LoanRepayCalc> {
      const settings = await loadSettings(db);
      const today = hongKongDay(deps.now());
      const stored = await loadOwnLoan(db, userId, Number(query.orderId));
      assertOpen(stored);
      const loan = engine.previewOverdue(stored, settings, today);
      const price0 = query.repayType === 'COLLATERAL' ? await deps.btcPrice() : await tryPrice();
      const plan = await planRepay(loan, settings, query, today, price0);
      const coin = loan.loanCoin;
      const price = plan.price?.priceUsd ?? null;
      const liquidationAfter =
        plan.split.isFull || plan.collateralAfterMinor === 0n
          ? null
          : priceAtLtv(plan.debtAfterMinor, plan.collateralAfterMinor, settings.liquidationLtvBps);
      return {
        orderId: String(loan.id),
        loanCoin: coin as LoanCoin,
        repayType: query.repayType,
        amount: coinText(plan.split.totalMinor, coin),
        interest: coinText(plan.split.interestMinor, coin),
        overdueInterest: coinText(plan.split.overdueInterestMinor, coin),
        principal: coinText(plan.split.principalMinor, coin),
        fee: coinText(plan.split.feeMinor, coin),
        isFull: plan.split.isFull,
        statusAfter: plan.statusAfter,
        collateralSold: btcText(plan.collateralSoldMinor),
        collateralReleased: btcText(plan.collateralReleasedMinor),
        debtAfter: coinText(plan.split.isFull ? 0n : plan.debtAfterMinor, coin),
        ltvAfterPct:
          plan.split.isFull || price === null ? null : ltvText(plan.debtAfterMinor, plan.collateralAfterMinor, price),
        liquidationPriceAfter: liquidationAfter ? priceText(liquidationAfter) : null,
        price: price ? priceText(price) : null,
      };
    },

    /**
     * `POST loan/repay`: repay from the wallet's loan coin (WALLET) or with collateral sold
     * at the current price (COLLATERAL; the desk PLATFORM_LOAN_LIQUIDATION buys the BTC). Interest
     * first, then principal; principal repaid before the repayment date pays the 2 % charge. A full
     * repayment closes the loan (6 before the date, 7 on it, 8 after it) and releases the rest of the
     * collateral to the wallet in the same entry (kind LOAN_REPAY). The loan row is locked, so two
     * concurrent full repayments make one; the second finds the loan closed (LOAN_NOT_REPAYABLE).
     * `settleAnswer` stores the answer in the repayment's transaction (docs/api.md "Idempotency").
     * @throws DomainError NOT_FOUND, LOAN_NOT_REPAYABLE, LOAN_REPAY_TOO_MUCH, INSUFFICIENT_BALANCE, PRICE_UNAVAILABLE, ACCOUNT_FROZEN, CONFLICT, CAPTCHA_FAILED
     */
    async repay(
      userId: string,
      body: Pick<ParsedLoanRepayBody, 'orderId' | 'repayType'> & { amountMinor: bigint | undefined },
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<LoanRepayRecord> {
      const key = requireKey(idempotencyKey);
      const loanId = Number(body.orderId);
      const settings = await loadSettings(db);
      const today = hongKongDay(deps.now());
      const preview = await loadOwnLoan(db, userId, loanId);
      const price = body.repayType === 'COLLATERAL' ? await deps.btcPrice() : await tryPrice();
      const first = await planRepay(engine.previewOverdue(preview, settings, today), settings, body, today, price);
      await deps.assertNotFrozen(userId);
      if (
        body.repayType === 'WALLET' &&
        (await accountBalance(db, walletCoin(userId, preview.loanCoin as LoanCoin))) < first.split.totalMinor
      )
        throw new DomainError('INSUFFICIENT_BALANCE');
      await factors.check();
      const record = await db.transaction(async (tx) => {
        const locked = await loadOwnLoan(tx, userId, loanId, true);
        assertOpen(locked);
        await deps.assertNotFrozen(userId, tx);
        const loan = await bringUpToDate(tx, locked, settings, today);
        const plan = await planRepay(loan, settings, body, today, price);
        const record = await applyRepayment(tx, loan, settings, plan, {
          repayType: body.repayType,
          origin: 'USER',
          idempotencyKey: key,
          requestHash: REQUEST_HASH_IN_STORE,
        });
        const repaid = { ...toRepayRecord(record), isClosed: !isOpenLoan(record.statusAfter) };
        await deps.notifyMany([repaidMessage({ userId, ...repaid })], tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, toRepayRecord(record));
        return record;
      });
      return toRepayRecord(record);
    },

    /** `GET loan/adjust/calc`: LTV and liquidation price after the change; the most removable now. */
    async adjustCalc(
      userId: string,
      query: { orderId: string; direction: 'ADD' | 'REMOVE'; amountMinor: bigint },
    ): Promise<LoanAdjustCalc> {
      const settings = await loadSettings(db);
      const loan = await loadOwnLoan(db, userId, Number(query.orderId));
      assertOpen(loan);
      const price = await deps.btcPrice();
      const debt = debtOf(loan);
      const after =
        query.direction === 'ADD' ? loan.collateralMinor + query.amountMinor : loan.collateralMinor - query.amountMinor;
      if (after < 0n) throw new DomainError('INSUFFICIENT_BALANCE');
      const needed = collateralFor(debt, price.priceUsd, settings.initialLtvBps);
      const maxRemovable = loan.collateralMinor > needed ? loan.collateralMinor - needed : 0n;
      const liquidationAfter = priceAtLtv(debt, after, settings.liquidationLtvBps);
      return {
        orderId: String(loan.id),
        direction: query.direction,
        amount: btcText(query.amountMinor),
        collateralBefore: btcText(loan.collateralMinor),
        collateralAfter: btcText(after),
        ltvBeforePct: ltvText(debt, loan.collateralMinor, price.priceUsd),
        ltvAfterPct: ltvText(debt, after, price.priceUsd),
        liquidationPriceAfter: liquidationAfter ? priceText(liquidationAfter) : '0.00',
        maxRemovable: btcText(maxRemovable),
        price: priceText(price.priceUsd),
      };
    },

    /**
     * `POST loan/adjust`: ADD collateral from the wallet at any time (also during a
     * margin call; no price needed), or REMOVE it to the wallet only while the LTV after stays ≤ the
     * initial LTV (70 %), checked on the locked loan row at the current price. One entry (kind
     * LOAN_COLLATERAL); the liquidation price is rewritten. `settleAnswer` stores the answer in its
     * transaction (docs/api.md "Idempotency").
     * @throws DomainError NOT_FOUND, LOAN_NOT_REPAYABLE, LOAN_LTV_TOO_HIGH, INSUFFICIENT_BALANCE, PRICE_UNAVAILABLE (remove), ACCOUNT_FROZEN, CONFLICT, CAPTCHA_FAILED
     */
    async adjust(
      userId: string,
      body: Pick<ParsedLoanAdjustBody, 'orderId' | 'direction'> & { amountMinor: bigint },
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<LoanAdjustRecord> {
      const key = requireKey(idempotencyKey);
      const loanId = Number(body.orderId);
      const settings = await loadSettings(db);
      const preview = await loadOwnLoan(db, userId, loanId);
      assertOpen(preview);
      const price = body.direction === 'REMOVE' ? await deps.btcPrice() : await tryPrice();
      const checkRemoval = (loan: LoanRow) => {
        if (body.direction !== 'REMOVE') return;
        if (body.amountMinor > loan.collateralMinor) throw new DomainError('INSUFFICIENT_BALANCE');
        const debt = debtOf(loan);
        const after = loan.collateralMinor - body.amountMinor;
        if (!isLtvWithin(ltvOf(debt, after, price!.priceUsd), settings.initialLtvBps))
          throw new DomainError('LOAN_LTV_TOO_HIGH', {
            ltv: ltvText(debt, after, price!.priceUsd),
            max: bpsToPct(settings.initialLtvBps),
          });
      };
      checkRemoval(preview);
      await deps.assertNotFrozen(userId);
      if (body.direction === 'ADD' && (await accountBalance(db, walletBtc(userId))) < body.amountMinor)
        throw new DomainError('INSUFFICIENT_BALANCE');
      await factors.check();
      const record = await db.transaction(async (tx) => {
        const loan = await loadOwnLoan(tx, userId, loanId, true);
        assertOpen(loan);
        checkRemoval(loan);
        await deps.assertNotFrozen(userId, tx);
        const record = await engine.applyAdjustment(tx, loan, settings, {
          direction: body.direction,
          amountMinor: body.amountMinor,
          origin: 'USER',
          price: price?.priceUsd ?? null,
          idempotencyKey: key,
          requestHash: REQUEST_HASH_IN_STORE,
        });
        await deps.notifyMany([adjustedMessage({ userId, ...toAdjustRecord(record) })], tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, toAdjustRecord(record));
        return record;
      });
      return toAdjustRecord(record);
    },

    /** `GET loan/repay/record`. */
    async repayRecords(
      userId: string,
      query: PageQuery & { loanCoin?: string; createTime?: [string, string]; orderId?: string },
    ): Promise<Page<LoanRepayRecord>> {
      return pageOf(loanRepayments, historyConditions(loanRepayments, userId, query), query, toRepayRecord);
    },

    /** `GET loan/adjust/record`. */
    async adjustRecords(
      userId: string,
      query: PageQuery & { createTime?: [string, string]; orderId?: string; direction?: string },
    ): Promise<Page<LoanAdjustRecord>> {
      return pageOf(
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
      return pageOf(loanLiquidations, historyConditions(loanLiquidations, userId, query), query, toLiquidationRecord);
    },

    /** `GET loan/protection`: the loan's rule, or null. @throws DomainError NOT_FOUND */
    async protection(userId: string, orderId: string): Promise<LoanProtection | null> {
      const loan = await loadOwnLoan(db, userId, Number(orderId));
      const [row] = await db.select().from(loanProtections).where(eq(loanProtections.loanId, loan.id));
      return row ? toProtection(row, loan.loanCoin) : null;
    },

    /**
     * `POST loan/protection`: set or switch off the loan's rule. The
     * engine runs enabled rules before alerts and liquidation (`loans.engine.ts`).
     * @throws DomainError NOT_FOUND, LOAN_NOT_REPAYABLE, CAPTCHA_FAILED
     */
    async setProtection(
      userId: string,
      body: Omit<
        ParsedLoanProtectionBody,
        'mfaCode' | 'emailCaptcha' | 'securityPassword' | 'maxAmountMinor' | 'repaySource'
      > & {
        maxAmountMinor: bigint;
        /** REPAY's source; WALLET when absent. */
        repaySource?: ParsedLoanProtectionBody['repaySource'];
      },
      factors: FactorCheck = NO_FACTORS,
    ): Promise<LoanProtection> {
      const loan = await loadOwnLoan(db, userId, Number(body.orderId));
      assertOpen(loan);
      await factors.check();
      const values = {
        loanId: loan.id,
        userId,
        isEnabled: body.isEnabled,
        action: body.action,
        triggerLtvBps: body.triggerLtvPct * 100,
        targetLtvBps: body.targetLtvPct * 100,
        maxAmountMinor: body.maxAmountMinor,
        repaySource: body.action === 'REPAY' ? (body.repaySource ?? 'WALLET') : 'WALLET',
        updatedAt: deps.now(),
      };
      const row = await db.transaction(async (tx) => {
        const [saved] = await tx
          .insert(loanProtections)
          .values(values)
          .onConflictDoUpdate({ target: loanProtections.loanId, set: values })
          .returning();
        await factors.consume(tx);
        return saved!;
      });
      return toProtection(row, loan.loanCoin);
    },
  };

  /**
   * Post a planned repayment on a locked, up-to-date loan row and write its record (shared by the
   * user's repayments and protection rules).
   */
  async function applyRepayment(
    tx: Tx,
    loan: LoanRow,
    settings: SettingsRow,
    plan: RepayPlan,
    meta: { repayType: LoanRepayType; origin: 'USER' | 'PROTECTION'; idempotencyKey: string; requestHash: string },
  ) {
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
    const postings: PostingInput[] = [];
    if (meta.repayType === 'WALLET') postings.push(...paymentPostings(walletCoin(userId, coin), coin, plan.split));
    else {
      postings.push(
        ...transfer(
          collateralAccount(userId),
          platformAccount('PLATFORM_LOAN_LIQUIDATION', COLLATERAL),
          plan.collateralSoldMinor,
        ),
        ...paymentPostings(platformAccount('PLATFORM_LOAN_LIQUIDATION', coin), coin, plan.split),
      );
    }
    if (plan.collateralReleasedMinor > 0n)
      postings.push(...transfer(collateralAccount(userId), walletBtc(userId), plan.collateralReleasedMinor));
    const [{ n: sequence } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(loanRepayments)
      .where(eq(loanRepayments.loanId, loan.id));
    const { entry } = await postEntry(tx, {
      kind: 'LOAN_REPAY',
      reference: `loan:${loan.id}`,
      idempotencyKey: `loan:${loan.id}:repay:${sequence + 1}`,
      postings: mergePostings(postings),
    });
    const now = deps.now();
    const split = plan.split;
    const status = split.isFull ? transition(loan.status, plan.statusAfter) : (loan.status as LoanStatus);
    const next = {
      outstandingPrincipalMinor: loan.outstandingPrincipalMinor - split.principalMinor,
      interestPaidMinor: loan.interestPaidMinor + split.interestMinor,
      overdueInterestPaidMinor: loan.overdueInterestPaidMinor + split.overdueInterestMinor,
      collateralMinor: loan.collateralMinor - plan.collateralSoldMinor - plan.collateralReleasedMinor,
    };
    await tx
      .update(loans)
      .set({
        ...next,
        status,
        feesPaidMinor: loan.feesPaidMinor + split.feeMinor,
        liquidationPrice: liquidationPriceOf(
          debtOf({ ...loan, ...next }),
          next.collateralMinor,
          settings,
          isOpenLoan(status),
        ),
        closedAt: isOpenLoan(status) ? null : now,
        ...(isOpenLoan(status)
          ? engine.curePatch(
              loan,
              debtOf({ ...loan, ...next }),
              next.collateralMinor,
              plan.price?.priceUsd ?? null,
              settings,
            )
          : { marginCallAt: null }),
        updatedAt: now,
      })
      .where(eq(loans.id, loan.id));
    const [record] = await tx
      .insert(loanRepayments)
      .values({
        loanId: loan.id,
        userId,
        loanCoin: coin,
        repayType: meta.repayType,
        origin: meta.origin,
        amountMinor: split.totalMinor,
        interestMinor: split.interestMinor,
        overdueInterestMinor: split.overdueInterestMinor,
        principalMinor: split.principalMinor,
        feeMinor: split.feeMinor,
        collateralSoldMinor: plan.collateralSoldMinor,
        collateralReleasedMinor: plan.collateralReleasedMinor,
        price: plan.price ? priceText(plan.price.priceUsd) : null,
        statusAfter: status,
        entryId: entry.id,
        idempotencyKey: meta.idempotencyKey,
        requestHash: meta.requestHash,
      })
      .returning();
    return record!;
  }
}

/** The loans service (what other modules, CLIs and tests call). */
export type LoansService = ReturnType<typeof createLoansService>;

// Re-exported for tests and the replay CLI.
export { addDays, daysBetween, overdueInterest };

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
