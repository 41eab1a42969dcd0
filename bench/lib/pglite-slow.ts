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

/**
 * The first `count` NUL-terminated strings of a message's body (after the type byte and the
 * length), decoded alone: a Bind's parameter values after them are neither copied nor decoded.
 */
function cStrings(message: Uint8Array, count: number): string[] {
  const parts: string[] = [];
  let start = 5;
  while (parts.length < count && start < message.length) {
    const end = message.indexOf(0, start);
    const stop = end === -1 ? message.length : end;
    parts.push(Buffer.from(message.buffer, message.byteOffset + start, stop - start).toString('utf8'));
    start = stop + 1;
  }
  return parts;
}

/**
 * The SQL a message runs: a Query's text, a Parse's text, a Bind's statement looked up in `named`
 * (the texts of named Parses, see `rememberParse`); null for another message.
 */
function sqlTextOf(message: Uint8Array, named: Map<string, string>): string | null {
  switch (message[0]) {
    case 0x51: // 'Q'
      return clean(cStrings(message, 1)[0] ?? '');
    case 0x50: // 'P': statement name, query text
      return clean(cStrings(message, 2)[1] ?? '');
    case 0x42: {
      // 'B': portal name, statement name
      const [, name = ''] = cStrings(message, 2);
      return named.get(name) ?? `(statement ${name || 'unnamed'})`;
    }
    default:
      return null;
  }
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A named Parse's text, kept under its name for the Binds that follow (a Parse is rare: once per statement). */
function rememberParse(message: Uint8Array, named: Map<string, string>): void {
  if (message[0] !== 0x50) return;
  const [name = '', text = ''] = cStrings(message, 2);
  if (name) named.set(name, clean(text));
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
  // The last call's SQL is decoded only when it is needed (a slow call, or every call with
  // `recordCalls`): decoding every message would add the garbage of a copy of each Bind to the load.
  let lastMessage: Uint8Array | null = null;
  let lastText = '(none)';
  const textOfLast = (): string => {
    if (lastMessage) {
      lastText = sqlTextOf(lastMessage, named) ?? lastText;
      lastMessage = null;
    }
    return lastText;
  };
  const named = new Map<string, string>();
  let calls: PgliteCall[] = [];
  pglite.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
    rememberParse(message, named);
    if (message[0] === 0x51 || message[0] === 0x50 || message[0] === 0x42) lastMessage = message;
    const startedMs = performance.now();
    try {
      return original.call(this, message);
    } finally {
      const endedMs = performance.now();
      const tookMs = endedMs - startedMs;
      if (recordCalls) calls.push({ endEpochMs: performance.timeOrigin + endedMs, tookMs, text: textOfLast() });
      if (tookMs > SLOW_MS) {
        const key = textOfLast().slice(0, TEXT_CHARS);
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
