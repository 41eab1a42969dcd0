import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

/**
 * The PostgreSQL types read as PostgreSQL's own text rather than parsed: the ones Drizzle's PGlite
 * driver gives identity parsers (timestamp 1114, timestamptz 1184, interval 1186, date 1082, and
 * the arrays numeric[] 1231, timestamp[] 1115, timestamptz[] 1185, interval[] 1187, date[] 1182),
 * so values keep the form node-postgres gives on PostgreSQL.
 */
export const TEXT_TYPE_IDS: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const TEXT_TYPES = new Set(TEXT_TYPE_IDS.map(String));
const keepText = (value: string) => value;
const ROW_MODE_OPTIONS = { array: { rowMode: 'array' }, object: { rowMode: 'object' } } as const satisfies Record<string, QueryOptions>;

/** What Drizzle's PGlite driver calls on its client (drizzle-orm/pglite/session.js). */
export type DrizzlePgliteClient = Pick<PGlite, 'query' | 'transaction'>;

/**
 * PGlite as Drizzle's client, with the text types parsed once per instance instead of per
 * statement.
 *
 * Drizzle passes `{ rowMode, parsers }` with every statement; given `parsers`, PGlite merges them
 * into a copy of its whole parser table for that statement (`parseResults`), which cost more than
 * executing a small statement (measured: 0.30 ms vs 0.07 ms for `SELECT $1::int`, 3,000 in a row).
 * Here the instance's own parsers keep `TEXT_TYPE_IDS` as text (set after `PGlite.create`, whose
 * array-type set-up would replace them) and statements carry only their row mode. A statement
 * asking for a parser of another type is refused rather than silently parsed differently.
 */
export function drizzleClientOf(pglite: PGlite): DrizzlePgliteClient {
  for (const typeId of TEXT_TYPE_IDS) pglite.parsers[typeId] = keepText;
  const query = <T>(target: Pick<PGlite, 'query'>, sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> =>
    target.query<T>(sql, params, statementOptions(options));
  return {
    query: (sql, params, options) => query(pglite, sql, params, options),
    transaction: (callback) =>
      pglite.transaction((tx) => {
        const forDrizzle: Transaction = {
          query: (sql, params, options) => query(tx, sql, params, options),
          sql: (strings, ...params) => tx.sql(strings, ...params),
          exec: (sql, options) => tx.exec(sql, options),
          rollback: () => tx.rollback(),
          listen: (channel, onPayload) => tx.listen(channel, onPayload),
          get closed() {
            return tx.closed;
          },
        };
        return callback(forDrizzle);
      }),
  };
}

function statementOptions(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options) return undefined;
  const { rowMode, parsers, ...rest } = options;
  for (const typeId of Object.keys(parsers ?? {})) {
    if (!TEXT_TYPES.has(typeId)) throw new Error(`a parser for PostgreSQL type ${typeId} was asked for; only ${TEXT_TYPE_IDS.join(', ')} are kept as text`);
  }
  if (Object.keys(rest).length > 0) return { ...rest, rowMode };
  return rowMode ? ROW_MODE_OPTIONS[rowMode] : undefined;
}
