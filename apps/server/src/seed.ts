import { seedIdentity } from './modules/identity/identity.seed.ts';
import { seedMarket } from './modules/market/market.seed.ts';
import { seedWallet } from './modules/wallet/wallet.seed.ts';
import type { Db } from './platform/db/client.ts';

/**
 * The demo seed (ARCHITECTURE §3): idempotent, one transaction, never run in production
 * (`config.seedDemo` is false there). Later modules add their seeds here.
 */
export async function seedDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await seedWallet(tx);
    await seedMarket(tx);
    await seedIdentity(tx);
  });
}
