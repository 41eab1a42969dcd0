import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { emailSchema } from '../identity.ts';
import { ANY_OPERATOR, OPERATOR_ROLES } from '../operators.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';

const codeSchema = z
  .string()
  .max(6, { abort: true })
  .regex(/^\d{6}$/, { error: 'validation.code6' });
/** An operator's reason (not empty, at most 500 characters). */
export const reasonSchema = z.string().trim().min(1, { error: 'validation.required' }).max(500);
/** The `:userId` of a path. */
export const userIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });
/** A numeric `:id` of a path. */
export const numericIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

// ---------------------------------------------------------------- access

/** An operator as the back office shows it. */
export const operatorSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(OPERATOR_ROLES),
  isActive: z.boolean(),
  hasTotp: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type OperatorView = z.infer<typeof operatorSchema>;

/** `POST admin/session`: password, and the TOTP code once the operator has enrolled. */
export const operatorSignInBodySchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, { error: 'validation.required' }).max(128),
  totpCode: codeSchema.optional(),
});

/**
 * The sign-in's answer: `signedIn` (the session is full), or `enrolTotp` at the first sign-in (the
 * session may only enrol: scan `otpauthUri` and send a code to `admin/session/totp`).
 */
export const operatorSessionSchema = z.object({
  state: z.enum(['signedIn', 'enrolTotp']),
  operator: operatorSchema,
  totpEnrolment: z.object({ secret: z.string(), otpauthUri: z.string() }).nullable(),
  idleTimeoutMinutes: z.number().int(),
});
export type OperatorSession = z.infer<typeof operatorSessionSchema>;

export const operatorTotpBodySchema = z.strictObject({ totpCode: codeSchema });

export const createOperatorBodySchema = z.strictObject({ email: emailSchema, role: z.enum(OPERATOR_ROLES) });
/** The new operator and its temporary password, shown once to the admin who created it. */
export const createdOperatorSchema = z.object({ operator: operatorSchema, temporaryPassword: z.string() });
export const updateOperatorBodySchema = z.strictObject({
  role: z.enum(OPERATOR_ROLES).optional(),
  isActive: z.boolean().optional(),
  /** Clear the authenticator: the operator enrols again at the next sign-in. */
  resetTotp: z.literal(true).optional(),
});

/** One line of the append-only audit log: who, when, what, before/after, reason, IP. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  operatorId: z.number().int().nullable(),
  operatorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  /** The business code the action was answered with: 200 done, otherwise refused (102, 153 …). */
  outcomeCode: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** The CSV export of the audit log (`GET admin/audit.csv`, the list's query, every match; a download, not an envelope). */
export const AUDIT_CSV_PATH = 'admin/audit.csv';

/** `GET admin/audit` (and `admin/audit.csv`): filters, all optional; dates as `YYYY-MM-DD` (Hong Kong days). */
export const auditQuerySchema = pageQuerySchema.extend({
  operator: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
  targetType: z.string().max(50).optional(),
  targetId: z.string().max(100).optional(),
  from: z.iso.date().max(10).optional(),
  to: z.iso.date().max(10).optional(),
});

export const backOfficeAccessEndpoints = {
  signIn: defineEndpoint({
    method: 'POST',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'Operator sign-in: password, then TOTP (enrolment forced at the first sign-in)',
    auth: 'none',
    body: operatorSignInBodySchema,
    content: operatorSessionSchema,
    codes: ['LOGIN_FAILED', 'ACCOUNT_LOCKED', 'FORBIDDEN'],
  }),
  enrolTotp: defineEndpoint({
    method: 'POST',
    path: '/admin/session/totp',
    tag: 'back-office',
    summary: 'Confirm the authenticator at the first sign-in; the session becomes full',
    auth: 'none',
    body: operatorTotpBodySchema,
    content: operatorSessionSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  session: defineEndpoint({
    method: 'GET',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'The signed-in operator',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: operatorSessionSchema,
  }),
  signOut: defineEndpoint({
    method: 'DELETE',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'Sign out (the session row is revoked)',
    auth: 'none',
    content: z.null(),
  }),
  listOperators: defineEndpoint({
    method: 'GET',
    path: '/admin/operators',
    tag: 'back-office',
    summary: 'Operators',
    auth: 'operator',
    roles: [],
    content: z.array(operatorSchema),
  }),
  createOperator: defineEndpoint({
    method: 'POST',
    path: '/admin/operators',
    tag: 'back-office',
    summary: 'Create an operator; its temporary password is answered once',
    auth: 'operator',
    roles: [],
    body: createOperatorBodySchema,
    content: createdOperatorSchema,
    codes: ['CONFLICT'],
  }),
  updateOperator: defineEndpoint({
    method: 'PATCH',
    path: '/admin/operators/:id',
    tag: 'back-office',
    summary: 'Change an operator’s role, deactivate or reactivate it, or reset its authenticator',
    auth: 'operator',
    roles: [],
    params: numericIdParamsSchema,
    body: updateOperatorBodySchema,
    content: operatorSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  listAudit: defineEndpoint({
    method: 'GET',
    path: '/admin/audit',
    tag: 'back-office',
    summary: 'The audit log, newest first, searchable (CSV: admin/audit.csv with the same query)',
    auth: 'operator',
    roles: ['compliance'],
    query: auditQuerySchema,
    content: pageSchema(auditEntrySchema),
  }),
};
