/**
 * A PostgreSQL array literal (`{"a","b"}`) of text, numeric or bigint values, passed as ONE query
 * parameter and cast in SQL (`${pgArrayLiteral(ids)}::uuid[]`): a batch of any size stays one
 * parameter, and both drivers (PGlite, node-postgres) send it alike. Quotes and backslashes are
 * escaped (PostgreSQL "Array Value Input").
 */
export function pgArrayLiteral(values: readonly (string | number | bigint)[]): string {
  return `{${values.map(quotedElement).join(',')}}`;
}

/**
 * `pgArrayLiteral` where a null element is SQL NULL (unquoted): one query parameter for a whole
 * column of a batch, cast in SQL (`${nullableArrayLiteral(v)}::text[]`).
 */
export function nullableArrayLiteral(values: readonly (string | number | bigint | null)[]): string {
  return `{${values.map((value) => (value === null ? 'NULL' : quotedElement(value))).join(',')}}`;
}

/** One element of an array literal, double-quoted, its quotes and backslashes escaped. */
function quotedElement(value: string | number | bigint): string {
  return `"${String(value).replace(/["\\]/g, (char) => `\\${char}`)}"`;
}
