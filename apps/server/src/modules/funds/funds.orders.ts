import { randomBytes } from 'node:crypto';
import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import type {
  FundOrder,
  FundStablecoin,
  ParsedFundRedeemBody,
  ParsedFundSubscribeBody,
} from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import { ASSET_PRECISION } from '@meridian/contracts/money';
import { and, eq, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, requestHashOf, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer, userAccount } from '../ledger/ledger.types.ts';
import {
  currentHoldingOf,
  type FundsContext,
  loadProduct,
  lockCurrentHolding,
  moveCurrentHolding,
  type ProductRow,
  usd,
} from './funds.internal.ts';
import { isRaising } from './funds.products.ts';
import { fundHoldings, fundOrders, fundWiresOut } from './funds.tables.ts';
import { type FactorCheck, NO_FACTORS } from './funds.types.ts';
import { createOrderViews } from './funds.history.ts';

/**
 * Minor units of a stablecoin for `usdMinor` USD cents at 1:1: ×10^(6 − 2). Exact — no rounding —
 * because a fund amount has at most 2 decimals (the body is parsed as USD and refuses a third
 * decimal, 120 naming `amount`), so the precision change from 6 to 2 decimals never drops a unit.
 */
export function coinMinorOfUsd(usdMinor: bigint, coin: FundStablecoin): bigint {
  return usdMinor * 10n ** BigInt(ASSET_PRECISION[coin] - ASSET_PRECISION.USD);
}

/**
 * The two legs of redeeming `usdMinor` current-fund shares into `coin` at 1:1: the shares go back to
 * the fund pool in USD and the pool pays the coin into the user's wallet (journal entry FUND_REDEEM).
 */
function coinRedemptionPostings(userId: string, coin: FundStablecoin, usdMinor: bigint): PostingInput[] {
  return [
    ...transfer(userAccount(userId, 'USER_FUND', 'USD'), platformAccount('PLATFORM_FUND_POOL', 'USD'), usdMinor),
    ...transfer(
      platformAccount('PLATFORM_FUND_POOL', coin),
      userAccount(userId, 'USER_AVAILABLE', coin),
      coinMinorOfUsd(usdMinor, coin),
    ),
  ];
}

/** A wire reference: `MW` + 10 characters of Crockford base32 (no I, L, O, U), unique by constraint. */
export function newWireReference(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return `MW${[...randomBytes(10)].map((byte) => alphabet[byte % 32]).join('')}`;
}

