import { sparklinePoints } from '../lib/format.ts';

const WIDTH_PX = 120;
const HEIGHT_PX = 36;

interface SparklineProps {
  /** Prices oldest first (the row's `lineCode`). */
  values: readonly number[];
  direction: 'up' | 'down' | 'flat';
  /** Accessible description, e.g. "BTC over the last 24 hours". */
  label: string;
}

/** The small trend line of a market row: one SVG polyline, no chart library. */
export function Sparkline({ values, direction, label }: SparklineProps) {
  return (
    <svg
      className={`sparkline sparkline--${direction}`}
      viewBox={`0 0 ${WIDTH_PX} ${HEIGHT_PX}`}
      width={WIDTH_PX}
      height={HEIGHT_PX}
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
    >
      <polyline
        points={sparklinePoints(values, WIDTH_PX, HEIGHT_PX)}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
        strokeLinecap="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
