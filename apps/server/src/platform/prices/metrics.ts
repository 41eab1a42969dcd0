import { Counter, Gauge, type Registry } from 'prom-client';
import type { PriceOracle } from './aggregator.ts';

/**
 * Price metrics on the app's registry: `price_stablecoin_peg_alarm{symbol}` (1 while a stablecoin
 * is outside its band), `price_stablecoin_deviation_bps{symbol}` (last observed distance from 1 USD)
 * and `price_source_failures_total{source,kind}`. Returns the failure counter's increment function,
 * to hand to the aggregator.
 */
export function registerPriceMetrics(
  registry: Registry,
  oracle: () => PriceOracle | undefined,
): (source: string, kind: string) => void {
  const alarm = new Gauge({
    name: 'price_stablecoin_peg_alarm',
    help: '1 while the stablecoin trades outside its band around 1 USD',
    labelNames: ['symbol'] as const,
    registers: [registry],
    collect() {
      for (const status of oracle()?.pegStatuses() ?? []) this.set({ symbol: status.symbol }, status.isAlarm ? 1 : 0);
    },
  });
  const deviation = new Gauge({
    name: 'price_stablecoin_deviation_bps',
    help: 'Last observed distance of the stablecoin market price from 1 USD, in basis points',
    labelNames: ['symbol'] as const,
    registers: [registry],
    collect() {
      for (const status of oracle()?.pegStatuses() ?? []) {
        if (status.deviationBps !== null) this.set({ symbol: status.symbol }, status.deviationBps);
      }
    },
  });
  void alarm;
  void deviation;
  const failures = new Counter({
    name: 'price_source_failures_total',
    help: 'Price source calls that failed, by source and kind',
    labelNames: ['source', 'kind'] as const,
    registers: [registry],
  });
  return (source, kind) => failures.inc({ source, kind });
}
