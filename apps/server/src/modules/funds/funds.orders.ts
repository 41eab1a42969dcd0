import { randomBytes } from 'node:crypto';
import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import type {
  FundAsset,
  FundEarningsDay,
  FundOrder,
  FundOrderQuery,
  FundStablecoin,
  ParsedFundRedeemBody,
  ParsedFundSubscribeBody,
} from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import { ASSET_PRECISION, type AssetCode } from '@meridian/contracts/money';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows, rowOfTable } from '../../platform/db/rows.ts';
import { REQUEST_HASH_IN_STORE, requestHashOf, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer, userAccount } from '../ledger/ledger.types.ts';
import { addDays } from './funds.interest.ts';
import {
  currentHoldingOf,
  type FundsContext,
  interestSharesOn,
  loadProduct,
  lockCurrentHolding,
  moveCurrentHolding,
  productName,
  type ProductRow,
  usd,
} from './funds.internal.ts';
import { isRaising } from './funds.products.ts';
import { fundAccruals, fundHoldings, fundOrders, fundProducts, fundWiresOut } from './funds.tables.ts';
import { type FactorCheck, NO_FACTORS } from './funds.types.ts';

type OrderRow = typeof fundOrders.$inferSelect;

/**
 * `WITH … lines AS (…)`: the user's fund history as `fund_orders` rows (plus `line_id` text), the
 * stored rows and the INTEREST line of each monthly payout of the user's current holding. A payout
 * writes one `fund_payout_batches` row per id batch instead of a row per holding (docs/funds.md
 * "Benchmark"), so a line is read back: for each month whose batch covers the holding's id (the
 * earliest batch when two processes covered it), the amount paid is what the payout kept on the
 * holding (`last_payout_minor`) for its last payout month, and for an earlier month the holding's
 * accruals from the previous payout's month up to that month — exactly what that payout paid,
 * because a payout runs only once every day before its month is accrued and pays all of them.
 * Months paid nothing (0) have no line. Old payouts' stored INTEREST rows stay as they are; their
 * months have no batches. `id` is 0 on a read line (sorting only); `line_id` is `payout:<YYYY-MM>`.
 */
function historyLinesSql(userId: string): SQL {
  return sql`WITH h AS (
      SELECT id, last_payout_month, last_payout_minor FROM fund_holdings WHERE user_id = ${userId} AND kind = 'CURRENT'
    ), b AS (
      SELECT DISTINCT ON (pb.month) pb.month, pb.paid_at FROM fund_payout_batches pb
      JOIN h ON h.id >= pb.first_holding_id AND h.id < pb.end_holding_id
      ORDER BY pb.month, pb.paid_at
    ), w AS (
      SELECT b.month, b.paid_at,
        coalesce(lag(b.month) OVER (ORDER BY b.month), (SELECT max(p.month) FROM fund_payouts p WHERE p.month < b.month)) AS from_month
      FROM b
    ), paid AS (
      SELECT w.month, w.paid_at,
        CASE WHEN w.month = h.last_payout_month THEN h.last_payout_minor
        ELSE (SELECT coalesce(sum(a.amount_minor), 0) FROM fund_accruals a
              WHERE a.holding_id = h.id AND a.day < (w.month || '-01')::date
                AND (w.from_month IS NULL OR a.day >= (w.from_month || '-01')::date)) END AS amount_minor
      FROM w CROSS JOIN h
    ), lines AS (
      SELECT o.id::text AS line_id, o.id, o.user_id, o.product_id, o.action, o.action_type, o.coin, o.amount_minor,
        o.interest_minor, o.status, o.reference, o.bank_account_id, o.holding_id, o.idempotency_key, o.request_hash,
        o.created_at, o.completed_at
      FROM fund_orders o WHERE o.user_id = ${userId}
      UNION ALL
      SELECT 'payout:' || paid.month, 0, ${userId}, ${CURRENT_PRODUCT_ID}, 'INTEREST', NULL, NULL, paid.amount_minor,
        NULL, 'SUCCESS', NULL, NULL, NULL, NULL, NULL, paid.paid_at, paid.paid_at
      FROM paid WHERE paid.amount_minor > 0
    )`;
}

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

