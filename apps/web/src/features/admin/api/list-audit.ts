import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminFetch, adminKeys } from './admin-call.ts';

export type AuditQuery = z.input<typeof backOfficeAccessEndpoints.listAudit.query>;

/** `GET admin/audit`: the audit log, newest first, filtered by operator, action, target and dates. */
export function listAudit(query: AuditQuery) {
  return adminFetch(backOfficeAccessEndpoints.listAudit, { query });
}

/** The table's page for `query`; the previous page stays shown while the next loads. */
export function useAudit(query: AuditQuery) {
  return useQuery({
    queryKey: [...adminKeys.audit, 'list', query],
    queryFn: () => listAudit(query),
    placeholderData: keepPreviousData,
  });
}
