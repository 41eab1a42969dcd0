import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A PostgreSQL array literal like `pgArrayLiteral`, where a null element is SQL NULL (unquoted):
 * one query parameter for a whole column of a batch, cast in SQL (`${nullableArrayLiteral(v)}::text[]`).
 */
export function nullableArrayLiteral(values: readonly (string | number | bigint | null)[]): string {
  const element = (value: string | number | bigint | null) =>
    value === null ? 'NULL' : `"${String(value).replace(/["\\]/g, (char) => `\\${char}`)}"`;
  return `{${values.map(element).join(',')}}`;
}

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
