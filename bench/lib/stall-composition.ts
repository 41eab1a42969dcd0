/**
 * What the server's thread did during its event-loop stalls, with evidence: the stalls and GC
 * pauses `pause-watch.ts` records and, on the same epoch-ms timeline, the HTTP requests the server
 * began and answered and (on PGlite) every protocol call into the embedded database, by statement
 * (`pglite-slow.ts`'s `takeCalls`). `report`
 * adds up, over the stalls, the time in PGlite's calls (the decision's statements, the maintenance
 * job's statements, the rest), in GC and the remainder (JavaScript: HTTP, Fastify, JSON, the `pg`
 * driver's socket writes), and how many requests were begun and answered inside each stall — so a
 * stall made of one long statement reads differently from one made of a burst of decisions.
 */
import type { Server } from 'node:http';
import type { Interval, PauseWatch } from './pause-watch.ts';
import type { PgliteCall } from './pglite-slow.ts';

export interface StallComposition {
  /**
   * One line (stops counting requests): the composition of the stalls `pauses` recorded;
   * `pgliteCalls` are the calls made during the load.
   */
  report(pgliteCalls: PgliteCall[]): string;
}

/** The kind of a PGlite statement: the decision, the maintenance job's, or another. */
function kindOf(text: string): 'decision' | 'maintenance' | 'other' {
  if (/card_authorize/.test(text)) return 'decision';
  if (/^(ANALYZE|SET LOCAL default_statistics_target|SELECT c\.relname)/.test(text)) return 'maintenance';
  return 'other';
}

/**
 * Start counting the requests `server` (the app's HTTP server, in this process) begins and answers;
 * the stalls and GC pauses are those `pauses` (started beside it) records.
 */
export function startStallComposition(server: Server, pauses: PauseWatch): StallComposition {
  const begun: number[] = [];
  const answered: number[] = [];
  const epochNow = () => performance.timeOrigin + performance.now();
  const onRequest = (_request: unknown, response: { once(event: 'finish', listener: () => void): void }) => {
    begun.push(epochNow());
    response.once('finish', () => answered.push(epochNow()));
  };
  server.on('request', onRequest);

  return {
    report(pgliteCalls) {
      server.off('request', onRequest);
      const { stalls, gcPauses } = pauses;
      const inside = (atMs: number, stall: Interval) => atMs > stall.startMs && atMs <= stall.endMs;
      const overlapMs = (a: Interval, b: Interval) =>
        Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs));
      const sums = { stallMs: 0, decision: 0, maintenance: 0, other: 0, gc: 0, begun: 0, answered: 0 };
      const rows: string[] = [];
      const perStall = stalls.map((stall) => {
        const sql = { decision: 0, maintenance: 0, other: 0 };
        for (const call of pgliteCalls) {
          const interval = { startMs: call.endEpochMs - call.tookMs, endMs: call.endEpochMs };
          sql[kindOf(call.text)] += overlapMs(interval, stall);
        }
        const gc = gcPauses.reduce((sum, pause) => sum + overlapMs(pause, stall), 0);
        const row = {
          ms: stall.endMs - stall.startMs,
          ...sql,
          gc,
          begun: begun.filter((at) => inside(at, stall)).length,
          answered: answered.filter((at) => inside(at, stall)).length,
        };
        sums.stallMs += row.ms;
        sums.decision += row.decision;
        sums.maintenance += row.maintenance;
        sums.other += row.other;
        sums.gc += row.gc;
        sums.begun += row.begun;
        sums.answered += row.answered;
        return row;
      });
      for (const row of [...perStall].sort((a, b) => b.ms - a.ms).slice(0, 3))
        rows.push(
          `${row.ms.toFixed(0)} ms: ${row.begun} begun, ${row.answered} answered, decision SQL ${row.decision.toFixed(0)} ms, ` +
            `maintenance ${row.maintenance.toFixed(0)} ms, GC ${row.gc.toFixed(0)} ms`,
        );
      const whole = { decision: 0, maintenance: 0, other: 0, decisionCalls: 0, maintenanceCalls: 0 };
      for (const call of pgliteCalls) {
        const kind = kindOf(call.text);
        whole[kind] += call.tookMs;
        if (kind === 'decision') whole.decisionCalls += 1;
        if (kind === 'maintenance') whole.maintenanceCalls += 1;
      }
      const wholeLine = pgliteCalls.length
        ? ` · whole load: PGlite decision SQL ${whole.decision.toFixed(0)} ms in ${whole.decisionCalls} calls ` +
          `(${(whole.decision / Math.max(1, answered.length)).toFixed(2)} ms per request answered), maintenance ${whole.maintenance.toFixed(0)} ms ` +
          `in ${whole.maintenanceCalls} calls, other ${whole.other.toFixed(0)} ms`
        : '';
      const share = (value: number) =>
        `${value.toFixed(0)} ms (${((100 * value) / Math.max(1, sums.stallMs)).toFixed(0)} %)`;
      const wallMs = stalls.reduce((sum, stall) => sum + stall.wallMs, 0);
      const cpuMs = stalls.reduce((sum, stall) => sum + stall.cpuMs, 0);
      const rest = sums.stallMs - sums.decision - sums.maintenance - sums.other - sums.gc;
      return (
        `stall composition: ${stalls.length} stalls, ${sums.stallMs.toFixed(0)} ms in all; PGlite decision SQL ${share(sums.decision)}, ` +
        `maintenance SQL ${share(sums.maintenance)}, other SQL ${share(sums.other)}, GC ${share(sums.gc)}, JavaScript ${share(rest)}; ` +
        `the thread on a core ${((100 * cpuMs) / Math.max(1, wallMs)).toFixed(0)} % of the stalls' wall time; ` +
        `per stall ${(sums.begun / Math.max(1, stalls.length)).toFixed(1)} requests begun, ${(sums.answered / Math.max(1, stalls.length)).toFixed(1)} answered; ` +
        `longest: ${rows.join(' · ') || 'none'}${wholeLine}`
      );
    },
  };
}