/** The fund orders (subscribe, redeem), the asset view, the history and the earnings: parts of `createFundsService`. */
export function createOrdersService(ctx: FundsContext) {
  const today = () => hongKongDay(ctx.clock.now());

  /** The ids of a user's holdings: the way to the user's accruals (`fund_accruals` is keyed by holding). */
  const holdingIdsOf = (userId: string) =>
    ctx.db.select({ id: fundHoldings.id }).from(fundHoldings).where(eq(fundHoldings.userId, userId));

  async function productNames(locale: Locale): Promise<Map<string, string>> {
    const rows = await ctx.db.select().from(fundProducts);
    return new Map(rows.map((row) => [row.id, productName(row, locale)]));
  }

  function toFundOrder(
    row: OrderRow,
    names: Map<string, string>,
    products?: Map<string, ProductRow>,
    lineId = String(row.id),
  ): FundOrder {
    const product = products?.get(row.productId);
    return {
      id: lineId,
      productId: row.productId,
      productName: names.get(row.productId) ?? row.productId,
      type: row.productId === CURRENT_PRODUCT_ID || product?.type === 'CURRENT' ? 'CURRENT' : 'FIXED',
      action: row.action,
      actionType: row.actionType,
      coin: (row.coin as AssetCode | null) ?? null,
      amount: usd(row.amountMinor),
      interest: row.interestMinor === null ? null : usd(row.interestMinor),
      status: row.status,
      interestDate: product?.type === 'FIXED' ? product.interestDate : null,
      maturityDate: product?.type === 'FIXED' ? product.maturityDate : null,
      wire:
        row.actionType === 'USD' && row.reference
          ? { reference: row.reference, receivingAccount: ctx.receivingAccount }
          : null,
      createTime: row.createdAt.toISOString(),
      completeTime: row.completedAt?.toISOString() ?? null,
    };
  }

  async function describe(row: OrderRow, locale: Locale, db: DbOrTx = ctx.db): Promise<FundOrder> {
    const products = new Map((await db.select().from(fundProducts)).map((p) => [p.id, p]));
    const names = new Map([...products].map(([id, p]) => [id, productName(p, locale)]));
    return toFundOrder(row, names, products);
  }

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

    /** `GET fund/v2/asset` for the caller, on today's Hong Kong calendar. */
    async asset(userId: string): Promise<FundAsset> {
      const day = today();
      const holdings = await ctx.db.select().from(fundHoldings).where(eq(fundHoldings.userId, userId));
      const current = holdings.find((h) => h.kind === 'CURRENT');
      const fixed = holdings.filter((h) => h.kind === 'FIXED');
      const held = fixed.filter((h) => h.status === 'HOLDING');
      const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
      const [frozen] = await ctx.db
        .select({ total: sql<string>`coalesce(sum(${fundWiresOut.amountMinor}), 0)::text` })
        .from(fundWiresOut)
        .where(and(eq(fundWiresOut.userId, userId), eq(fundWiresOut.status, 'PENDING')));
      const frozenMinor = BigInt(frozen?.total ?? '0');
      const [yesterday] = await ctx.db
        .select({ total: sql<string>`coalesce(sum(${fundAccruals.amountMinor}), 0)::text` })
        .from(fundAccruals)
        .where(and(inArray(fundAccruals.holdingId, holdingIdsOf(userId)), eq(fundAccruals.day, addDays(day, -1))));
      const currentShares = current?.sharesMinor ?? 0n;
      const currentInterest = current ? interestSharesOn(current, day) : 0n;
      const fixedShares = sum(held.map((h) => h.sharesMinor));
      const fixedUnInterest = sum(held.filter((h) => (h.interestDate ?? '') > day).map((h) => h.sharesMinor));
      const currentUnsettled = current?.unsettledMinor ?? 0n;
      const fixedUnsettled = sum(held.map((h) => h.unsettledMinor));
      const currentPaid = current?.paidMinor ?? 0n;
      const fixedPaid = sum(fixed.map((h) => h.paidMinor));
      return {
        historyProfit: usd(currentPaid + fixedPaid),
        totalValue: usd(currentShares + frozenMinor + fixedShares + currentUnsettled + fixedUnsettled),
        yesterdayProfit: usd(BigInt(yesterday?.total ?? '0')),
        currentProduct: {
          usableShares: usd(currentShares),
          unusableShares: usd(frozenMinor),
          unsettleProfit: usd(currentUnsettled),
          historyProfit: usd(currentPaid),
          interestShares: usd(currentInterest),
          unInterestShares: usd(currentShares - currentInterest),
        },
        fixedProduct: {
          historyProfit: usd(fixedPaid),
          holdingProducts: held.length,
          totalShares: usd(fixedShares),
          unInterestShares: usd(fixedUnInterest),
          unsettleProfit: usd(fixedUnsettled),
          interestShares: usd(fixedShares - fixedUnInterest),
        },
      };
    },

    /**
     * `GET fund/v2/order`: the caller's fund history, newest first, filtered and paged: the rows of
     * `fund_orders` and the monthly INTEREST lines of the current holding (`payoutLinesSql`, id
     * `payout:<YYYY-MM>`), which the payout no longer writes per holding.
     */
    async orders(userId: string, query: FundOrderQuery, locale: Locale): Promise<Page<FundOrder>> {
      const products = new Map((await ctx.db.select().from(fundProducts)).map((p) => [p.id, p]));
      const ofType = query.type
        ? [...products.values()].filter((p) => p.type === query.type).map((p) => p.id)
        : undefined;
      const filters = [
        ofType
          ? sql`l.product_id IN (${sql.join(ofType.length ? ofType.map((id) => sql`${id}`) : [sql`NULL`], sql`, `)})`
          : undefined,
        query.action ? sql`l.action = ${query.action}` : undefined,
        query.coin ? sql`l.coin = ${query.coin}` : undefined,
        query.createTime ? sql`l.created_at >= ${new Date(query.createTime[0]).toISOString()}::timestamptz` : undefined,
        query.createTime ? sql`l.created_at <= ${new Date(query.createTime[1]).toISOString()}::timestamptz` : undefined,
      ].filter((filter): filter is SQL => filter !== undefined);
      const where = filters.length ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``;
      const lines = historyLinesSql(userId);
      const [total] = await queryRows<{ n: number }>(
        ctx.db,
        sql`${lines} SELECT count(*)::int AS n FROM lines l ${where}`,
      );
      const raw = await queryRows<Record<string, unknown> & { line_id: string }>(
        ctx.db,
        sql`${lines} SELECT l.* FROM lines l ${where} ORDER BY l.created_at DESC, l.id DESC
            LIMIT ${query.pageSize} OFFSET ${(query.pageID - 1) * query.pageSize}`,
      );
      const names = await productNames(locale);
      const totalCount = total?.n ?? 0;
      return {
        list: raw.map((line) => toFundOrder(rowOfTable(fundOrders, line), names, products, line.line_id)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /** `GET fund/v2/earnings?days=N`: interest accrued per Hong Kong day, the N days up to yesterday, every day present. */
    async earnings(userId: string, days: number): Promise<FundEarningsDay[]> {
      const last = addDays(today(), -1);
      const first = addDays(last, -(days - 1));
      const rows = await ctx.db
        .select({
          day: fundAccruals.day,
          kind: fundAccruals.kind,
          total: sql<string>`sum(${fundAccruals.amountMinor})::text`,
        })
        .from(fundAccruals)
        .where(
          and(
            inArray(fundAccruals.holdingId, holdingIdsOf(userId)),
            gte(fundAccruals.day, first),
            lte(fundAccruals.day, last),
          ),
        )
        .groupBy(fundAccruals.day, fundAccruals.kind);
      const byDay = new Map<string, { current: bigint; fixed: bigint }>();
      for (const row of rows) {
        const entry = byDay.get(row.day) ?? { current: 0n, fixed: 0n };
        if (row.kind === 'CURRENT') entry.current += BigInt(row.total);
        else entry.fixed += BigInt(row.total);
        byDay.set(row.day, entry);
      }
      return Array.from({ length: days }, (_unused, index) => {
        const date = addDays(first, index);
        const entry = byDay.get(date) ?? { current: 0n, fixed: 0n };
        return {
          date,
          profit: usd(entry.current + entry.fixed),
          currentProfit: usd(entry.current),
          fixedProfit: usd(entry.fixed),
        };
      });
    },
  };
}
