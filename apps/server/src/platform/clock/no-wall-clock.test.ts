import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The app's clock is the server's only source of the current instant (docs/clock.md): outside
 * tests, no server source reads the machine's time directly — no `Date.now`, no `new Date()`
 * without an argument, no SQL `now()` / `CURRENT_TIMESTAMP` in a query. Durations use
 * `performance.now()`; the few places that must read the machine's time say so by using
 * `systemClock` from this folder. Column defaults (`.defaultNow()`) are a safety net and allowed.
 */
const SRC = resolve(import.meta.dirname, '../..');

/**
 * Files allowed to read the machine's time, each with its reason. The clock module itself is the
 * one definition of `systemClock` and `startedClock`.
 */
const ALLOWED: Record<string, string> = {
  'platform/clock/clock.ts': 'defines systemClock and startedClock',
};

/** Test code and test support may use the machine's time (they date their own fixtures). */
const isTestFile = (path: string) => /\.test\.tsx?$/.test(path) || /\.test-kit\.ts$/.test(path);

/** Every place in `text` that reads the machine's time, as `line: excerpt`. */
export function wallClockReads(text: string, isSql = false): string[] {
  const found: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const note = (index: number, what: string) => found.push(`${lineOf(index)}: ${what}`);
  const sqlNow =
    /(?<![.\w$])now\(\)|\bcurrent_timestamp\b|\blocaltimestamp\b|\bclock_timestamp\(\)|\bstatement_timestamp\(\)/gi;
  if (isSql) {
    for (const match of text.matchAll(sqlNow)) note(match.index, match[0]);
    return found;
  }
  for (const match of text.matchAll(/\bDate\.now\b/g)) note(match.index, 'Date.now');
  for (const match of text.matchAll(/\bnew Date\(\s*\)/g)) note(match.index, 'new Date()');
  // SQL in TypeScript: the tagged templates `sql`…`` (Drizzle) and their text.
  for (const template of text.matchAll(/\bsql(?:<[^>`]*>)?`([^`]*)`/g)) {
    for (const match of template[1]!.matchAll(sqlNow)) note(template.index + 4 + match.index, `SQL ${match[0]}`);
  }
  return found;
}

function serverSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(path);
    return /\.(ts|sql)$/.test(entry.name) ? [path] : [];
  });
}

describe('the app clock is the only source of now', () => {
  it('finds the patterns it is meant to find', () => {
    expect(wallClockReads('const a = Date.now();\nconst b = new Date( );\nconst c = new Date(0);')).toEqual([
      '1: Date.now',
      '2: new Date()',
    ]);
    expect(wallClockReads('this.now = options.now ?? Date.now;')).toEqual(['1: Date.now']);
    expect(wallClockReads('tx.execute(sql`UPDATE t SET\n  at = now()`)')).toEqual(['2: SQL now()']);
    expect(wallClockReads('sql<string>`CURRENT_TIMESTAMP`')).toEqual(['1: SQL CURRENT_TIMESTAMP']);
    expect(wallClockReads('INSERT INTO t VALUES (now());', true)).toEqual(['1: now()']);
    expect(wallClockReads('clock.now(); performance.now(); at: timestamp().defaultNow(); now();')).toEqual([]);
    expect(wallClockReads('sql`SET at = ${clock.now().toISOString()}::timestamptz`')).toEqual([]);
  });

  it('no server source outside tests reads the machine time (Date.now, new Date(), SQL now())', () => {
    const offenders = serverSources(SRC).flatMap((path) => {
      const name = relative(SRC, path).split(sep).join('/');
      if (isTestFile(name) || name in ALLOWED) return [];
      return wallClockReads(readFileSync(path, 'utf8'), name.endsWith('.sql')).map((where) => `${name}:${where}`);
    });
    expect(offenders).toEqual([]);
  });
});
