/**
 * Display forms of the market table. Prices are shown by the one money formatter
 * (apps/web/src/lib/money.ts), never through a float.
 */

/** Direction of a change, for its colour. */
export type ChangeDirection = 'up' | 'down' | 'flat';

export function changeDirection(changePercent: string): ChangeDirection {
  if (/^-/.test(changePercent)) return 'down';
  return /[1-9]/.test(changePercent) ? 'up' : 'flat';
}

/** A 24 h change for display with its sign: "+2.15%", "-50.00%", "0.00%". */
export function formatChangePercent(changePercent: string): string {
  return `${changeDirection(changePercent) === 'up' ? '+' : ''}${changePercent}%`;
}

/**
 * The SVG polyline points of a trend line drawn in a `widthPx` × `heightPx` box with `paddingPx`
 * inside top and bottom: oldest point at the left, the highest price at the top. A flat line sits
 * in the middle; fewer than two points draw a flat line across.
 */
export function sparklinePoints(values: readonly number[], widthPx: number, heightPx: number, paddingPx = 2): string {
  const series = values.length >= 2 ? values : [values[0] ?? 0, values[0] ?? 0];
  const min = Math.min(...series);
  const max = Math.max(...series);
  const usable = heightPx - 2 * paddingPx;
  const stepPx = widthPx / (series.length - 1);
  return series
    .map((value, index) => {
      const y = max === min ? heightPx / 2 : paddingPx + ((max - value) / (max - min)) * usable;
      return `${(index * stepPx).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
