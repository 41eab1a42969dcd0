import { getTableColumns, type InferSelectModel, type SQL, type Table } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/**
 * Run `query` (raw SQL) and return its rows as the driver gave them (`db.execute` answers
 * `{ rows }` on PGlite and node-postgres alike).
 * @throws Error when the driver's answer has no rows array.
 */
export async function queryRows<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows))
    throw new Error('driver returned no rows array');
  return result.rows as T[];
}

/**
 * A row a SQL function returned as `SETOF <table>` (raw: column names, driver values — timestamps
 * as PostgreSQL's text, numerics as strings), mapped as Drizzle maps a `select()` of `table`: keys
 * by property name, each value through its column's `mapFromDriverValue` (dates, bigint amounts).
 * NULL stays null. Same result on PGlite and node-postgres, whose raw values Drizzle reads alike.
 */
export function rowOfTable<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[property] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
