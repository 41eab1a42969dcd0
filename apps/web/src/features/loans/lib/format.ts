import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import Decimal from 'decimal.js';
import { money } from '../../../lib/money.ts';

/**
 * A liquidation or margin-call price of the loan API (USD per BTC, up to 8 decimals) as every page
 * shows it: rounded UP to the cent (the price falls towards it, so the higher figure warns earlier;
 * docs/decisions/0014-number-format.md), with the currency symbol: "37402.33384075" → "$37,402.34"
 * (zh-HK "US$37,402.34"). The margin-call message renders the same (loans.engine.ts).
 */
export function thresholdPrice(price: string): string {
  return money(price, 'USD', { rounding: MONEY_ROUNDING.liquidationPrice });
}

/** A percentage of the API ("12", "0.0328767123", "45.20") for display: "12%", "0.0329%", "45.20%". Long rates keep 4 decimals. */
export function pct(value: string): string {
  const [, decimals = ''] = value.split('.');
  if (decimals.length <= 4) return `${value}%`;
  try {
    return `${new Decimal(value).toFixed(4, Decimal.ROUND_HALF_UP)}%`;
  } catch {
    return `${value}%`;
  }
}

/**
 * An instant of the API (ISO) as Hong Kong wall-clock time, `YYYY-MM-DD HH:mm` (the cure deadline
 * of a margin call is shown in it, docs/loans-web.md); the text itself when it is no instant.
 */
export function hongKongMinute(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Hong_Kong',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
