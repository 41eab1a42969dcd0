/**
 * Whether an error means that the database could not be reached or is changing hands — not that
 * the request was wrong: a lost or refused connection, PostgreSQL shutting down or starting, a
 * write sent to a standby while a failover moves the primary, or PgBouncer losing its server
 * connection. The error handler answers these 503 SERVICE_UNAVAILABLE with `Retry-After` (the
 * client may retry; with an `Idempotency-Key` the retry is safe), not 500 (docs/scale.md
 * "Failover"). Follows `cause` (drizzle wraps the driver's error) a few levels deep.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < CAUSE_DEPTH_MAX && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : '')))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const CAUSE_DEPTH_MAX = 5;
/**
 * SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html) and Node socket codes.
 * Class 08 (connection exception, PgBouncer's errors among them) is matched by its prefix.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, or in recovery)
  '25006', // read_only_sql_transaction: a write reached a standby
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);
/** node-postgres reports a dropped connection and a pool timeout without a code. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
];
