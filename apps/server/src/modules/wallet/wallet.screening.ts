import { type Page, totalPages } from '@meridian/contracts/pagination';
import type { ScreeningAlert, ScreeningAlertKind, ScreeningAlertStatus } from '@meridian/contracts/wallet';
import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { screeningAlerts } from './wallet.tables.ts';

/**
 * Screening alerts (KYT): every sanctions-list hit is stored for operators to decide.
 * Refused withdrawals and address-book entries are recorded once per open (user, kind, network,
 * address) — a user retrying the same address does not flood the queue; a deposit once per deposit
 * (unique kind + reference), so a repeated custody report never alerts twice.
 */

type AlertRow = typeof screeningAlerts.$inferSelect;

/** What a hit records. `referenceId` is the deposit id of a deposit alert, null otherwise. */
export interface AlertInput {
  userId: string;
  kind: ScreeningAlertKind;
  network: string;
  address: string;
  listName: string;
  referenceId: string | null;
}

/** Record a hit (see the module note for when a repeat is not recorded again). Returns the stored or existing alert id. */
export async function recordAlert(db: DbOrTx, input: AlertInput): Promise<number | undefined> {
  if (input.referenceId === null) {
    const [open] = await db
      .select({ id: screeningAlerts.id })
      .from(screeningAlerts)
      .where(
        and(
          eq(screeningAlerts.userId, input.userId),
          eq(screeningAlerts.kind, input.kind),
          eq(screeningAlerts.network, input.network),
          eq(screeningAlerts.address, input.address),
          eq(screeningAlerts.status, 'open'),
        ),
      )
      .limit(1);
    if (open) return open.id;
  }
  const [row] = await db
    .insert(screeningAlerts)
    .values(input)
    .onConflictDoNothing({ target: [screeningAlerts.kind, screeningAlerts.referenceId] })
    .returning({ id: screeningAlerts.id });
  return row?.id;
}

/** The alert of one deposit, if its source was a hit. */
export async function depositAlert(db: DbOrTx, depositId: number): Promise<AlertRow | undefined> {
  const [row] = await db
    .select()
    .from(screeningAlerts)
    .where(and(eq(screeningAlerts.kind, 'deposit'), eq(screeningAlerts.referenceId, String(depositId))));
  return row;
}

/** A page of alerts, oldest first, optionally of one status. */
export async function listAlerts(
  db: DbOrTx,
  query: { pageID: number; pageSize: number; status?: ScreeningAlertStatus | undefined },
): Promise<Page<ScreeningAlert>> {
  const where = query.status === undefined ? undefined : eq(screeningAlerts.status, query.status);
  const [total] = await db.select({ n: count() }).from(screeningAlerts).where(where);
  const rows = await db
    .select()
    .from(screeningAlerts)
    .where(where)
    .orderBy(asc(screeningAlerts.createdAt), asc(screeningAlerts.id))
    .limit(query.pageSize)
    .offset((query.pageID - 1) * query.pageSize);
  const totalCount = Number(total?.n ?? 0);
  return {
    list: rows.map(toScreeningAlert),
    pageID: query.pageID,
    pageSize: query.pageSize,
    totalCount,
    totalPage: totalPages(totalCount, query.pageSize),
  };
}

/**
 * Decide an open alert — one conditional UPDATE, so it is decided at most once — recording who,
 * when and the note, in the caller's transaction.
 * @throws DomainError NOT_FOUND; SCREENING_ALERT_STATE_CHANGED (151) when it is no longer open.
 */
export async function decideAlert(
  tx: DbOrTx,
  id: number,
  decision: 'released' | 'confirmed',
  operatorEmail: string,
  note: string | null,
  now: Date,
): Promise<AlertRow> {
  const [moved] = await tx
    .update(screeningAlerts)
    .set({ status: decision, decidedBy: operatorEmail, decidedAt: now, note })
    .where(and(eq(screeningAlerts.id, id), eq(screeningAlerts.status, 'open')))
    .returning();
  if (moved) return moved;
  const [existing] = await tx.select().from(screeningAlerts).where(eq(screeningAlerts.id, id));
  if (!existing) throw new DomainError('NOT_FOUND');
  throw new DomainError('SCREENING_ALERT_STATE_CHANGED', {}, { status: existing.status });
}

/** An alert row as the operator API shows it. */
export function toScreeningAlert(row: AlertRow): ScreeningAlert {
  return {
    id: String(row.id),
    userId: row.userId,
    kind: row.kind as ScreeningAlertKind,
    network: row.network,
    address: row.address,
    listName: row.listName,
    referenceId: row.referenceId,
    status: row.status as ScreeningAlertStatus,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}
