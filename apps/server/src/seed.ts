import { DEMO_OPERATOR, seedOperators } from './modules/admin/admin.seed.ts';
import { seedIdentity } from './modules/identity/identity.seed.ts';
import { seedDemoVerification } from './modules/kyc/kyc.seed.ts';
import type { KycService } from './modules/kyc/kyc.service.ts';
import { seedMarket } from './modules/market/market.seed.ts';
import { seedDemoFunding, seedWallet } from './modules/wallet/wallet.seed.ts';
import type { Clock } from './platform/clock/clock.ts';
import type { Db } from './platform/db/client.ts';
import { DomainError } from './platform/http/errors.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the demo seed needs of the built app to verify the demo account (`app.kyc`, `app.clock`). */
export interface DemoSeedServices {
  kyc: KycService;
  clock: Clock;
}

/**
 * The demo seed (docs/architecture.md "Database"): idempotent, never run in production (`config.seedDemo` is false
 * there). The data part runs in one transaction; later modules add their seeds there. The demo
 * account gets starting balances through the ledger, once. With `services` (the
 * server passes its app's), the demo account is then verified to level 2 through the KYC service's
 * real submit and approval paths (`seedDemoVerification`, docs/decisions/0011-verification-level.md),
 * after the transaction: those paths run their own.
 * @returns the demo account's user id.
 */
export async function seedDemo(db: Db, services?: DemoSeedServices): Promise<{ demoUserId: string }> {
  const { demoUserId } = await db.transaction(async (tx) => {
    await seedWallet(tx);
    await seedMarket(tx);
    const seeded = await seedIdentity(tx);
    await seedDemoFunding(tx, seeded.demoUserId);
    await seedOperators(tx);
    return seeded;
  });
  if (services) await verifyDemo(services, demoUserId);
  return { demoUserId };
}

/** How many times the demo's verification runs before a refusal is final. */
const DEMO_VERIFY_ATTEMPTS = 10;

/**
 * Verify the demo account, again if a step is refused: two server processes starting on one
 * database at once both run the seed, and the one that is a step behind meets the other's work
 * (its draft refused because the step is already under review, an approval of a step already
 * approved). Each step is skipped once done, so a rerun finishes what the other left.
 */
async function verifyDemo(services: DemoSeedServices, demoUserId: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await seedDemoVerification(services.kyc, demoUserId, DEMO_OPERATOR.email, services.clock.now());
      return;
    } catch (error) {
      if (!(error instanceof DomainError) || attempt >= DEMO_VERIFY_ATTEMPTS) throw error;
      await sleep(100 * attempt);
    }
  }
}
