import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashing with argon2id (RFC 9106; `@node-rs/argon2` defaults to argon2id). Parameters are
 * OWASP's first recommended set: 19 MiB memory, 2 passes, 1 lane.
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hash a secret (login password or 6-digit security code) into a PHC string `$argon2id$…`. */
export function hashSecret(secret: string): Promise<string> {
  return hash(secret, ARGON2_OPTIONS);
}

/** A hash of a random string, verified when the account is unknown so both answers take alike long. */
let dummyHash: Promise<string> | undefined;

/**
 * Check `secret` against `phcHash`. With `phcHash` null the same work is done against a dummy hash
 * and false is returned, so an unknown account and a wrong secret cost the same time.
 */
export async function verifySecret(phcHash: string | null, secret: string): Promise<boolean> {
  if (phcHash === null) {
    dummyHash ??= hashSecret(`dummy-${Math.random()}`);
    await verify(await dummyHash, secret).catch(() => false);
    return false;
  }
  try {
    return await verify(phcHash, secret);
  } catch {
    return false;
  }
}
