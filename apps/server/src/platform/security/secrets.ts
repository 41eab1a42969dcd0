import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Read a secret kept in the data directory, or generate 48 random bytes (base64url) and keep them
 * there with mode 0600 (SESSION_SECRET is generated when absent outside production).
 */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const path = join(dataDir, 'secrets', name);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return secret;
}
