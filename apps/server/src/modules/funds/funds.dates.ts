import { eq } from 'drizzle-orm';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import { firstBusinessDay, monthOf } from './funds.interest.ts';
import { type FundsContext, usd } from './funds.internal.ts';
import { fundHoldings, fundProducts } from './funds.tables.ts';

/**
 * The current fund's payout days between two Hong Kong days (both included, `YYYY-MM-DD`): the first
 * business day of each month (`firstBusinessDay`, the rule the monthly payout runs on) that falls in
 * the range, oldest first. 2026-02-01 … 2026-03-31 → 2026-02-02, 2026-03-02.
 */
export function payoutDaysBetween(fromDay: string, toDay: string, calendar: BusinessCalendar): string[] {
  const days: string[] = [];
  let month = monthOf(fromDay);
  const lastMonth = monthOf(toDay);
  while (month <= lastMonth) {
    const day = firstBusinessDay(month, calendar);
    if (day >= fromDay && day <= toDay) days.push(day);
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    month = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}`;
  }
  return days;
}

/** One fixed order still held, for the calendar (`FundsService.calendarDatesOf`). */
export interface FundMaturityDate {
  holdingId: number;
  productId: string;
  nameEn: string;
  nameZhHk: string;
  /** Principal, USD with 2 decimals. */
  principal: string;
  /** Hong Kong day the principal starts earning. */
  interestDate: string | null;
  /** Hong Kong day principal and interest go back to the current fund. */
  maturityDate: string;
}

/** The user's fund dates in a range (`FundsService.calendarDatesOf`). */
export interface FundCalendarDates {
  maturities: FundMaturityDate[];
  /** Payout days in the range; empty unless the user holds current-fund shares or unpaid interest. */
  payoutDays: string[];
}

/** The funds' dates for the calendar: part of `createFundsService`. */
export function createDatesService(ctx: FundsContext) {
  return {
    /**
     * The user's fund dates between two Hong Kong days (both included): the maturity of each fixed
     * order still held whose maturity day is in the range, and — while the user holds current-fund
     * shares or unpaid interest — the monthly payout days in the range (`payoutDaysBetween`). Future
     * payouts are shown on what the user holds today.
     */
    async calendarDatesOf(userId: string, fromDay: string, toDay: string): Promise<FundCalendarDates> {
      const rows = await ctx.db
        .select({ holding: fundHoldings, nameEn: fundProducts.nameEn, nameZhHk: fundProducts.nameZhHk })
        .from(fundHoldings)
        .innerJoin(fundProducts, eq(fundProducts.id, fundHoldings.productId))
        .where(eq(fundHoldings.userId, userId));
      const maturities = rows
        .filter(
          ({ holding }) =>
            holding.kind === 'FIXED' &&
            holding.status === 'HOLDING' &&
            holding.maturityDate !== null &&
            holding.maturityDate >= fromDay &&
            holding.maturityDate <= toDay,
        )
        .map(({ holding, nameEn, nameZhHk }) => ({
          holdingId: holding.id,
          productId: holding.productId,
          nameEn,
          nameZhHk,
          principal: usd(holding.sharesMinor),
          interestDate: holding.interestDate,
          maturityDate: holding.maturityDate!,
        }));
      const current = rows.find(({ holding }) => holding.kind === 'CURRENT')?.holding;
      const isEarning = current !== undefined && (current.sharesMinor > 0n || current.unsettledMinor > 0n);
      return { maturities, payoutDays: isEarning ? payoutDaysBetween(fromDay, toDay, ctx.calendar) : [] };
    },
  };
}
