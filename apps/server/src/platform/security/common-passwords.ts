import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The 100,000 most common passwords (UK NCSC "PwnedPasswordsTop100k", a copy kept in
 * `apps/server/assets/`). Loaded into a Set on first use, not at start-up, so the server starts fast.
 */
export const COMMON_PASSWORDS_FILE = 'ncsc_pwned_passwords_top100k.txt';

let commonPasswords: Set<string> | undefined;

/** Find `assets/<name>` walking up from this file (works from sources and from the bundled dist). */
export function findAsset(name: string, start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let depth = 0; depth < 8; depth += 1) {
    const candidate = join(dir, 'assets', name);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`asset ${name} not found above ${start}`);
}

/** Load a list file (one entry per line) into a Set of exact lines. */
export function loadLineSet(path: string): Set<string> {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  return new Set(lines.filter((line) => line.length > 0));
}

/**
 * True when `password` (as typed, and trimmed) is one of the 100,000 most common passwords.
 * The comparison is exact: the list holds the leaked spellings themselves.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadLineSet(findAsset(COMMON_PASSWORDS_FILE));
  return commonPasswords.has(password) || commonPasswords.has(password.trim());
}
