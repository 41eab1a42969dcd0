import { AUDIT_CSV_PATH } from '@meridian/contracts/back-office';
import { API_BASE_PATH } from '@meridian/contracts/http';
import { buildUrl } from '../../../lib/api-client.ts';

/** The audit log's filters as the page holds them; every one optional, dates `YYYY-MM-DD`. */
export interface AuditFilters {
  operator?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/** The filters as a query: blank texts are left out, others trimmed (the server trims nothing here). */
export function auditQueryOf(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    const text = typeof value === 'string' ? value.trim() : '';
    if (text) query[name] = text;
  }
  return query;
}

/**
 * The "Export CSV" address: `GET /api/admin/audit.csv` with the list's query, a plain download link
 * (the session cookie goes with it). The list's paging is not part of it: the file holds every match.
 */
export function auditCsvHref(filters: AuditFilters): string {
  return buildUrl(AUDIT_CSV_PATH, auditQueryOf(filters), API_BASE_PATH);
}
