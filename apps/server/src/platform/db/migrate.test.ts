import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findMigrationsDir } from './migrate.ts';
import { journalTags, migrationHash, readFrozenHashes } from './migration-hashes.ts';

/**
 * Drizzle's migrator applies a migration only when its journal time (`when`) is later than the
 * last applied one's, so an entry that sorts before an earlier entry is silently skipped on every
 * database already migrated past it (0011 was, until its time was corrected). Hand-written
 * migrations set `when` themselves: it must grow with `idx`.
 */
it('lists every migration once, with journal times growing in order and its SQL file present', () => {
  const dir = findMigrationsDir();
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; when: number; tag: string }[];
  };
  const entries = journal.entries;
  expect(entries.map((entry) => entry.idx)).toEqual(entries.map((_entry, index) => index));
  for (const [index, entry] of entries.entries()) {
    if (index > 0)
      expect(entry.when, `${entry.tag} must come after ${entries[index - 1]!.tag}`).toBeGreaterThan(
        entries[index - 1]!.when,
      );
    expect(existsSync(join(dir, `${entry.tag}.sql`)), `${entry.tag}.sql`).toBe(true);
  }
});

/**
 * A migration, once committed, is frozen: databases that ran it never run it
 * again, so an edit would reach new databases only. Every migration of the journal has its SHA-256
 * in `drizzle/frozen.sha256` and still matches it; a new migration is added with `npm run db:freeze`.
 */
it('keeps every committed migration byte for byte as it was frozen', () => {
  const dir = findMigrationsDir();
  const frozen = readFrozenHashes(dir);
  const tags = journalTags(dir);
  const unfrozen = tags.filter((tag) => !frozen.has(tag));
  expect(unfrozen, 'new migrations: run `npm run db:freeze` and commit drizzle/frozen.sha256').toEqual([]);
  const edited = tags.filter((tag) => frozen.get(tag) !== migrationHash(dir, tag));
  expect(
    edited,
    'these migrations were edited after they were committed: restore them and write a new migration',
  ).toEqual([]);
  expect(
    [...frozen.keys()].filter((tag) => !tags.includes(tag)),
    'frozen migrations missing from the journal',
  ).toEqual([]);
});
