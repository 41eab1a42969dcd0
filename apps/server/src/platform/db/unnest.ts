import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The SELECT of a set-based `tx.insert(table).select(...)` (docs/chain.md "Batched credit"): one
 * expression per column of `table`, in the table's column order (Drizzle inserts into every column),
 * over `from` (typically `FROM unnest($1::text[], …) AS x(…)`, one array parameter per column, so a
 * batch of any size is a handful of parameters and Drizzle renders no per-row SQL).
 * @throws Error when a column of `table` has no expression (a column added since: name it).
 */
export function selectInColumnOrder(table: PgTable, expressions: Readonly<Record<string, SQL>>, from: SQL): SQL {
  const list = Object.keys(getTableColumns(table)).map((key) => {
    const expression = expressions[key];
    if (!expression) throw new Error(`set-based insert: no expression for column ${key}`);
    return expression;
  });
  return sql`SELECT ${sql.join(list, sql`, `)} ${from}`;
}
