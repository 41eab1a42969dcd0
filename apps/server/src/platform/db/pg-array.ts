/**
 * A PostgreSQL array literal (`{"a","b"}`) of text, numeric or bigint values, passed as ONE query
 * parameter and cast in SQL (`${pgArrayLiteral(ids)}::uuid[]`): a batch of any size stays one
 * parameter, and both drivers (PGlite, node-postgres) send it alike. Quotes and backslashes are
 * escaped (PostgreSQL "Array Value Input").
 */
export function pgArrayLiteral(values: readonly (string | number | bigint)[]): string {
  return `{${values.map((value) => `"${String(value).replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')}}`;
}
