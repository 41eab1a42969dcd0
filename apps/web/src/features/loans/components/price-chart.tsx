import type { PriceHistoryPoint, PriceHistoryRange } from '@meridian/contracts/market';
import { COLOURS } from '../../../styles/colour-tokens.ts';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { money } from '../../../lib/money.ts';
import { thresholdPrice } from '../lib/format.ts';

/**
 * How the time axis reads per range: hours and minutes within a day, day and hour within a week (a
 * young history holds a single day), month and day within a month, month and year over a year.
 */
const AXIS_FORMATS: Record<PriceHistoryRange, Intl.DateTimeFormatOptions> = {
  '24h': { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '7d': { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '30d': { month: 'numeric', day: 'numeric' },
  '1y': { year: 'numeric', month: 'numeric' },
};
/** The tooltip's time: to the minute for the day and week, the day for longer ranges. */
const TOOLTIP_FORMATS: Record<PriceHistoryRange, Intl.DateTimeFormatOptions> = {
  '24h': { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '7d': { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '30d': { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '1y': { year: 'numeric', month: 'numeric', day: 'numeric' },
};

/** A horizontal line over the prices: a loan's liquidation (or margin-call) price in USD. */
export interface PriceLine {
  key: string;
  label: string;
  /** USD per BTC, a decimal string of the API. */
  priceUsd: string;
  kind: 'liquidation' | 'marginCall';
}

/** A line's colour: its LTV band's, as on the gauge (line and label, both 4.5:1 or more on white). */
const LINE_COLOURS: Record<PriceLine['kind'], string> = {
  liquidation: COLOURS.ltvLiquidation,
  marginCall: COLOURS.ltvMarginCall,
};

interface Point {
  /** The slot's start, epoch milliseconds. */
  atMs: number;
  price: number;
}

/**
 * BTC's price over `range` (`market/price/history` points, oldest first) with each loan's
 * liquidation price as a dashed line. The line's numbers are for drawing only; the
 * figures people read (tooltip, labels) are formatted for display, times in the page's language.
 * Loaded lazily with recharts.
 */
export default function PriceChart({
  history,
  range,
  lines,
}: {
  history: readonly PriceHistoryPoint[];
  range: PriceHistoryRange;
  lines: readonly PriceLine[];
}) {
  const { t, i18n } = useTranslation('loans');
  const points: Point[] = history.map((point) => ({ atMs: Date.parse(point.time), price: Number(point.priceUsd) }));
  const prices = points.map((point) => point.price);
  const axisTime = new Intl.DateTimeFormat(i18n.language, AXIS_FORMATS[range]);
  const tooltipTime = new Intl.DateTimeFormat(i18n.language, TOOLTIP_FORMATS[range]);
  const lineValues = lines.map((line) => Number(line.priceUsd)).filter(Number.isFinite);
  const all = [...prices, ...lineValues];
  const low = Math.min(...all);
  const high = Math.max(...all);
  const pad = Math.max((high - low) * 0.08, high * 0.005);
  return (
    <div className="loan-chart" data-testid="loan-price-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 16, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="atMs"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            tickFormatter={(atMs: number) => axisTime.format(atMs)}
            fontSize={11}
            minTickGap={28}
            interval="preserveStartEnd"
          />
          <YAxis
            domain={[Math.max(0, low - pad), high + pad]}
            // Whole dollars on the axis (chart ticks are floats the chart picks, not amounts).
            tickFormatter={(value: number) => money(String(Math.round(value)), 'USD').replace(/\.00$/, '')}
            fontSize={11}
            width={72}
          />
          <Tooltip
            labelFormatter={(atMs) => tooltipTime.format(Number(atMs))}
            formatter={(value) => [money(String(value), 'USD'), t('chart.price')]}
          />
          <Line
            type="monotone"
            dataKey="price"
            stroke={COLOURS.chartPrice}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
          {lines.map((line) => (
            <ReferenceLine
              key={line.key}
              y={Number(line.priceUsd)}
              stroke={LINE_COLOURS[line.kind]}
              strokeDasharray="6 4"
              ifOverflow="extendDomain"
              label={{
                value: `${line.label} ${thresholdPrice(line.priceUsd)}`,
                position: line.kind === 'liquidation' ? 'insideTopLeft' : 'insideBottomRight',
                fontSize: 11,
                fill: LINE_COLOURS[line.kind],
              }}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
