import type { AuditEntry } from '@meridian/contracts/back-office';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { stringify } from 'csv-stringify/sync';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { and, desc, eq, gte, ilike, lt, type SQL, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { auditLog } from './admin.tables.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The filters of `GET admin/audit` (contracts `auditQuerySchema`); dates are Hong Kong days, both inclusive. */
export interface AuditFilter {
  operator?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/** The most rows one CSV export holds (newest first); a wider search is narrowed by dates. */
export const AUDIT_CSV_MAX_ROWS = 50_000;

function whereOf(filter: AuditFilter): SQL | undefined {
  const escape = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);
  const conditions = [
    filter.operator && ilike(auditLog.operatorEmail, `%${escape(filter.operator)}%`),
    filter.action && ilike(auditLog.action, `%${escape(filter.action)}%`),
    filter.targetType && eq(auditLog.targetType, filter.targetType),
    filter.targetId && eq(auditLog.targetId, filter.targetId),
    filter.from && gte(auditLog.at, dayjs.tz(filter.from, BUSINESS_TIME_ZONE).toDate()),
    filter.to && lt(auditLog.at, dayjs.tz(filter.to, BUSINESS_TIME_ZONE).add(1, 'day').toDate()),
  ].filter((condition): condition is SQL => Boolean(condition));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

function entryOf(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    operatorId: row.operatorId,
    operatorEmail: row.operatorEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
    ip: row.ip,
    outcomeCode: row.outcomeCode,
  };
}

/** A page of the audit log, newest first. */
export async function searchAudit(
  db: DbOrTx,
  query: AuditFilter & { pageID: number; pageSize: number },
): Promise<Page<AuditEntry>> {
  const where = whereOf(query);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  const totalCount = count?.count ?? 0;
  return {
    list: rows.map(entryOf),
    pageID: query.pageID,
    pageSize: query.pageSize,
    totalPage: totalPages(totalCount, query.pageSize),
    totalCount,
  };
}

/**
 * The audit log as CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheet programs read the
 * Chinese text), newest first, at most `AUDIT_CSV_MAX_ROWS` rows; before/after as JSON text.
 */
export async function exportAuditCsv(db: DbOrTx, filter: AuditFilter): Promise<string> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(whereOf(filter))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_CSV_MAX_ROWS);
  const records = rows.map(entryOf).map((entry) => ({
    ...entry,
    before: entry.before === null ? '' : JSON.stringify(entry.before),
    after: entry.after === null ? '' : JSON.stringify(entry.after),
  }));
  const columns = [
    'id',
    'at',
    'operatorId',
    'operatorEmail',
    'action',
    'targetType',
    'targetId',
    'before',
    'after',
    'reason',
    'ip',
    'outcomeCode',
  ];
  return `\uFEFF${stringify(records, { header: true, columns })}`;
}
