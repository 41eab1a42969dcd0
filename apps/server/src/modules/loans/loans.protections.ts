import {
  LOAN_STATUS,
  type LoanCoin,
  type LoanProtection,
  type ParsedLoanProtectionBody,
} from '@meridian/contracts/loans';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Tx } from '../../platform/db/client.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { moneyParam } from '../notices/notices.service.ts';
import { protectionMessage } from './loans.messages.ts';
import {
  assertOpen,
  btcText,
  COLLATERAL,
  coinText,
  type FactorCheck,
  loadOwnLoan,
  type LoanPrice,
  type LoanRow,
  ltvText,
  NO_FACTORS,
  type SettingsRow,
  walletBtc,
  walletCoin,
} from './loans.internal.ts';
import { collateralFor, feeOf, debtOf, isOpenLoan, proceedsOf } from './loans.rules.ts';
import { loanProtections, loans } from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';
import { toProtection } from './loans.records.ts';
import { createRepayments } from './loans.repayments.ts';

/**
 * Protection rules: the user's reads and edits of a loan's rule (`loan/protection`), and the run
 * the engine makes of the enabled ones on each price event (`runProtections`).
 */
export function createProtectionsService(deps: LoansContext) {
  const { db, engine } = deps;
  const { planRepay, applyRepayment } = createRepayments(deps);

  /** The message of one protection run: the LTV before and after, what was added or repaid. */
  async function notifyRun(
    tx: Tx,
    run: {
      loan: LoanRow;
      rule: typeof loanProtections.$inferSelect;
      after: LoanRow | undefined;
      ltvBefore: string;
      amountMinor: bigint;
      unit: string;
    },
    price: LoanPrice,
  ): Promise<void> {
    const { loan, rule, after, ltvBefore, amountMinor, unit } = run;
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
      await notifyRun(tx, { loan, rule, after, ltvBefore, amountMinor, unit }, price);
      runs += 1;
    }
    return runs;
  }

  return {
    runProtections,

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
}
