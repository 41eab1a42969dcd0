import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Read the file `DATA_DIR/secrets/<name>`, or create it with `generate()` — once, even when several
 * processes sharing the directory start together: the new content is written to a private temporary
 * file and hard-linked into place, which fails with EEXIST when another process got there first
 * (its complete file is then read instead). Files are mode 0600 in a 0700 directory.
 * @throws the file system's error for anything but a lost race.
 */
export function readOrCreateSecretFile(dataDir: string, name: string, generate: () => string): string {
  const dir = join(dataDir, 'secrets');
  const path = join(dir, name);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const content = generate();
  writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
    return content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Read a secret kept in the data directory, or generate 48 random bytes (base64url) and keep them
 * there (SESSION_SECRET and the other generated keys outside production; see `readOrCreateSecretFile`).
 */
export function readOrCreateSecret(dataDir: string, name: string): string {
  return readOrCreateSecretFile(dataDir, name, () => `${randomBytes(48).toString('base64url')}\n`).trim();
}
