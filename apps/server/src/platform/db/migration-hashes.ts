import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Applied migrations are frozen: a database that already ran a migration never runs it again, so an
 * edit to its file reaches new databases only and the two drift apart (0007, 0009, 0011 and 0012 were
 * edited after they were applied). `drizzle/frozen.sha256` lists the SHA-256 of every committed
 * migration, one `<hex>  <tag>.sql` line each, in the format of `sha256sum`; a test compares it with
 * the files, and `npm run db:freeze` appends the lines of new migrations (it never rewrites a line).
 */
export const FROZEN_LIST_FILE = 'frozen.sha256';

/** SHA-256 (hex) of one migration file's bytes. */
export function migrationHash(migrationsDir: string, tag: string): string {
  return createHash('sha256')
    .update(readFileSync(join(migrationsDir, `${tag}.sql`)))
    .digest('hex');
}

/** The migration tags of the journal, in order (`drizzle/meta/_journal.json`). */
export function journalTags(migrationsDir: string): string[] {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/** The frozen list as a map tag → hash; empty when the file does not exist yet. */
export function readFrozenHashes(migrationsDir: string): Map<string, string> {
  const path = join(migrationsDir, FROZEN_LIST_FILE);
  const hashes = new Map<string, string>();
  if (!existsSync(path)) return hashes;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(.+)\.sql$/.exec(line.trim());
    if (match) hashes.set(match[2]!, match[1]!);
  }
  return hashes;
}
