import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../test/helpers.ts';
import { AUDIT_RETENTION_YEARS_AFTER_CLOSURE, purgeExpiredAudit } from './identity.service.ts';
import { auditEvents, users } from './identity.tables.ts';

/**
 * The audit-log retention rule (docs/identity.md "Account deletion and retention"): kept while the
 * account is open, and for AUDIT_RETENTION_YEARS_AFTER_CLOSURE years after it closed; rows of no
 * account kept that long after they were written.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const YEAR_MS = 365.25 * 86_400_000;

async function auditCount(userId: string | null): Promise<number> {
  const rows = await t.database.db
    .select({ n: sql<string>`count(*)` })
    .from(auditEvents)
    .where(
      userId === null
        ? sql`${auditEvents.userId} IS NULL AND ${auditEvents.kind} = 'test.orphan'`
        : eq(auditEvents.userId, userId),
    );
  return Number(rows[0]?.n ?? 0);
}

it('purges the audit rows of accounts closed more than five years ago, and old rows of no account, keeping the rest', async () => {
  const db = t.database.db;
  const now = t.app.clock.now();
  const open = await registerAndLogin(t.app);
  const closedLongAgo = await registerAndLogin(t.app);
  const closedRecently = await registerAndLogin(t.app);
  const yearsAgo = (years: number) => new Date(now.getTime() - years * YEAR_MS);
  await db
    .update(users)
    .set({ status: 'closed', closedAt: yearsAgo(AUDIT_RETENTION_YEARS_AFTER_CLOSURE + 1) })
    .where(eq(users.id, closedLongAgo.userId));
  await db
    .update(users)
    .set({ status: 'closed', closedAt: yearsAgo(1) })
    .where(eq(users.id, closedRecently.userId));
  // The open account's history is older than the retention period: it is kept while the account is open.
  await db
    .update(auditEvents)
    .set({ createdAt: yearsAgo(10) })
    .where(eq(auditEvents.userId, open.userId));
  await db.insert(auditEvents).values([
    { userId: null, kind: 'test.orphan', createdAt: yearsAgo(AUDIT_RETENTION_YEARS_AFTER_CLOSURE + 1) },
    { userId: null, kind: 'test.orphan', createdAt: yearsAgo(1) },
  ]);
  const before = {
    open: await auditCount(open.userId),
    long: await auditCount(closedLongAgo.userId),
    recent: await auditCount(closedRecently.userId),
  };
  expect(before.long).toBeGreaterThan(0);

  expect(await purgeExpiredAudit(db, now)).toBe(before.long + 1);
  expect(await auditCount(closedLongAgo.userId)).toBe(0);
  expect(await auditCount(open.userId)).toBe(before.open);
  expect(await auditCount(closedRecently.userId)).toBe(before.recent);
  expect(await auditCount(null)).toBe(1);
  // Nothing left to purge: a second run deletes nothing.
  expect(await purgeExpiredAudit(db, now)).toBe(0);
  // The daily job runs the same rule.
  expect((await t.app.scheduler.tick())['identity.audit-retention']).toBe('ran');
});
