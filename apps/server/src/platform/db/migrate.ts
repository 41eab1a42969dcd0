import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Locate the committed drizzle-kit migrations (`apps/server/drizzle`). The search walks up from
 * this file so it works from the TypeScript sources and from the bundled `dist/main.js` alike.
 * @throws Error when no folder with `meta/_journal.json` is found within 8 levels.
 */
export function findMigrationsDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let depth = 0; depth < 8; depth += 1) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`no drizzle migrations folder found above ${start}`);
}
