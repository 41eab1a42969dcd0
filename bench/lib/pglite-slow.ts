/**
 * Which statements stall PGlite's thread, with evidence: PGlite runs the database in the server's
 * own thread, one protocol message at a time (`execProtocolRawSync`, synchronous). This wraps that
 * method of the instance and records every call longer than `SLOW_MS`, named by the SQL text of the
 * last Parse or simple Query message before it (an Execute names no SQL itself). `stop()` prints
 * the slow calls grouped by statement (count, total and longest ms).
 */
import type { Database } from '../../apps/server/src/platform/db/client.ts';

const SLOW_MS = 5;
const TEXT_CHARS = 70;

export interface PgliteSlowWatch {
  /** One line: the slow calls by statement, longest first; stops recording. */
  stop(): string;
}

/** The SQL text of a Parse ('P') or Query ('Q') message, else null. */
function sqlTextOf(message: Uint8Array): string | null {
  const type = message[0];
  if (type !== 0x50 && type !== 0x51) return null;
  let text = Buffer.from(message.subarray(5)).toString('utf8');
  // Parse: statement name, NUL, then the query text.
  if (type === 0x50) text = text.slice(text.indexOf('\0') + 1);
  return text
    .slice(0, text.indexOf('\0') >= 0 ? text.indexOf('\0') : undefined)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Start timing PGlite's protocol calls (no-op on PostgreSQL: `stop` answers an empty string). */
export function watchPgliteSlowCalls(database: Database): PgliteSlowWatch {
  const pglite = database.pglite as unknown as { execProtocolRawSync: (message: Uint8Array) => Uint8Array } | undefined;
  if (!pglite) return { stop: () => '' };
  const original = pglite.execProtocolRawSync;
  const slow = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  let lastText = '(none)';
  pglite.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
    lastText = sqlTextOf(message) ?? lastText;
    const startedMs = performance.now();
    try {
      return original.call(this, message);
    } finally {
      const tookMs = performance.now() - startedMs;
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
    stop(): string {
      pglite.execProtocolRawSync = original;
      const lines = [...slow.entries()]
        .sort((a, b) => b[1].maxMs - a[1].maxMs)
        .slice(0, 6)
        .map(([text, s]) => `${s.count}× max ${s.maxMs.toFixed(0)} ms (${s.totalMs.toFixed(0)} ms in all) «${text}»`);
      return `PGlite calls over ${SLOW_MS} ms: ${lines.join('; ') || 'none'}`;
    },
  };
}
