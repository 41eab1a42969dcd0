/**
 * The back office: the operators' application at `/admin` and its API at `/api/admin`.
 * Every call is `auth: 'operator'` with the roles that may make it (see `operators.ts`). People sign
 * in with email, password and a TOTP code (enrolment is forced at the first sign-in) and hold the
 * back-office session cookie (path `/api/admin`, `SameSite=Strict`, 30 min idle, 8 h absolute);
 * scripts (`npm run ops`) send an operator's bearer token instead. Every write is in the audit log.
 */
export {
  operatorSchema,
  type OperatorView,
  operatorSignInBodySchema,
  operatorSessionSchema,
  type OperatorSession,
  operatorTotpBodySchema,
  createOperatorBodySchema,
  createdOperatorSchema,
  updateOperatorBodySchema,
  auditEntrySchema,
  type AuditEntry,
  auditQuerySchema,
  AUDIT_CSV_PATH,
  backOfficeAccessEndpoints,
} from './back-office/access.ts';
export * from './back-office/users.ts';
export * from './back-office/adjustments.ts';
export * from './back-office/content.ts';
