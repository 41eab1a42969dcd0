import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findMigrationsDir } from './migrate.ts';

/**
 * Drizzle's migrator applies a migration only when its journal time (`when`) is later than the
 * last applied one's, so an entry that sorts before an earlier entry is silently skipped on every
 * database already migrated past it (0011 was, until its time was corrected). Hand-written
 * migrations set `when` themselves: it must grow with `idx`.
 */
it('lists every migration once, with journal times growing in order and its SQL file present', () => {
  const dir = findMigrationsDir();
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
  const entries = journal.entries;
  expect(entries.map((entry) => entry.idx)).toEqual(entries.map((_entry, index) => index));
  for (const [index, entry] of entries.entries()) {
    if (index > 0) expect(entry.when, `${entry.tag} must come after ${entries[index - 1]!.tag}`).toBeGreaterThan(entries[index - 1]!.when);
    expect(existsSync(join(dir, `${entry.tag}.sql`)), `${entry.tag}.sql`).toBe(true);
  }
});
