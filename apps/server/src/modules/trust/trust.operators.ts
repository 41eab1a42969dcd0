import { type Page, totalPages } from '@meridian/contracts/pagination';
import { type OpsTrust, TRUST_ASSET, type TrustState } from '@meridian/contracts/trust';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE } from '../../platform/db/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, trustAccount } from '../ledger/ledger.types.ts';
import { trustMovements, trusts } from './trust.tables.ts';
import { holdingOf, toTrust, type TrustRow, type TrustServiceDeps } from './trust.internal.ts';

/** The back office's side: trusts by state, and the release of a trust in claim. */
export function createTrustOperators(deps: TrustServiceDeps) {
  const { db } = deps;

  async function toOpsTrust(row: TrustRow, userEmail: string | null, lastSignInAt: Date | null): Promise<OpsTrust> {
    return {
      ...toTrust(row, await holdingOf(db, row.id)),
      userId: row.userId,
      userEmail,
      lastSignInAt: lastSignInAt?.toISOString() ?? null,
      releaseReference: row.releaseReference,
      releasedBy: row.releasedBy,
    };
  }

  return {
    /** `GET admin/trusts`: trusts in `state` (default claim), oldest claim first, with the settlor's email and last sign-in. */
    async listForOperators(query: { state: TrustState; pageID: number; pageSize: number }): Promise<Page<OpsTrust>> {
      const [total] = await db.select({ n: count() }).from(trusts).where(eq(trusts.state, query.state));
      const rows = await db
        .select()
        .from(trusts)
        .where(eq(trusts.state, query.state))
        .orderBy(asc(trusts.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const userIds = [...new Set(rows.map((row) => row.userId))];
      const [recipients, lastSignIns] = await Promise.all([
        deps.identity.recipientsOf(userIds),
        deps.identity.lastSignInAtOf(userIds),
      ]);
      const list = await Promise.all(
        rows.map(async (row) =>
          toOpsTrust(row, recipients.get(row.userId)?.email ?? null, lastSignIns.get(row.userId) ?? null),
        ),
      );
      const totalCount = total?.n ?? 0;
      return {
        list,
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /**
     * `POST admin/trusts/:id/release`: a finance operator, having verified the beneficiaries, releases
     * a trust in claim. In one transaction: the trust row locked and moved claim → closed (with the
     * operator, the payout reference and the verification note), and — when it holds BTC — one entry
     * (TRUST_RELEASE, key `trust:<id>:release`, so at most once) moving the whole holding to
     * TRUST_PAYOUTS, from which the operator pays the beneficiaries off the platform. No automatic payout.
     * @throws DomainError NOT_FOUND, TRUST_STATE_CHANGED (182) when the trust is not in claim.
     */
    async release(
      trustId: number,
      operatorEmail: string,
      body: { reference: string; verificationNote: string },
    ): Promise<OpsTrust> {
      const row = await db.transaction(async (tx: Tx) => {
        const [locked] = await tx.select().from(trusts).where(eq(trusts.id, trustId)).for('update');
        if (!locked) throw new DomainError('NOT_FOUND');
        if (locked.state !== 'claim') throw new DomainError('TRUST_STATE_CHANGED');
        const holdingMinor = await holdingOf(tx, trustId);
        if (holdingMinor > 0n) {
          const { entry } = await postEntry(tx, {
            kind: 'TRUST_RELEASE',
            reference: `trust:${trustId}`,
            idempotencyKey: `trust:${trustId}:release`,
            postings: transfer(
              trustAccount(trustId, TRUST_ASSET),
              platformAccount('TRUST_PAYOUTS', TRUST_ASSET),
              holdingMinor,
            ),
            metadata: { payoutReference: body.reference },
          });
          await tx.insert(trustMovements).values({
            trustId,
            kind: 'release',
            amountMinor: holdingMinor,
            feeMinor: 0n,
            netMinor: holdingMinor,
            entryId: entry.id,
            idempotencyKey: 'release',
            requestHash: REQUEST_HASH_IN_STORE,
          });
        }
        const now = deps.now();
        const [updated] = await tx
          .update(trusts)
          .set({
            state: 'closed',
            releasedAt: now,
            releasedBy: operatorEmail,
            releaseReference: body.reference,
            releaseNote: body.verificationNote,
            updatedAt: now,
          })
          .where(and(eq(trusts.id, trustId), eq(trusts.state, 'claim')))
          .returning();
        return updated!;
      });
      const recipients = await deps.identity.recipientsOf([row.userId]);
      const lastSignIns = await deps.identity.lastSignInAtOf([row.userId]);
      return toOpsTrust(row, recipients.get(row.userId)?.email ?? null, lastSignIns.get(row.userId) ?? null);
    },
  };
}
