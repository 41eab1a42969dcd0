import {
  type DecideProApplicationBody,
  opsCorporateEndpoints,
  PRO_APPLICATIONS_CSV_PATH,
} from '@meridian/contracts/corporate';
import { API_BASE_PATH } from '@meridian/contracts/http';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { buildUrl, unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type ProApplicationQuery = z.input<typeof opsCorporateEndpoints.listProApplications.query>;

/** `GET admin/pro-applications?status=&q=`: PRO account applications, open ones first (oldest first), then decided. */
export function listProApplications(query: ProApplicationQuery) {
  return adminFetch(opsCorporateEndpoints.listProApplications, { query });
}

/** The applications' table page for `query`; the previous page stays shown while the next loads. */
export function useProApplications(query: ProApplicationQuery) {
  return useQuery({
    queryKey: [...adminKeys.proApplications, query],
    queryFn: () => listProApplications(query),
    placeholderData: keepPreviousData,
  });
}

/**
 * `POST admin/pro-applications/:id/decide`: approve or reject with the reply the user receives.
 * @throws ApiError 282 when already decided; 120 naming `reply`.
 */
export async function decideProApplication(input: { id: number } & DecideProApplicationBody) {
  const { id, ...body } = input;
  return unwrap(await adminCall(opsCorporateEndpoints.decideProApplication, { params: { id: String(id) }, body }));
}

/** Decide an application, then refresh the list. */
export function useDecideProApplication() {
  return useAdminMutation(decideProApplication, [adminKeys.proApplications]);
}

/**
 * The "Export CSV" address: `GET /api/admin/pro-applications.csv` with the list's filters (not its
 * paging: the file holds every match), a plain download link carrying the session cookie.
 */
export function proApplicationsCsvHref(query: Pick<ProApplicationQuery, 'status' | 'q'>): string {
  const params: Record<string, string> = {};
  if (query.status) params['status'] = query.status;
  if (query.q?.trim()) params['q'] = query.q.trim();
  return buildUrl(PRO_APPLICATIONS_CSV_PATH, params, API_BASE_PATH);
}
