/** SQLSTATE of a unique-constraint violation (PostgreSQL appendix A, class 23). */
export const SQLSTATE_UNIQUE_VIOLATION = '23505';

/** How many `cause` links `isSqlState` follows: Drizzle and the drivers wrap an error at most twice. */
const CAUSE_DEPTH_MAX = 4;

/**
 * Whether `error`, or one of its first `CAUSE_DEPTH_MAX` causes (Drizzle and the drivers wrap the
 * database's error), is a PostgreSQL error with SQLSTATE `code` (e.g. `SQLSTATE_UNIQUE_VIOLATION`,
 * or a code our own functions raise such as `ML001`), and, when `constraint` is given, one raised by
 * that constraint. Never throws: anything that is not such an error answers false.
 */
export function isSqlState(error: unknown, code: string, constraint?: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < CAUSE_DEPTH_MAX; depth += 1) {
    if (typeof current !== 'object') return false;
    if (
      'code' in current &&
      current.code === code &&
      (constraint === undefined || ('constraint' in current && current.constraint === constraint))
    )
      return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}