/** The fund orders (subscribe, redeem, and the redemption of protection rules): parts of `createFundsService`. */
export function createOrdersService(ctx: FundsContext) {
  const { describe } = createOrderViews(ctx);

  /** Pending USD subscriptions of a user for a product (counted against the per-user limit). */
  async function pendingSubscribedMinor(db: DbOrTx, userId: string, productId: string): Promise<bigint> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${fundOrders.amountMinor}), 0)::text` })
      .from(fundOrders)
      .where(
        and(
          eq(fundOrders.userId, userId),
          eq(fundOrders.productId, productId),
          eq(fundOrders.action, 'SUBSCRIBE'),
          eq(fundOrders.status, 'PENDING'),
        ),
      );
    return BigInt(row?.total ?? '0');
  }

  /** What a user holds of a product now (current shares, or the principal of fixed orders held). */
  async function heldMinor(db: DbOrTx, userId: string, productId: string): Promise<bigint> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${fundHoldings.sharesMinor}), 0)::text` })
      .from(fundHoldings)
      .where(
        and(eq(fundHoldings.userId, userId), eq(fundHoldings.productId, productId), eq(fundHoldings.status, 'HOLDING')),
      );
    return BigInt(row?.total ?? '0');
  }

  /** @throws DomainError FUND_LIMIT_EXCEEDED (162) when `amountMinor` more would pass the product's per-user limit. */
  async function assertWithinLimit(db: DbOrTx, userId: string, product: ProductRow, amountMinor: bigint) {
    const used = (await heldMinor(db, userId, product.id)) + (await pendingSubscribedMinor(db, userId, product.id));
    if (used + amountMinor > product.limitMinor) {
      const left = product.limitMinor > used ? product.limitMinor - used : 0n;
      throw new DomainError('FUND_LIMIT_EXCEEDED', { amount: usd(left), unit: 'USD' });
    }
  }

  /** @throws DomainError FUND_COIN_OFF_PEG (168) outside the band; PRICE_UNAVAILABLE (134). */
  async function assertAtPar(coin: FundStablecoin): Promise<void> {
    if (!(await ctx.par.isAtPar(coin))) throw new DomainError('FUND_COIN_OFF_PEG', { coin });
  }

  /** The user's bound account the request names; its id is the payments module's integer, as text on the wire. */
  async function bankAccountOf(userId: string, bankAccountId: string, db?: DbOrTx) {
    const id = /^\d{1,15}$/.test(bankAccountId) ? Number(bankAccountId) : null;
    const account = id === null ? null : await ctx.bankAccounts.findBankAccount(userId, id, db);
    if (!account) throw new DomainError('FUND_BANK_ACCOUNT_NOT_FOUND', {}, { field: 'bankAccountId' });
    return account;
  }

  return {
    /**
     * `POST fund/v2/subscribe`. The current fund takes WALLET (a stablecoin at 1:1 while
     * inside its band: `amount` USD shares cost `amount` coins) and USD (a PENDING order with a
     * unique wire reference, credited when an operator records the wire); fixed funds take FUND
     * (current shares) inside their raise window. Checks in order, each refusal changing nothing:
     * product (404), action type (166), raise window (165), minimum (160), maximum (161), the
     * coin at par (168) or bank account (169), per-user limit (162), balance
     * (130), then the security factors; then one transaction: frozen account (152), the limit
     * again under the holding's row lock, the order row, one balanced journal entry, the holding,
     * the factors used up, and the answer stored by `settleAnswer` (the idempotency store's, so it
     * commits with the money: docs/api.md "Idempotency").
     * @throws DomainError as listed; CONFLICT (121) for a reused key with another body.
     */
    async subscribe(
      userId: string,
      body: ParsedFundSubscribeBody,
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      locale: Locale = 'en-US',
      settleAnswer?: SettleAnswer,
    ): Promise<FundOrder> {
      const product = await loadProduct(ctx.db, body.productId);
      const now = ctx.clock.now();
      const day = hongKongDay(now);
      const isCurrent = product.type === 'CURRENT';
      const allowed = isCurrent ? ['WALLET', 'USD'] : ['FUND'];
      if (!allowed.includes(body.actionType))
        throw new DomainError('FUND_ACTION_NOT_ALLOWED', { actionType: body.actionType });
      if (!isCurrent && !isRaising(product, day))
        throw new DomainError('FUND_NOT_RAISING', {
          from: product.raiseStartDate ?? '',
          to: product.raiseEndDate ?? '',
        });
      const amountMinor: bigint = body.amountMinor;
      if (amountMinor < product.minMinor)
        throw new DomainError('FUND_BELOW_MIN_PURCHASE', { amount: usd(product.minMinor), unit: 'USD' });
      if (amountMinor > product.maxMinor)
        throw new DomainError('FUND_ABOVE_MAX_PURCHASE', { amount: usd(product.maxMinor), unit: 'USD' });
      const coin = body.actionType === 'WALLET' ? body.coin! : null;
      const bankAccountId = body.actionType === 'USD' ? body.bankAccountId! : null;
      if (coin) await assertAtPar(coin);
      if (bankAccountId) await bankAccountOf(userId, bankAccountId);
      await assertWithinLimit(ctx.db, userId, product, amountMinor);
      if (coin) {
        const available = await accountBalance(ctx.db, userAccount(userId, 'USER_AVAILABLE', coin));
        if (available < coinMinorOfUsd(amountMinor, coin)) throw new DomainError('INSUFFICIENT_BALANCE');
      }
      if (body.actionType === 'FUND') {
        const holding = await currentHoldingOf(ctx.db, userId);
        if ((holding?.sharesMinor ?? 0n) < amountMinor) throw new DomainError('INSUFFICIENT_BALANCE');
      }
      await factors.check();

      const row = await ctx.db.transaction(async (tx) => {
        await ctx.identity.assertNotFrozen(userId, tx);
        // The user's current holding row is the lock of the user's fund orders: the limit is checked under it.
        await lockCurrentHolding(tx, userId, now);
        await assertWithinLimit(tx, userId, product, amountMinor);
        const isPending = body.actionType === 'USD';
        const [order] = await tx
          .insert(fundOrders)
          .values({
            userId,
            productId: product.id,
            action: 'SUBSCRIBE',
            actionType: body.actionType,
            coin,
            amountMinor,
            status: isPending ? 'PENDING' : isCurrent ? 'SUCCESS' : 'HOLDING',
            reference: isPending ? newWireReference() : null,
            bankAccountId,
            idempotencyKey: idempotencyKey ?? null,
            requestHash: REQUEST_HASH_IN_STORE,
            completedAt: isPending ? null : now,
            createdAt: now,
          })
          .returning();
        if (isPending) {
          await ctx.notifier.orderPlaced(order!, product, tx);
          await factors.consume(tx);
          await settleAnswer?.(tx, await describe(order!, locale, tx));
          return order!;
        }
        let postings: PostingInput[];
        if (coin) {
          postings = [
            ...transfer(
              userAccount(userId, 'USER_AVAILABLE', coin),
              platformAccount('PLATFORM_FUND_POOL', coin),
              coinMinorOfUsd(amountMinor, coin),
            ),
            ...transfer(
              platformAccount('PLATFORM_FUND_POOL', 'USD'),
              userAccount(userId, 'USER_FUND', 'USD'),
              amountMinor,
            ),
          ];
          await moveCurrentHolding(tx, userId, product.id, amountMinor, now);
        } else {
          postings = transfer(
            userAccount(userId, 'USER_FUND', 'USD'),
            userAccount(userId, 'USER_FUND_FIXED', 'USD'),
            amountMinor,
          );
          if (!(await moveCurrentHolding(tx, userId, CURRENT_PRODUCT_ID, -amountMinor, now)))
            throw new DomainError('INSUFFICIENT_BALANCE');
          const [holding] = await tx
            .insert(fundHoldings)
            .values({
              userId,
              productId: product.id,
              kind: 'FIXED',
              orderId: order!.id,
              sharesMinor: amountMinor,
              dayStartDate: day,
              createdAt: now,
              interestDate: product.interestDate,
              maturityDate: product.maturityDate,
            })
            .returning({ id: fundHoldings.id });
          await tx.update(fundOrders).set({ holdingId: holding!.id }).where(eq(fundOrders.id, order!.id));
        }
        await postEntry(tx, {
          kind: 'FUND_SUBSCRIBE',
          reference: `fund-order:${order!.id}`,
          idempotencyKey: `fund-order:${order!.id}:subscribe`,
          postings,
          metadata: { productId: product.id },
        });
        await ctx.notifier.orderPlaced(order!, product, tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, await describe(order!, locale, tx));
        return order!;
      });
      return describe(row, locale);
    },

    /**
     * `POST fund/v2/redeem`: current-fund shares to a stablecoin at 1:1 (WALLET,
     * instant, while inside its band) or to a bound bank account (USD: the shares are frozen and an
     * outgoing wire waits for a finance operator). Fixed funds cannot be redeemed early (167).
     * Checks: product, fixed (167), minimum redemption (163), more than the usable shares (164),
     * coin at par (168) / bank account (169), factors (replays are answered by the route layer's
     * one store before this runs, docs/api.md "Idempotency"); then one transaction in which the
     * holding's conditional update refuses a second concurrent redemption of the same shares (164),
     * and which stores the answer by `settleAnswer` (the idempotency store's: docs/api.md "Idempotency").
     */
    async redeem(
      userId: string,
      body: ParsedFundRedeemBody,
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      locale: Locale = 'en-US',
      settleAnswer?: SettleAnswer,
    ): Promise<FundOrder> {
      // A product closed to new subscriptions (an operator's switch) still redeems.
      const product = await loadProduct(ctx.db, body.productId, { isOpenOnly: false });
      if (product.type === 'FIXED')
        throw new DomainError('FUND_NO_EARLY_REDEMPTION', { maturityDate: product.maturityDate ?? '' });
      const amountMinor: bigint = body.amountMinor;
      const now = ctx.clock.now();
      if (product.redeemMinMinor !== null && amountMinor < product.redeemMinMinor)
        throw new DomainError('FUND_BELOW_MIN_REDEEM', { amount: usd(product.redeemMinMinor), unit: 'USD' });
      const usable = (await currentHoldingOf(ctx.db, userId))?.sharesMinor ?? 0n;
      if (amountMinor > usable) throw new DomainError('FUND_ABOVE_MAX_REDEEM', { amount: usd(usable), unit: 'USD' });
      const coin = body.actionType === 'WALLET' ? body.coin! : null;
      const bankAccountId = body.actionType === 'USD' ? body.bankAccountId! : null;
      if (coin) await assertAtPar(coin);
      const bankAccount = bankAccountId ? await bankAccountOf(userId, bankAccountId) : null;
      await factors.check();

      const row = await ctx.db.transaction(async (tx) => {
        await ctx.identity.assertNotFrozen(userId, tx);
        const moved = await moveCurrentHolding(tx, userId, product.id, -amountMinor, now);
        if (!moved) {
          const left = (await currentHoldingOf(tx, userId))?.sharesMinor ?? 0n;
          throw new DomainError('FUND_ABOVE_MAX_REDEEM', { amount: usd(left), unit: 'USD' });
        }
        const reference = bankAccount ? newWireReference() : null;
        const [order] = await tx
          .insert(fundOrders)
          .values({
            userId,
            productId: product.id,
            action: 'REDEEM',
            actionType: body.actionType,
            coin,
            amountMinor,
            status: bankAccount ? 'PENDING' : 'SUCCESS',
            reference,
            bankAccountId,
            idempotencyKey: idempotencyKey ?? null,
            requestHash: REQUEST_HASH_IN_STORE,
            completedAt: bankAccount ? null : now,
            createdAt: now,
          })
          .returning();
        const postings: PostingInput[] = coin
          ? coinRedemptionPostings(userId, coin, amountMinor)
          : transfer(
              userAccount(userId, 'USER_FUND', 'USD'),
              userAccount(userId, 'USER_FUND_FROZEN', 'USD'),
              amountMinor,
            );
        await postEntry(tx, {
          kind: coin ? 'FUND_REDEEM' : 'FUND_WIRE_OUT',
          reference: `fund-order:${order!.id}`,
          idempotencyKey: `fund-order:${order!.id}:redeem`,
          postings,
          metadata: { productId: product.id },
        });
        if (bankAccount) {
          await tx.insert(fundWiresOut).values({
            orderId: order!.id,
            userId,
            reference: reference!,
            amountMinor,
            bankAccountId: bankAccountId!,
            bankAccount,
          });
        }
        await ctx.notifier.orderPlaced(order!, product, tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, await describe(order!, locale, tx));
        return order!;
      });
      return describe(row, locale);
    },

    /**
     * A loan's protection rule repaying from the current fund, inside the loan engine's
     * transaction `tx`: redeem enough current-fund shares for `coinMinor` of `coin` — whole cents,
     * rounded up, at most the shares the user holds — into the user's wallet, as a REDEEM/WALLET
     * order of the fund's history and one FUND_REDEEM journal entry keyed by `reference`. No
     * security check: the user set the rule behind one. Nothing moves when the coin is off its peg
     * (the redemption is 1:1 only at par) or the user holds no shares.
     * @returns the coin's minor units credited to the wallet (≥ `coinMinor` unless the shares ran
     *   short; 0 when nothing moved). A `reference` already used answers 0 and moves nothing.
     */
    async redeemForLoanProtection(
      tx: DbOrTx,
      userId: string,
      coin: FundStablecoin,
      coinMinor: bigint,
      reference: string,
    ): Promise<bigint> {
      if (coinMinor <= 0n || !(await ctx.par.isAtPar(coin))) return 0n;
      const unit = 10n ** BigInt(ASSET_PRECISION[coin] - ASSET_PRECISION.USD);
      const usable = (await currentHoldingOf(tx, userId))?.sharesMinor ?? 0n;
      const wantedMinor = (coinMinor + unit - 1n) / unit;
      const sharesMinor = wantedMinor < usable ? wantedMinor : usable;
      if (sharesMinor <= 0n) return 0n;
      const idempotencyKey = `loan-protection:${reference}`;
      const [used] = await tx
        .select({ id: fundOrders.id })
        .from(fundOrders)
        .where(and(eq(fundOrders.userId, userId), eq(fundOrders.idempotencyKey, idempotencyKey)));
      if (used) return 0n;
      const now = ctx.clock.now();
      if (!(await moveCurrentHolding(tx, userId, CURRENT_PRODUCT_ID, -sharesMinor, now))) return 0n;
      const [order] = await tx
        .insert(fundOrders)
        .values({
          userId,
          productId: CURRENT_PRODUCT_ID,
          action: 'REDEEM',
          actionType: 'WALLET',
          coin,
          amountMinor: sharesMinor,
          status: 'SUCCESS',
          idempotencyKey,
          requestHash: requestHashOf({ kind: 'loan-protection', reference, coin, sharesMinor }),
          completedAt: now,
          createdAt: now,
        })
        .returning();
      await postEntry(tx, {
        kind: 'FUND_REDEEM',
        reference: `fund-order:${order!.id}`,
        idempotencyKey: `fund-order:${order!.id}:redeem`,
        postings: coinRedemptionPostings(userId, coin, sharesMinor),
        metadata: { productId: CURRENT_PRODUCT_ID, loanProtection: reference },
      });
      return coinMinorOfUsd(sharesMinor, coin);
    },
  };
}
