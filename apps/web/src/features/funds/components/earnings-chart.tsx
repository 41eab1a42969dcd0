import type { FundEarningsDay } from '@meridian/contracts/funds';
import { parseAmountMinor } from '@meridian/contracts/money';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { COLOURS } from '../../../styles/colour-tokens.ts';
import { money } from '../../../lib/money.ts';

/**
 * A chart point: the day and its interest in cents. The bar heights are a picture of the amounts, so
 * they are plotted from integer cents (`Number` of a bigint well inside 2^53); every figure people
 * read — axis ticks and tooltip — is formatted from the API's decimal strings or the cents.
 */
interface Point {
  date: string;
  currentCents: number;
  fixedCents: number;
  current: string;
  fixed: string;
  total: string;
}

function centsOf(amount: string): number {
  try {
    return Number(parseAmountMinor(amount, 'USD'));
  } catch {
    return 0;
  }
}

/**
 * The fund account's chart of daily earnings: one stacked bar per Hong Kong day,
 * current and fixed interest. Loaded lazily with the charting library (recharts), so the page's first
 * paint does not wait for it.
 */
export default function EarningsChart({ days }: { days: readonly FundEarningsDay[] }) {
  const { t } = useTranslation('funds');
  const points: Point[] = days.map((day) => ({
    date: day.date,
    currentCents: centsOf(day.currentProfit),
    fixedCents: centsOf(day.fixedProfit),
    current: day.currentProfit,
    fixed: day.fixedProfit,
    total: day.profit,
  }));
  // Axis ticks are values the chart picks between the bars (whole cents: `allowDecimals` off).
  const centsLabel = (cents: number) => money(BigInt(Math.round(cents)), 'USD', { unit: 'none' });
  return (
    <div className="fund-chart" data-testid="earnings-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} fontSize={11} minTickGap={16} />
          <YAxis tickFormatter={centsLabel} fontSize={11} width={64} allowDecimals={false} />
          <Tooltip
            formatter={(_value, name, item) => {
              const point = item.payload as Point;
              return [money(name === 'fixedCents' ? point.fixed : point.current, 'USD'), t(`chart.${String(name)}`)];
            }}
          />
          <Bar dataKey="currentCents" stackId="profit" fill={COLOURS.chartCurrentInterest} name="currentCents" />
          <Bar dataKey="fixedCents" stackId="profit" fill={COLOURS.chartFixedInterest} name="fixedCents" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
