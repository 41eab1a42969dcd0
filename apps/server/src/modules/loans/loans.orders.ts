import {
  LOAN_CURRENT_STATUSES,
  LOAN_STATUS,
  type LoanAdjustCalc,
  type LoanAdjustRecord,
  type LoanCoin,
  type LoanOrder,
  type LoanRepayCalc,
  type LoanRepayRecord,
  type LoanRepayType,
  type ParsedLoanAdjustBody,
  type ParsedLoanBorrowBody,
  type ParsedLoanRepayBody,
} from '@meridian/contracts/loans';
import { toDecimalString } from '@meridian/contracts/money';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer } from '../ledger/ledger.types.ts';
import { adjustedMessage, borrowedMessage, repaidMessage } from './loans.messages.ts';
import {
  assertOpen,
  btcText,
  coinText,
  collateralAccount,
  type FactorCheck,
  liquidationPriceOf,
  loadCoin,
  loadOwnLoan,
  loadSettings,
  loadTerm,
  type LoanRow,
  ltvText,
  MICRO_PER_CENT,
  NO_FACTORS,
  toOrder,
  transition,
  walletBtc,
  walletCoin,
} from './loans.internal.ts';
import {
  bpsToPct,
  collateralFor,
  debtOf,
  isLtvWithin,
  isOpenLoan,
  ltvOf,
  priceAtLtv,
  priceText,
  repaymentDateOf,
  termInterest,
} from './loans.rules.ts';
import { loans } from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';
import { requireKey, toAdjustRecord, toRepayRecord, tryPrice } from './loans.records.ts';
import { createRepayments } from './loans.repayments.ts';

/** The user's money-moving calls on loans: borrow, repay and adjust collateral, with their previews. */
export function createOrdersService(deps: LoansContext) {
  const { db, engine } = deps;
  const { bringUpToDate, planRepay, applyRepayment } = createRepayments(deps);

  /** The user's outstanding principal over current loans, in micro units (stablecoins at 1 USD). */
  async function outstandingOf(tx: DbOrTx, userId: string): Promise<bigint> {
    const [row] = await tx
      .select({ total: sql<string>`coalesce(sum(${loans.outstandingPrincipalMinor}), 0)::text` })
      .from(loans)
      .where(and(eq(loans.userId, userId), inArray(loans.status, [...LOAN_CURRENT_STATUSES])));
    return BigInt(row?.total ?? '0');
  }

  return {
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
      const price0 = query.repayType === 'COLLATERAL' ? await deps.btcPrice() : await tryPrice(deps);
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
      const price = body.repayType === 'COLLATERAL' ? await deps.btcPrice() : await tryPrice(deps);
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
      const price = body.direction === 'REMOVE' ? await deps.btcPrice() : await tryPrice(deps);
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
  };
}
