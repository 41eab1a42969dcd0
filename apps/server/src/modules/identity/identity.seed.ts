import type { DbOrTx } from '../../platform/db/client.ts';
import { hashSecret } from '../../platform/security/passwords.ts';
import { users } from './identity.tables.ts';

/** The demo account of the seed (never in production): verified to the investor level. */
export const DEMO_USER = { email: 'demo@meridian.test', password: 'Meridian-demo-2026' } as const;

/** Idempotent: creates the demo account once. */
export async function seedIdentity(tx: DbOrTx): Promise<void> {
  await tx
    .insert(users)
    .values({ email: DEMO_USER.email, passwordHash: await hashSecret(DEMO_USER.password), kycLevel: 2 })
    .onConflictDoNothing({ target: users.email });
}
