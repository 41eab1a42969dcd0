import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { custodyWebhookBodySchema } from '@meridian/contracts/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, testDatabaseKind } from './helpers.ts';
import { checkLedgerInvariants } from '../src/modules/ledger/ledger.invariants.ts';
import { liabilitiesAndHoldings, userBalances } from '../src/modules/ledger/ledger.service.ts';
import { seedDemo } from '../src/seed.ts';
import {
  backupEmbeddedDatabase,
  RestoreTargetNotEmptyError,
  restoreEmbeddedDatabase,
} from '../src/platform/db/backup.ts';
import { openDatabase } from '../src/platform/db/client.ts';

/**
 * Issue 21 "Backups": a database with activity (the demo seed's balances and a deposit credited
 * through the wallet service) is written to a data directory, backed up with `backupEmbeddedDatabase`,
 * restored into a new directory, and the restored ledger passes `ledger:check` with the same balances.
 */
describe.runIf(testDatabaseKind === 'pglite')('embedded database backup and restore', () => {
  let t: TestApp;
  let workDir: string;
  let userId: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'meridian-backup-'));
    t = await createTestApp();
    await seedDemo(t.database.db);
    const session = await registerAndLogin(t.app);
    userId = session.userId;
    await t.app.identity.setKycLevel(userId, 1);
    const { address } = await t.app.wallet.depositAddress(userId, 'USDT', 'TRC20');
    await t.app.wallet.handleCustodyDelivery(
      custodyWebhookBodySchema.parse({
        deliveryId: randomUUID(),
        sentAt: t.app.clock.now().toISOString(),
        event: {
          type: 'deposit',
          network: 'TRC20',
          coin: 'USDT',
          address,
          txHash: `tx-${randomUUID()}`,
          outputIndex: 0,
          amount: '250',
          confirmations: 25,
        },
      }),
    );
  });

  afterAll(async () => {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('backs up a data directory with activity and restores it with the same ledger', async () => {
    const balancesBefore = await userBalances(t.database.db, userId);
    expect(balancesBefore.find((b) => b.type === 'USER_AVAILABLE' && b.asset === 'USDT')?.balanceMinor).toBe(
      250_000_000n,
    );
    const linesBefore = await liabilitiesAndHoldings(t.database.db);
    // The test's database lives in memory: load it into a data directory as a server's would be.
    const sourceDump = join(workDir, 'memory.tar.gz');
    writeFileSync(sourceDump, Buffer.from(await (await t.database.pglite!.dumpDataDir('gzip')).arrayBuffer()));
    const sourceDir = join(workDir, 'source');
    await restoreEmbeddedDatabase(sourceDump, sourceDir);

    const backupFile = join(workDir, 'backup', 'meridian.tar.gz');
    const { sizeBytes } = await backupEmbeddedDatabase(sourceDir, backupFile);
    expect(sizeBytes).toBeGreaterThan(0);
    const restoredDir = join(workDir, 'restored');
    await restoreEmbeddedDatabase(backupFile, restoredDir);

    const restored = await openDatabase({ kind: 'pglite', dataDir: restoredDir });
    try {
      const report = await checkLedgerInvariants(restored.db);
      expect(report.isHeld).toBe(true);
      expect(report.entryCount).toBe((await checkLedgerInvariants(t.database.db)).entryCount);
      expect(report.entryCount).toBeGreaterThan(0);
      expect(await userBalances(restored.db, userId)).toEqual(balancesBefore);
      expect(await liabilitiesAndHoldings(restored.db)).toEqual(linesBefore);
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore over a directory that holds anything, and leaves it as it was', async () => {
    const busyDir = join(workDir, 'busy');
    mkdirSync(busyDir, { recursive: true });
    writeFileSync(join(busyDir, 'keep.txt'), 'mine');
    await expect(restoreEmbeddedDatabase(join(workDir, 'backup', 'meridian.tar.gz'), busyDir)).rejects.toBeInstanceOf(
      RestoreTargetNotEmptyError,
    );
  });
});
