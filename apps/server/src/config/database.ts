import { z } from 'zod';
import { emptyToUndefined } from './env-rules.ts';

/** Where the data lives: the database and its direct and read connections. */
export const databaseEnvSchema = z.object({
  /** `postgres://…` for a PostgreSQL server, `memory://` for a throw-away in-memory PGlite; unset for PGlite in DATA_DIR. */
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(postgres(ql)?:\/\/.+|memory:\/\/)$/, { error: 'must be postgres://… or memory://' })
      .optional(),
  ),
  /**
   * `postgres://…` of a direct (session) connection to the same primary, for what needs a session:
   * LISTEN and migrations. Set it when DATABASE_URL points at a pooler in transaction mode
   * (PgBouncer), which drops session state between transactions. Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+$/, { error: 'must be postgres://…' })
      .optional(),
  ),
  /** `postgres://…` of a hot standby for reads that may lag (docs/scale.md). Unset: all reads on the primary. */
  DATABASE_READ_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+$/, { error: 'must be postgres://…' })
      .optional(),
  ),
  /** Replication lag (ms) beyond which reads fall back to the primary. */
  DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
});

/** The database variables after parsing. */
export type DatabaseEnv = z.infer<typeof databaseEnvSchema>;

/** The database: PGlite in DATA_DIR, PGlite in memory, or a PostgreSQL server (with its direct and read URLs). */
export type DatabaseConfig =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'memory' }
  | { kind: 'postgres'; url: string; directUrl?: string; readUrl?: string; readMaxLagMs?: number };

/** The database from DATABASE_URL (unset: PGlite in `dataDir`), DATABASE_DIRECT_URL and DATABASE_READ_*. */
export function databaseConfig(e: DatabaseEnv, dataDir: string): DatabaseConfig {
  return e.DATABASE_URL === undefined
    ? { kind: 'pglite', dataDir }
    : e.DATABASE_URL === 'memory://'
      ? { kind: 'memory' }
      : {
          kind: 'postgres',
          url: e.DATABASE_URL,
          ...(e.DATABASE_DIRECT_URL ? { directUrl: e.DATABASE_DIRECT_URL } : {}),
          ...(e.DATABASE_READ_URL ? { readUrl: e.DATABASE_READ_URL, readMaxLagMs: e.DATABASE_READ_MAX_LAG_MS } : {}),
        };
}
