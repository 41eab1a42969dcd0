// npm run db:freeze — append the SHA-256 of every migration not yet in drizzle/frozen.sha256.
// Run it after `npm run db:generate` (or after writing a migration by hand), and commit both files.
// It never changes an existing line: a migration whose file no longer matches its line is reported,
// and the fix is a new migration, not an edit.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';
import { FROZEN_LIST_FILE, journalTags, migrationHash, readFrozenHashes } from '../src/platform/db/migration-hashes.ts';

const dir = findMigrationsDir();
const frozen = readFrozenHashes(dir);
let added = 0;
let changed = 0;
for (const tag of journalTags(dir)) {
  const hash = migrationHash(dir, tag);
  const known = frozen.get(tag);
  if (known === undefined) {
    appendFileSync(join(dir, FROZEN_LIST_FILE), `${hash}  ${tag}.sql\n`);
    added += 1;
    console.log(`frozen ${tag}.sql`);
  } else if (known !== hash) {
    changed += 1;
    console.error(`${tag}.sql was edited after it was frozen: restore it and write a new migration instead`);
  }
}
console.log(`${added} migration(s) frozen`);
process.exit(changed > 0 ? 1 : 0);
