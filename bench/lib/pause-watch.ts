/**
 * Where a latency tail comes from, with evidence: while a load runs, record the server process's
 * garbage-collection pauses (`PerformanceObserver` of `gc` entries) and its event-loop stalls (a
 * 5 ms ticker that logs every tick more than `STALL_MS` late), each as an interval on the epoch-ms
 * timeline (`performance.timeOrigin` based, shared with worker threads). `explainTail` then says, of
 * the requests slower than a threshold (the p99), how many were in flight during a GC pause or a
 * stall of the server's thread — the rest waited elsewhere (the database, a lock, the network).
 * The server must run in this process (the benches build the app in process).
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';

/** A tick this late (ms) counts as a stall of the event loop. */
const STALL_MS = 10;
const TICK_MS = 5;

/** A span on the epoch-ms timeline (`performance.timeOrigin` based). */
export interface Interval {
  startMs: number;
  endMs: number;
}

/** An event-loop stall, with the thread's CPU time against wall time since the tick before it. */
export interface Stall extends Interval {
  /** Wall ms since the previous tick. */
  wallMs: number;
  /** This thread's CPU ms in the same span: below `wallMs`, the thread was waiting for a core. */
  cpuMs: number;
}

export interface PauseWatch {
  /** One line: GC pauses and stalls during the load, and how many tail requests overlapped them; stops the watch. */
  explainTail(departuresEpochMs: number[], latenciesMs: number[], thresholdMs: number): string;
  /** The stalls recorded so far (`bench/lib/stall-composition.ts` reads what filled them). */
  readonly stalls: readonly Stall[];
  /** The GC pauses recorded so far. */
  readonly gcPauses: readonly Interval[];
}

/** This thread's CPU time (µs; Node ≥ 23.9 has `process.threadCpuUsage`, else the process's). */
const threadCpuUs = (): number => {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return usage.user + usage.system;
};

/** Start recording GC pauses and event-loop stalls of this process (see the file's comment). */
export function startPauseWatch(): PauseWatch {
  const gcPauses: (Interval & { isMajor: boolean })[] = [];
  const stalls: Stall[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const startMs = performance.timeOrigin + entry.startTime;
      // Node's `gc` entries carry their kind in `detail` (PerformanceEntry's type does not declare it).
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      gcPauses.push({
        startMs,
        endMs: startMs + entry.duration,
        isMajor: kind === constants.NODE_PERFORMANCE_GC_MAJOR,
      });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let expectedMs = performance.now() + TICK_MS;
  let lastTickMs = performance.now();
  let lastCpuUs = threadCpuUs();
  const ticker = setInterval(() => {
    const nowMs = performance.now();
    const cpuUs = threadCpuUs();
    if (nowMs - expectedMs > STALL_MS)
      stalls.push({
        startMs: performance.timeOrigin + expectedMs,
        endMs: performance.timeOrigin + nowMs,
        wallMs: nowMs - lastTickMs,
        cpuMs: (cpuUs - lastCpuUs) / 1000,
      });
    expectedMs = nowMs + TICK_MS;
    lastTickMs = nowMs;
    lastCpuUs = cpuUs;
  }, TICK_MS);

  return {
    stalls,
    gcPauses,
    explainTail(departuresEpochMs, latenciesMs, thresholdMs) {
      clearInterval(ticker);
      observer.disconnect();
      const overlaps = (request: Interval, intervals: Interval[]) =>
        intervals.some((pause) => pause.startMs < request.endMs && pause.endMs > request.startMs);
      let tail = 0;
      let duringGc = 0;
      let duringStall = 0;
      let duringNeither = 0;
      latenciesMs.forEach((latencyMs, index) => {
        if (latencyMs <= thresholdMs) return;
        tail += 1;
        const request = { startMs: departuresEpochMs[index]!, endMs: departuresEpochMs[index]! + latencyMs };
        const isGc = overlaps(request, gcPauses);
        const isStall = overlaps(request, stalls);
        if (isGc) duringGc += 1;
        if (isStall) duringStall += 1;
        if (!isGc && !isStall) duringNeither += 1;
      });
      const gcTotalMs = gcPauses.reduce((sum, pause) => sum + pause.endMs - pause.startMs, 0);
      const gcMaxMs = Math.max(0, ...gcPauses.map((pause) => pause.endMs - pause.startMs));
      const stallMaxMs = Math.max(0, ...stalls.map((stall) => stall.endMs - stall.startMs));
      return (
        `server thread: ${gcPauses.length} GC pauses (${gcPauses.filter((pause) => pause.isMajor).length} major), ` +
        `${gcTotalMs.toFixed(0)} ms in all, longest ${gcMaxMs.toFixed(1)} ms; ${stalls.length} event-loop stalls over ${STALL_MS} ms, ` +
        `longest ${stallMaxMs.toFixed(0)} ms · of ${tail} decisions over ${thresholdMs.toFixed(1)} ms: ` +
        `${duringGc} in flight during a GC pause, ${duringStall} during a stall, ${duringNeither} during neither`
      );
    },
  };
}
