import { displayAmount } from '@meridian/contracts/money';
import Decimal from 'decimal.js';

/** A coin amount of the loan API ("1000.000000", "0.20000000") for display: "1,000.00 USDT", "0.20 BTC". */
export function coinAmount(amount: string, coin: string): string {
  return `${displayAmount(amount, coin)} ${coin}`;
}

/**
 * A USD price of the loan API (USD per BTC, any number of decimals) for display with 2 decimals and
 * thousands separators: "42,857.15". A liquidation or margin-call price is rounded up at the cent
 * (the price is a threshold: showing it lower would say liquidation starts later than it does);
 * a market price to the nearest cent. The text itself when it is no number.
 */
export function usdPrice(price: string, rounding: 'up' | 'nearest' = 'nearest'): string {
  try {
    const mode = rounding === 'up' ? Decimal.ROUND_UP : Decimal.ROUND_HALF_UP;
    return displayAmount(new Decimal(price).toFixed(2, mode), 'USD');
  } catch {
    return price;
  }
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
