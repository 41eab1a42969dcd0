import { DEMO_OPERATOR, seedOperators } from './modules/admin/admin.seed.ts';
import { seedIdentity } from './modules/identity/identity.seed.ts';
import { seedDemoVerification } from './modules/kyc/kyc.seed.ts';
import type { KycService } from './modules/kyc/kyc.service.ts';
import { seedMarket } from './modules/market/market.seed.ts';
import { seedDemoFunding, seedWallet } from './modules/wallet/wallet.seed.ts';
import type { Clock } from './platform/clock/clock.ts';
import type { Db } from './platform/db/client.ts';

/** What the demo seed needs of the built app to verify the demo account (`app.kyc`, `app.clock`). */
export interface DemoSeedServices {
  kyc: KycService;
  clock: Clock;
}

/**
 * The demo seed (ARCHITECTURE §3): idempotent, never run in production (`config.seedDemo` is false
 * there). The data part runs in one transaction; later modules add their seeds there. The demo
 * account gets starting balances through the ledger (issue 14 item 14), once. With `services` (the
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
  if (services) await seedDemoVerification(services.kyc, demoUserId, DEMO_OPERATOR.email, services.clock.now());
  return { demoUserId };
}
