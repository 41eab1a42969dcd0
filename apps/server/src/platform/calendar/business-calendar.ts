import Holidays from 'date-holidays';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The time zone of the business calendar: KYC reviews and notices are counted in Hong Kong working days. */
export const BUSINESS_TIME_ZONE = 'Asia/Hong_Kong';

/**
 * The Hong Kong calendar day of an instant, `YYYY-MM-DD` (the "natural day" of the product: accruals,
 * due dates and the dates written in messages are all counted in it).
 */
export function hongKongDay(instant: Date): string {
  return dayjs(instant).tz(BUSINESS_TIME_ZONE).format('YYYY-MM-DD');
}

/** The largest count of working days one call may add or subtract (a bound on the day-by-day walk). */
export const WORKING_DAYS_MAX = 3660;

/**
 * A working-day calendar: weekdays other than the public holidays of one country, counted in one
 * time zone. The default is Hong Kong (`date-holidays` country `HK`, its `public` holidays: the
 * general holidays of the General Holidays Ordinance, Cap. 149, substitute days included).
 */
export class BusinessCalendar {
  private readonly holidays: Holidays;
  /** Holiday dates (`YYYY-MM-DD`, local) by year, computed once per year. */
  private readonly holidayDatesByYear = new Map<number, Set<string>>();

  constructor(
    readonly country: string = 'HK',
    readonly timeZone: string = BUSINESS_TIME_ZONE,
  ) {
    this.holidays = new Holidays(country, { types: ['public'], timezone: timeZone });
  }

  /** Whether the local date `YYYY-MM-DD` is a public holiday. */
  isHolidayDate(localDate: string): boolean {
    const year = Number(localDate.slice(0, 4));
    let dates = this.holidayDatesByYear.get(year);
    if (!dates) {
      dates = new Set(
        this.holidays
          .getHolidays(year)
          .filter((holiday) => holiday.type === 'public')
          .map((holiday) => holiday.date.slice(0, 10)),
      );
      this.holidayDatesByYear.set(year, dates);
    }
    return dates.has(localDate);
  }

  /** Whether `instant` falls on a working day (Monday to Friday, not a public holiday) in the calendar's time zone. */
  isWorkingDay(instant: Date): boolean {
    const local = dayjs(instant).tz(this.timeZone);
    const weekday = local.day();
    return weekday !== 0 && weekday !== 6 && !this.isHolidayDate(local.format('YYYY-MM-DD'));
  }

  /**
   * The instant `workingDays` working days after `instant` (before it when negative), at the same
   * local wall-clock time: each following calendar day that is a working day counts one, so a
   * submission on Friday 15:00 plus 1 is Monday 15:00, and one on a Saturday plus 1 is Monday at
   * the same hour. Zero returns the instant unchanged.
   * @throws RangeError when `workingDays` is not an integer within ±WORKING_DAYS_MAX.
   */
  addWorkingDays(instant: Date, workingDays: number): Date {
    if (!Number.isInteger(workingDays) || Math.abs(workingDays) > WORKING_DAYS_MAX) {
      throw new RangeError(`workingDays must be an integer within ±${WORKING_DAYS_MAX}, got ${workingDays}`);
    }
    const step = workingDays < 0 ? -1 : 1;
    let local = dayjs(instant).tz(this.timeZone);
    let remaining = Math.abs(workingDays);
    // A year has at least 240 working days, so 2 calendar days per working day bounds the walk.
    for (let dayCount = 0; remaining > 0 && dayCount < 2 * WORKING_DAYS_MAX + 30; dayCount += 1) {
      local = local.add(step, 'day');
      if (this.isWorkingDay(local.toDate())) remaining -= 1;
    }
    if (remaining > 0) throw new RangeError('working-day walk did not finish');
    return local.toDate();
  }
}

let sharedHongKongCalendar: BusinessCalendar | undefined;

/** The shared Hong Kong calendar (built on first use). */
export function getHongKongCalendar(): BusinessCalendar {
  sharedHongKongCalendar ??= new BusinessCalendar();
  return sharedHongKongCalendar;
}

/**
 * `workingDays` Hong Kong working days after `instant` (weekends and HK public holidays skipped),
 * at the same Hong Kong wall-clock time — "decision within 1 working day", "7 working days ahead".
 */
export function addHongKongWorkingDays(instant: Date, workingDays: number): Date {
  return getHongKongCalendar().addWorkingDays(instant, workingDays);
}
