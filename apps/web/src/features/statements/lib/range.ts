import type { Dayjs } from 'dayjs';

/** A statement range of UTC days, `YYYY-MM-DD` each, inclusive. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The range of the whole calendar month of `month` (its first to its last day); a month still
 * running ends today (`today`, `YYYY-MM-DD`), so a statement never asks for days to come.
 */
export function monthRange(month: Dayjs, today: string): DayRange {
  const from = month.startOf('month').format('YYYY-MM-DD');
  const last = month.endOf('month').format('YYYY-MM-DD');
  return { from, to: last < today ? last : today };
}

/** The range picked with the range picker. */
export function pickedRange(start: Dayjs, end: Dayjs): DayRange {
  return { from: start.format('YYYY-MM-DD'), to: end.format('YYYY-MM-DD') };
}

/** A signed decimal for display with thousands separators, keeping its decimals ("-1,234.500000"). */
export function groupDecimal(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
