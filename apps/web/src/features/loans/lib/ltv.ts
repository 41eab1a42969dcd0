import Decimal from 'decimal.js';

/** The LTV levels of `loan/config` in percent, as decimal strings ("70", "80", "90"). */
export interface LtvLevels {
  initialPct: string;
  marginCallPct: string;
  liquidationPct: string;
}

/** Where an LTV stands: below the initial level, up to margin call, up to liquidation, at or past it. */
export type LtvZone = 'safe' | 'watch' | 'marginCall' | 'liquidation';

/**
 * The zone of an LTV (percent, decimal string) against the levels, compared exactly with decimal.js
 * (initial 70 %, margin call 80 %, liquidation 90 %). A text that is no number is 'safe'.
 */
export function ltvZoneOf(ltvPct: string, levels: LtvLevels): LtvZone {
  let ltv: Decimal;
  try {
    ltv = new Decimal(ltvPct);
  } catch {
    return 'safe';
  }
  if (ltv.gte(levels.liquidationPct)) return 'liquidation';
  if (ltv.gte(levels.marginCallPct)) return 'marginCall';
  if (ltv.gt(levels.initialPct)) return 'watch';
  return 'safe';
}

/** A percentage as a number for drawing only (a gauge mark's position); 0 when it is no number. */
export function pctForDrawing(pct: string): number {
  const value = Number(pct);
  return Number.isFinite(value) ? Math.max(0, value) : 0;
}
