import { seedOperators } from './modules/admin/admin.seed.ts';
import { seedIdentity } from './modules/identity/identity.seed.ts';
import { seedMarket } from './modules/market/market.seed.ts';
import { seedDemoFunding, seedWallet } from './modules/wallet/wallet.seed.ts';
import type { Db } from './platform/db/client.ts';

/**
 * The demo seed (ARCHITECTURE §3): idempotent, one transaction, never run in production
 * (`config.seedDemo` is false there). Later modules add their seeds here. The demo account gets
 * starting balances through the ledger (issue 14 item 14), once.
 */
export async function seedDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await seedWallet(tx);
    await seedMarket(tx);
    const { demoUserId } = await seedIdentity(tx);
    await seedDemoFunding(tx, demoUserId);
    await seedOperators(tx);
  });
}
