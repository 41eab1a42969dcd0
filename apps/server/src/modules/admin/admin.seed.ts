import type { DbOrTx } from '../../platform/db/client.ts';
import { hashSecret } from '../../platform/security/passwords.ts';
import { operators } from './admin.tables.ts';

/** The demo back-office admin (never in production): sign in at /admin and enrol an authenticator. */
export const DEMO_OPERATOR = { email: 'admin@meridian.test', password: 'Meridian-admin-2026', role: 'admin' } as const;

/**
 * Create the demo admin operator once; an existing row, its password and its
 * authenticator are left as they are. Part of the demo seed (docs/architecture.md "Database"), never in production.
 */
export async function seedOperators(tx: DbOrTx): Promise<void> {
  await tx
    .insert(operators)
    .values({
      email: DEMO_OPERATOR.email,
      role: DEMO_OPERATOR.role,
      passwordHash: await hashSecret(DEMO_OPERATOR.password),
    })
    .onConflictDoNothing({ target: operators.email });
}
