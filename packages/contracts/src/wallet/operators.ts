import { z } from 'zod';
import { amountMinorSchema } from '../money.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import { defineEndpoint } from '../endpoint.ts';
import { ANY_OPERATOR } from '../operators.ts';
import { idParamSchema } from './records.ts';

// ---------------------------------------------------------------- operators

/** A limit row as operators see and edit it (USD decimal strings, 2 decimals). */
export const opsWithdrawalLimitSchema = z.object({
  level: z.number().int(),
  usdPer24h: z.string(),
  usdPerMonth: z.string(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type OpsWithdrawalLimit = z.infer<typeof opsWithdrawalLimitSchema>;
/** `PUT admin/withdrawal-limits/:level` path: levels 1–3 (level 0 cannot withdraw). */
export const withdrawalLimitLevelParamSchema = z.object({ level: z.coerce.number().int().min(1).max(3) });
/** `PUT admin/withdrawal-limits/:level` body: positive USD amounts, at most 2 decimals, parsed to cents. */
export const opsWithdrawalLimitBodySchema = z.object({
  usdPer24h: amountMinorSchema('USD'),
  usdPerMonth: amountMinorSchema('USD'),
});

/** What a screening alert is about: a refused withdrawal or address-book entry, or a frozen deposit. */
export const SCREENING_ALERT_KINDS = ['withdrawal', 'address_book', 'deposit'] as const;
export type ScreeningAlertKind = (typeof SCREENING_ALERT_KINDS)[number];
/** open → released (cleared: a frozen deposit is credited) or confirmed (stays refused/frozen). */
export const SCREENING_ALERT_STATUSES = ['open', 'released', 'confirmed'] as const;
export type ScreeningAlertStatus = (typeof SCREENING_ALERT_STATUSES)[number];

export const screeningAlertSchema = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.enum(SCREENING_ALERT_KINDS),
  network: z.string(),
  address: z.string(),
  listName: z.string(),
  /** The deposit id of a deposit alert; null for a refused withdrawal or address-book entry (nothing was recorded). */
  referenceId: z.string().nullable(),
  status: z.enum(SCREENING_ALERT_STATUSES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type ScreeningAlert = z.infer<typeof screeningAlertSchema>;
/** `GET admin/screening/alerts?status=open`: a page, oldest first, optionally of one status. */
export const screeningAlertQuerySchema = pageQuerySchema.extend({
  status: z.enum(SCREENING_ALERT_STATUSES).optional(),
});
/** `POST admin/screening/alerts/:id/release`: an optional note. */
export const screeningReleaseBodySchema = z.object({ note: z.string().trim().min(1).max(500).optional() });
/** `POST admin/screening/alerts/:id/confirm`: why the hit stands (required). */
export const screeningConfirmBodySchema = z.object({
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500),
});

/**
 * The operator calls of the wallet, registered by the admin module with the other
 * back-office routes (`/api/admin`, `auth: 'operator'`). Limits: read by any operator,
 * changed by `admin` only, each change audited. Screening alerts: listed by `support`, `compliance`
 * and `admin`; decided by `compliance` and `admin`.
 */
export const opsWalletEndpoints = {
  listWithdrawalLimits: defineEndpoint({
    method: 'GET',
    path: '/admin/withdrawal-limits',
    tag: 'back-office',
    summary: 'Withdrawal limits per identity level (USD per 24 hours and per month)',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(opsWithdrawalLimitSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  setWithdrawalLimit: defineEndpoint({
    method: 'PUT',
    path: '/admin/withdrawal-limits/:level',
    tag: 'back-office',
    summary: 'Change the withdrawal limits of one level (admin; audited)',
    auth: 'operator',
    roles: [],
    params: withdrawalLimitLevelParamSchema,
    body: opsWithdrawalLimitBodySchema,
    content: opsWithdrawalLimitSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  listScreeningAlerts: defineEndpoint({
    method: 'GET',
    path: '/admin/screening/alerts',
    tag: 'back-office',
    summary: 'Screening alerts (sanctions-list hits), oldest first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: screeningAlertQuerySchema,
    content: pageSchema(screeningAlertSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  releaseScreeningAlert: defineEndpoint({
    method: 'POST',
    path: '/admin/screening/alerts/:id/release',
    tag: 'back-office',
    summary: 'Release an alert: a frozen deposit is credited to the user (once)',
    auth: 'operator',
    roles: ['compliance'],
    params: idParamSchema,
    body: screeningReleaseBodySchema,
    content: screeningAlertSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SCREENING_ALERT_STATE_CHANGED'],
  }),
  confirmScreeningAlert: defineEndpoint({
    method: 'POST',
    path: '/admin/screening/alerts/:id/confirm',
    tag: 'back-office',
    summary: 'Confirm an alert: the hit stands, a deposit stays frozen (note required)',
    auth: 'operator',
    roles: ['compliance'],
    params: idParamSchema,
    body: screeningConfirmBodySchema,
    content: screeningAlertSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SCREENING_ALERT_STATE_CHANGED'],
  }),
};
