import {
  CURRENT_PRODUCT_ID,
  FUND_STABLECOINS,
  type FundConfig,
  type FundProduct,
  type FundRateTier,
  type FundType,
  WIRE_TIMES,
} from '@meridian/contracts/funds';
import {
  annualRateBpsOf,
  type OpsFundProduct,
  type ParsedCreateFixedFundBody,
} from '@meridian/contracts/fund-settings';
import type { Locale } from '@meridian/contracts/locale';
import { and, asc, eq, gte, max, or, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { addDays, type RateTier } from './funds.interest.ts';
import { type FundsContext, loadProduct, productName, type ProductRow, tiersByProduct, usd } from './funds.internal.ts';
import { fundHoldings, fundProducts, fundRateTiers } from './funds.tables.ts';

/** A product to create (seed, tests, operators). Amounts in USD cents, rates in basis points. */
export interface ProductInput {
  id: string;
  type: FundType;
  nameEn: string;
  nameZhHk: string;
  periodDays: number;
  raiseStartDate?: string | null;
  raiseEndDate?: string | null;
  interestDate?: string | null;
  minMinor: bigint;
  maxMinor: bigint;
  limitMinor: bigint;
  redeemMinMinor?: bigint | null;
  sortOrder?: number;
  tiers: { upToMinor: bigint | null; annualRateBps: number }[];
}

/**
 * The current fund as seeded (3.65 %, id EXW_CURRENT_PRODUCT, period -1): the full rate on
 * the first 50,000 USD of a holding and 2.00 % above; 1.00 to 1,000,000.00
 * USD per subscription, at most 5,000,000.00 USD per user, redemptions from 0.01.
 */
export const CURRENT_PRODUCT_SEED: ProductInput = {
  id: CURRENT_PRODUCT_ID,
  type: 'CURRENT',
  nameEn: 'Current Fund',
  nameZhHk: '活期基金',
  periodDays: -1,
  minMinor: 100n,
  maxMinor: 100_000_000n,
  limitMinor: 500_000_000n,
  redeemMinMinor: 1n,
  sortOrder: 0,
  tiers: [
    { upToMinor: 5_000_000n, annualRateBps: 365 },
    { upToMinor: null, annualRateBps: 200 },
  ],
};

/** Fixed series seeded: period in days and rate (bps); the top yield is 10.8 %. */
export const FIXED_SERIES_SEED = [
  { periodDays: 30, annualRateBps: 600 },
  { periodDays: 90, annualRateBps: 800 },
  { periodDays: 180, annualRateBps: 950 },
  { periodDays: 360, annualRateBps: 1080 },
] as const;

/** Fixed funds of one term starting to raise on one day that an operator may create. */
const FIXED_ID_ATTEMPTS_MAX = 20;

/** Days a seeded fixed series raises money; interest starts the day after the window. */
export const FIXED_RAISE_DAYS = 14;

function rateText(bps: number): string {
  return (bps / 100).toFixed(2); // display of an exact bps integer: 365 → "3.65"
}

/** Create the products the funds need, parts of `createFundsService`. */
export function createProductsService(ctx: FundsContext) {
  /** Insert a product with its tiers; an existing id is left as it is. @returns whether it was inserted. */
  async function createProduct(input: ProductInput, db: DbOrTx = ctx.db): Promise<boolean> {
    const maturityDate =
      input.interestDate && input.periodDays > 0 ? addDays(input.interestDate, input.periodDays) : null;
    return db.transaction(async (tx) => {
      const inserted = await tx
        .insert(fundProducts)
        .values({
          id: input.id,
          type: input.type,
          nameEn: input.nameEn,
          nameZhHk: input.nameZhHk,
          periodDays: input.periodDays,
          raiseStartDate: input.raiseStartDate ?? null,
          raiseEndDate: input.raiseEndDate ?? null,
          interestDate: input.interestDate ?? null,
          maturityDate,
          minMinor: input.minMinor,
          maxMinor: input.maxMinor,
          limitMinor: input.limitMinor,
          redeemMinMinor: input.redeemMinMinor ?? null,
          sortOrder: input.sortOrder ?? 0,
        })
        .onConflictDoNothing()
        .returning({ id: fundProducts.id });
      if (inserted.length === 0) return false;
      await tx
        .insert(fundRateTiers)
        .values(input.tiers.map((tier, tierIndex) => ({ productId: input.id, tierIndex, ...tier })));
      return true;
    });
  }

  /**
   * Replace a product's rate tiers (seeds and tests; operators propose them through the settings
   * workflow, `funds.settings.ts`). The next accrual uses them. Tiers must ascend and end with an unbounded one.
   */
  async function setRateTiers(productId: string, tiers: ProductInput['tiers']): Promise<void> {
    await ctx.db.transaction(async (tx) => {
      await tx.delete(fundRateTiers).where(eq(fundRateTiers.productId, productId));
      await tx.insert(fundRateTiers).values(tiers.map((tier, tierIndex) => ({ productId, tierIndex, ...tier })));
    });
  }

  /** Who holds each product now (holdings with shares), by product id: one grouped query. */
  async function heldByProduct(productId?: string): Promise<Map<string, { holders: number; shares: string }>> {
    const rows = await ctx.db
      .select({
        productId: fundHoldings.productId,
        holders: sql<number>`count(DISTINCT ${fundHoldings.userId})::int`,
        shares: sql<string>`sum(${fundHoldings.sharesMinor})::text`,
      })
      .from(fundHoldings)
      .where(
        and(
          productId ? eq(fundHoldings.productId, productId) : undefined,
          eq(fundHoldings.status, 'HOLDING'),
          sql`${fundHoldings.sharesMinor} > 0`,
        ),
      )
      .groupBy(fundHoldings.productId);
    return new Map(rows.map((row) => [row.productId, { holders: row.holders, shares: row.shares }]));
  }

  /** One product as operators see it, with who holds it now. */
  function opsProduct(
    product: ProductRow,
    tiers: readonly RateTier[],
    held: { holders: number; shares: string } | undefined,
  ): OpsFundProduct {
    return {
      productId: product.id,
      type: product.type,
      nameEn: product.nameEn,
      nameZhHk: product.nameZhHk,
      periodDays: product.periodDays,
      raiseStartDate: product.raiseStartDate,
      raiseEndDate: product.raiseEndDate,
      interestDate: product.interestDate,
      maturityDate: product.maturityDate,
      min: usd(product.minMinor),
      max: usd(product.maxMinor),
      limit: usd(product.limitMinor),
      isActive: product.isActive,
      tiers: tiers.map((tier) => ({
        upTo: tier.upToMinor === null ? null : usd(tier.upToMinor),
        annualRatePct: rateText(tier.annualRateBps),
      })),
      holderCount: held?.holders ?? 0,
      heldTotal: usd(BigInt(held?.shares ?? '0')),
    };
  }

  async function opsProductById(productId: string): Promise<OpsFundProduct> {
    const product = await loadProduct(ctx.db, productId, { isOpenOnly: false });
    const held = await heldByProduct(productId);
    return opsProduct(product, (await tiersByProduct(ctx.db)).get(productId) ?? [], held.get(productId));
  }

  return {
    createProduct,

    /** Every product for the back office (`GET admin/fund-products`): current first, then fixed by period and raise date. */
    async listForOperators(): Promise<OpsFundProduct[]> {
      const products = await ctx.db
        .select()
        .from(fundProducts)
        .orderBy(asc(fundProducts.sortOrder), asc(fundProducts.periodDays), asc(fundProducts.raiseStartDate));
      const tiers = await tiersByProduct(ctx.db);
      const held = await heldByProduct();
      return products.map((product) => opsProduct(product, tiers.get(product.id) ?? [], held.get(product.id)));
    },

    /**
     * A new fixed fund from the back office (`POST admin/fund-products`, admin): id
     * `FIXED_<period>D_<raise start>` (a suffix when taken), one rate for the whole holding, the
     * raise window from today or later (Hong Kong) — else a field error on `raiseStartDate`.
     * @throws DomainError CONFLICT (121) when 20 funds of that term already open on that day.
     */
    async createFixedFund(body: ParsedCreateFixedFundBody): Promise<OpsFundProduct> {
      const today = hongKongDay(ctx.clock.now());
      if (body.raiseStartDate < today) throw new FieldError('raiseStartDate', 'validation.raiseWindow');
      // `FIXED_<days>D_<raise start>`, then `_2`, `_3`, … : the insert itself claims the id (an
      // existing one is left alone), so two admins creating at once get two products.
      const baseId = `FIXED_${body.periodDays}D_${body.raiseStartDate.replaceAll('-', '')}`;
      for (let attempt = 1; attempt <= FIXED_ID_ATTEMPTS_MAX; attempt += 1) {
        const id = attempt === 1 ? baseId : `${baseId}_${attempt}`;
        const isCreated = await createProduct({
          id,
          type: 'FIXED',
          nameEn: body.nameEn,
          nameZhHk: body.nameZhHk,
          periodDays: body.periodDays,
          raiseStartDate: body.raiseStartDate,
          raiseEndDate: body.raiseEndDate,
          interestDate: body.interestDate,
          minMinor: body.min,
          maxMinor: body.max,
          limitMinor: body.limit,
          redeemMinMinor: null,
          sortOrder: 100 + body.periodDays,
          tiers: [{ upToMinor: null, annualRateBps: annualRateBpsOf(body.annualRatePct) }],
        });
        if (isCreated) return opsProductById(id);
      }
      throw new DomainError('CONFLICT'); // 20 funds of one term opening on one day: refuse the 21st
    },

    /**
     * Open or close a product to new subscriptions (`PUT admin/fund-products/:id/active`, admin);
     * holdings keep earning and the current fund stays redeemable.
     * @returns the product before and after. @throws DomainError NOT_FOUND.
     */
    async setProductActive(
      productId: string,
      isActive: boolean,
    ): Promise<{ before: OpsFundProduct; after: OpsFundProduct }> {
      const before = await opsProductById(productId);
      await ctx.db.update(fundProducts).set({ isActive }).where(eq(fundProducts.id, productId));
      return { before, after: await opsProductById(productId) };
    },

    setRateTiers,

    /**
     * Seed (idempotent; at start): the current fund, and for each fixed period a series raising
     * now when none is — raise window today .. today + 13, interest from today + 14 (Hong Kong days).
     */
    async seedProducts(): Promise<void> {
      await createProduct(CURRENT_PRODUCT_SEED);
      const today = hongKongDay(ctx.clock.now());
      for (const [index, series] of FIXED_SERIES_SEED.entries()) {
        const [open] = await ctx.db
          .select({ id: fundProducts.id })
          .from(fundProducts)
          .where(and(eq(fundProducts.periodDays, series.periodDays), gte(fundProducts.raiseEndDate, today)));
        if (open) continue;
        await createProduct({
          id: `FIXED_${series.periodDays}D_${today.replaceAll('-', '')}`,
          type: 'FIXED',
          nameEn: `Fixed ${series.periodDays}-day Fund`,
          nameZhHk: `${series.periodDays} 日定期基金`,
          periodDays: series.periodDays,
          raiseStartDate: today,
          raiseEndDate: addDays(today, FIXED_RAISE_DAYS - 1),
          interestDate: addDays(today, FIXED_RAISE_DAYS),
          minMinor: 10_000n,
          maxMinor: 50_000_000n,
          limitMinor: 100_000_000n,
          redeemMinMinor: null,
          sortOrder: index + 1,
          tiers: [{ upToMinor: null, annualRateBps: series.annualRateBps }],
        });
      }
    },

    /**
     * The highest annual rate (basis points) of the products open to subscription now — active,
     * and for fixed funds still raising — or null when none is (the home page's yield tile).
     */
    async topOpenAnnualRateBps(): Promise<number | null> {
      const today = hongKongDay(ctx.clock.now());
      const [row] = await ctx.db
        .select({ topBps: max(fundRateTiers.annualRateBps) })
        .from(fundRateTiers)
        .innerJoin(fundProducts, eq(fundProducts.id, fundRateTiers.productId))
        .where(
          and(
            eq(fundProducts.isActive, true),
            or(eq(fundProducts.type, 'CURRENT'), gte(fundProducts.raiseEndDate, today)),
          ),
        );
      return row?.topBps ?? null;
    },

    /**
     * `GET fund/v2/product`: products open to subscription, and closed ones the caller holds (current first, then fixed by period and raise date)
     * with the caller's holding of each; fixed products are listed while raising or held.
     */
    async listProducts(userId: string, locale: Locale, type?: FundType): Promise<FundProduct[]> {
      const today = hongKongDay(ctx.clock.now());
      const products = await ctx.db
        .select()
        .from(fundProducts)
        .where(type ? eq(fundProducts.type, type) : undefined)
        .orderBy(asc(fundProducts.sortOrder), asc(fundProducts.periodDays), asc(fundProducts.raiseStartDate));
      const tiers = await tiersByProduct(ctx.db);
      const held = await ctx.db
        .select({
          productId: fundHoldings.productId,
          shares: sql<string>`sum(${fundHoldings.sharesMinor})::text`,
          paid: sql<string>`sum(${fundHoldings.paidMinor})::text`,
          unsettled: sql<string>`sum(${fundHoldings.unsettledMinor})::text`,
        })
        .from(fundHoldings)
        .where(and(eq(fundHoldings.userId, userId), eq(fundHoldings.status, 'HOLDING')))
        .groupBy(fundHoldings.productId);
      const frozenRows = await ctx.db.execute(
        sql`SELECT coalesce(sum(amount_minor), 0)::text AS frozen FROM fund_wires_out WHERE user_id = ${userId} AND status = 'PENDING'`,
      );
      const frozenMinor = BigInt(((frozenRows as { rows: { frozen: string }[] }).rows[0]?.frozen ?? '0') as string);
      const heldBy = new Map(held.map((row) => [row.productId, row]));
      return (
        products
          // Closed products (an operator's switch) only for those who hold them.
          .filter(
            (product) =>
              heldBy.has(product.id) ||
              (product.isActive && (product.type === 'CURRENT' || (product.raiseEndDate ?? '') >= today)),
          )
          .map((product) =>
            toFundProduct(product, tiers.get(product.id) ?? [], heldBy.get(product.id), today, locale, {
              frozenMinor: product.type === 'CURRENT' ? frozenMinor : 0n,
            }),
          )
      );
    },

    /** `GET fund/v2/config`: subscribe options, coins at par now, the receiving account, wire times. */
    async config(locale: Locale): Promise<FundConfig> {
      const today = hongKongDay(ctx.clock.now());
      const products = await ctx.db
        .select()
        .from(fundProducts)
        .where(eq(fundProducts.isActive, true))
        .orderBy(asc(fundProducts.sortOrder), asc(fundProducts.periodDays));
      const coins = await Promise.all(
        FUND_STABLECOINS.map(async (coin) => ({ coin, isAtPar: await ctx.par.isAtPar(coin).catch(() => false) })),
      );
      return {
        subscribeOptions: products
          .filter((product) => product.type === 'CURRENT' || (product.raiseEndDate ?? '') >= today)
          .map((product) => ({
            id: product.id,
            name: productName(product, locale),
            min: usd(product.minMinor),
            max: usd(product.maxMinor),
            limit: usd(product.limitMinor),
            fee: { type: 'COUNT' as const, value: 0 },
            redeemMin: product.redeemMinMinor === null ? null : usd(product.redeemMinMinor),
          })),
        coins,
        receivingAccount: ctx.receivingAccount,
        wireTimes: { domestic: WIRE_TIMES.domestic[locale], international: WIRE_TIMES.international[locale] },
      };
    },
  };
}

/** Whether a fixed product takes subscriptions on `today` (inside its raise window). */
export function isRaising(product: ProductRow, today: string): boolean {
  return (
    product.type === 'FIXED' &&
    product.raiseStartDate !== null &&
    product.raiseEndDate !== null &&
    product.raiseStartDate <= today &&
    today <= product.raiseEndDate
  );
}

function toFundProduct(
  product: ProductRow,
  tiers: { upToMinor: bigint | null; annualRateBps: number }[],
  held: { shares: string; paid: string; unsettled: string } | undefined,
  today: string,
  locale: Locale,
  extra: { frozenMinor: bigint },
): FundProduct {
  const isCurrent = product.type === 'CURRENT';
  const rateTiers: FundRateTier[] = tiers.map((tier) => ({
    upToShares: tier.upToMinor === null ? null : usd(tier.upToMinor),
    annualRate: rateText(tier.annualRateBps),
  }));
  return {
    productId: product.id,
    productName: productName(product, locale),
    type: product.type,
    annualRate: rateTiers[0]?.annualRate ?? '0.00',
    period: product.periodDays,
    raiseDate: product.raiseStartDate && product.raiseEndDate ? [product.raiseStartDate, product.raiseEndDate] : null,
    interestDate: product.interestDate,
    maturityDate: product.maturityDate,
    subscribe: product.isActive && (isCurrent || isRaising(product, today)),
    redeem: isCurrent,
    subscribeActionTypes: isCurrent ? ['WALLET', 'USD'] : ['FUND'],
    redeemActionTypes: isCurrent ? ['WALLET', 'USD'] : [],
    rateTiers,
    holdingShares: usd(BigInt(held?.shares ?? '0')),
    profit: usd(BigInt(held?.paid ?? '0')),
    unsettleProfit: usd(BigInt(held?.unsettled ?? '0')),
    frozen: usd(extra.frozenMinor),
  };
}
