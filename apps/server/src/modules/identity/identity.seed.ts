import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { hashSecret } from '../../platform/security/passwords.ts';
import { users } from './identity.tables.ts';

/**
 * The demo account of the seed (never in production). Created at level 0 like any account; the demo
 * seed then verifies it to the investor level through the KYC service (`seedDemoVerification`).
 */
export const DEMO_USER = { email: 'demo@meridian.test', password: 'Meridian-demo-2026' } as const;

/**
 * Idempotent: creates the demo account once.
 * @returns the demo account's user id (for the other modules' demo data, e.g. its starting balances).
 */
export async function seedIdentity(tx: DbOrTx): Promise<{ demoUserId: string }> {
  await tx
    .insert(users)
    .values({ email: DEMO_USER.email, passwordHash: await hashSecret(DEMO_USER.password) })
    .onConflictDoNothing({ target: users.email });
  const [demo] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USER.email));
  if (!demo) throw new Error('the demo account was not created');
  return { demoUserId: demo.id };
}
