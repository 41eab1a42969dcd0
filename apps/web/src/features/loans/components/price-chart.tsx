import { displayAmount } from '@meridian/contracts/money';
import { usdPrice } from '../lib/format.ts';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Minutes between two points of the market's trend line (`market/price` lineCode: one per 15 minutes). */
const POINT_STEP_MINUTES = 15;

/** A horizontal line over the prices: a loan's liquidation (or margin-call) price in USD. */
export interface PriceLine {
  key: string;
  label: string;
  /** USD per BTC, a decimal string of the API. */
  priceUsd: string;
  kind: 'liquidation' | 'marginCall';
}

interface Point {
  minutesAgo: number;
  price: number;
}

/**
 * The BTC price of the last 24 hours (the market table's trend line, `market/price`) with each loan's
 * liquidation price as a dashed line (issue 18 "Web"). The line's numbers are for drawing only; the
 * figures people read (tooltip, labels) are formatted for display. Loaded lazily with recharts.
 */
export default function PriceChart({ prices, lines }: { prices: readonly number[]; lines: readonly PriceLine[] }) {
  const { t } = useTranslation('loans');
  const points: Point[] = prices.map((price, index) => ({
    minutesAgo: (prices.length - 1 - index) * POINT_STEP_MINUTES,
    price,
  }));
  const lineValues = lines.map((line) => Number(line.priceUsd)).filter(Number.isFinite);
  const all = [...prices, ...lineValues];
  const low = Math.min(...all);
  const high = Math.max(...all);
  const pad = Math.max((high - low) * 0.08, high * 0.005);
  const usd = (value: number) => displayAmount(value.toFixed(2), 'USD');
  const ago = (minutes: number) =>
    minutes === 0 ? t('chart.now') : t('chart.hoursAgo', { count: Math.round(minutes / 60) });
  return (
    <div className="loan-chart" data-testid="loan-price-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 16, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="minutesAgo"
            reversed={false}
            tickFormatter={ago}
            fontSize={11}
            minTickGap={28}
            interval="preserveStartEnd"
          />
          <YAxis
            domain={[Math.max(0, low - pad), high + pad]}
            tickFormatter={(value: number) => usd(Math.round(value)).replace(/\.00$/, '')}
            fontSize={11}
            width={72}
          />
          <Tooltip
            labelFormatter={(minutes) => ago(Number(minutes))}
            formatter={(value) => [`$${usd(Number(value))}`, t('chart.price')]}
          />
          <Line
            type="monotone"
            dataKey="price"
            stroke="#1c2f63"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          {lines.map((line) => (
            <ReferenceLine
              key={line.key}
              y={Number(line.priceUsd)}
              stroke={line.kind === 'liquidation' ? '#dc2626' : '#d97706'}
              strokeDasharray="6 4"
              ifOverflow="extendDomain"
              label={{
                value: `${line.label} $${usdPrice(line.priceUsd, 'up')}`,
                position: line.kind === 'liquidation' ? 'insideTopLeft' : 'insideBottomRight',
                fontSize: 11,
                fill: line.kind === 'liquidation' ? '#dc2626' : '#b45309',
              }}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
