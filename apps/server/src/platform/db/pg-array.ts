/**
 * A PostgreSQL array literal (`{"a","b"}`) of text, numeric or bigint values, passed as ONE query
 * parameter and cast in SQL (`${pgArrayLiteral(ids)}::uuid[]`): a batch of any size stays one
 * parameter, and both drivers (PGlite, node-postgres) send it alike. Quotes and backslashes are
 * escaped (PostgreSQL "Array Value Input").
 */
export function pgArrayLiteral(values: readonly (string | number | bigint)[]): string {
  if (values.length === 0) return '{}';
  if (!values.some(needsEscape)) return `{"${values.join('","')}"}`;
  return `{${values.map(quotedElement).join(',')}}`;
}

/**
 * `pgArrayLiteral` where a null element is SQL NULL (unquoted): one query parameter for a whole
 * column of a batch, cast in SQL (`${nullableArrayLiteral(v)}::text[]`).
 */
export function nullableArrayLiteral(values: readonly (string | number | bigint | null)[]): string {
  if (!values.includes(null)) return pgArrayLiteral(values as readonly (string | number | bigint)[]);
  return `{${values.map((value) => (value === null ? 'NULL' : quotedElement(value))).join(',')}}`;
}

const ESCAPED = /["\\]/g;
const NEEDS_ESCAPE = /["\\]/;

/**
 * Whether an element holds a quote or a backslash. Numbers and bigints never do, nor do the usual
 * strings (ids, amounts, codes): their literal is one `join`, without a string per element — this
 * runs for every batch parameter of the swap, card and accrual paths.
 */
function needsEscape(value: string | number | bigint): boolean {
  return typeof value === 'string' && NEEDS_ESCAPE.test(value);
}

/** One element of an array literal, double-quoted, its quotes and backslashes escaped. */
function quotedElement(value: string | number | bigint): string {
  return `"${String(value).replace(ESCAPED, (char) => `\\${char}`)}"`;
}
