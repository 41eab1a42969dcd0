/**
 * Which statements stall PGlite's thread, with evidence: PGlite runs the database in the server's
 * own thread, one protocol message at a time (`execProtocolRawSync`, synchronous). This wraps that
 * method of the instance and records every call longer than `SLOW_MS`, named by its SQL: the text
 * of a simple Query or a Parse, or for a Bind (the app's prepared statements, `pglite-client.ts`)
 * the text its statement name was parsed with. `stop()` prints the slow calls grouped by statement
 * (count, total and longest ms).
 */
import type { Database } from '../../apps/server/src/platform/db/client.ts';

const SLOW_MS = 5;
const TEXT_CHARS = 70;

/** One protocol call of PGlite: when it ended (epoch ms, `performance.timeOrigin` based), how long, which SQL. */
export interface PgliteCall {
  endEpochMs: number;
  tookMs: number;
  text: string;
}

export interface PgliteSlowWatch {
  /**
   * Every call since the watch started or since the last `takeCalls` (for
   * `bench/lib/stall-composition.ts`); empty unless the watch was started with `recordCalls`.
   */
  takeCalls(): PgliteCall[];
  /** One line: the slow calls by statement since the last `take`, longest first; starts counting again. */
  take(): string;
  /** Stop recording (the instance's method is put back). */
  stop(): void;
}

/** The NUL-terminated strings of a message's body (after the type byte and the length). */
function cStrings(message: Uint8Array, count: number): string[] {
  const parts = Buffer.from(message.subarray(5)).toString('utf8').split('\0');
  return parts.slice(0, count);
}

/**
 * The SQL a message runs: a Query's text, a Parse's text (remembered under its statement name in
 * `named`), a Bind's statement looked up there; null for another message.
 */
function sqlTextOf(message: Uint8Array, named: Map<string, string>): string | null {
  const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
  switch (message[0]) {
    case 0x51: // 'Q'
      return clean(cStrings(message, 1)[0] ?? '');
    case 0x50: {
      // 'P': statement name, query text
      const [name = '', text = ''] = cStrings(message, 2);
      if (name) named.set(name, clean(text));
      return clean(text);
    }
    case 0x42: {
      // 'B': portal name, statement name
      const [, name = ''] = cStrings(message, 2);
      return named.get(name) ?? `(statement ${name || 'unnamed'})`;
    }
    default:
      return null;
  }
}

/**
 * Start timing PGlite's protocol calls (no-op on PostgreSQL: `take` answers an empty string). Start it
 * before the warm-up, so the statements prepared then are known by name. With `recordCalls` every
 * call is also kept for `takeCalls` (an object per call: left off where nothing takes them, so the
 * record adds no garbage to the load it measures).
 */
export function watchPgliteSlowCalls(
  database: Database,
  { recordCalls = false }: { recordCalls?: boolean } = {},
): PgliteSlowWatch {
  const pglite = database.pglite as unknown as { execProtocolRawSync: (message: Uint8Array) => Uint8Array } | undefined;
  if (!pglite) return { take: () => '', takeCalls: () => [], stop: () => undefined };
  const original = pglite.execProtocolRawSync;
  const slow = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  let lastText = '(none)';
  const named = new Map<string, string>();
  let calls: PgliteCall[] = [];
  pglite.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
    lastText = sqlTextOf(message, named) ?? lastText;
    const startedMs = performance.now();
    try {
      return original.call(this, message);
    } finally {
      const endedMs = performance.now();
      const tookMs = endedMs - startedMs;
      if (recordCalls) calls.push({ endEpochMs: performance.timeOrigin + endedMs, tookMs, text: lastText });
      if (tookMs > SLOW_MS) {
        const key = lastText.slice(0, TEXT_CHARS);
        const entry = slow.get(key) ?? { count: 0, totalMs: 0, maxMs: 0 };
        entry.count += 1;
        entry.totalMs += tookMs;
        entry.maxMs = Math.max(entry.maxMs, tookMs);
        slow.set(key, entry);
      }
    }
  };
  return {
    stop(): void {
      pglite.execProtocolRawSync = original;
    },
    takeCalls(): PgliteCall[] {
      const taken = calls;
      calls = [];
      return taken;
    },
    take(): string {
      const lines = [...slow.entries()]
        .sort((a, b) => b[1].maxMs - a[1].maxMs)
        .slice(0, 6)
        .map(([text, s]) => `${s.count}× max ${s.maxMs.toFixed(0)} ms (${s.totalMs.toFixed(0)} ms in all) «${text}»`);
      slow.clear();
      return `PGlite calls over ${SLOW_MS} ms: ${lines.join('; ') || 'none'}`;
    },
  };
}
