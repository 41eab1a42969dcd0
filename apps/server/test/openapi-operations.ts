import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The operations of the generated OpenAPI document (GET /api/docs/json) as the black-box API tests
 * walk them (`fuzz.api.test.ts`, `input-rules.api.test.ts`): each operation's parameters and JSON
 * body schema, a plausible value of any schema, and the URL of a call.
 */

/** The part of a JSON Schema the tests read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  'x-amount'?: 'signed' | 'unsigned';
}

/** One parameter of an operation. */
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

/** One operation: method, OpenAPI path (`/api/x/{id}`), parameters and JSON body schema. */
export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  /** The description (it names the back-office roles of an `auth: 'operator'` route). */
  description: string;
  /** Whether its success answer is bare content, not the envelope (`isBareContent`). */
  isBare: boolean;
}

/**
 * Valid values by field name, so that a variant's one bad field is the only thing wrong with the
 * request and it reaches as deep as a real client's would (a NUL label beside a valid address).
 */
export const KNOWN_VALUES: Record<string, unknown> = {
  coin: 'USDT',
  net: 'TRC20',
  network: 'TRC20',
  address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
  amount: '10',
  label: 'My wallet',
  emailCaptcha: '123456',
  email: 'someone@example.com',
  termDays: 30,
  pair: 'BTC-USDT',
};

/** Strings tried, in order, for a field with a `pattern`: the first that matches is its sample. */
const PATTERN_CANDIDATES = ['1', '10', 'BTC-USDT', 'USD', '2026-01-01', 'abc', 'ABC'];

/** A plausible value of a schema (the first enum member, a short string, 1, true …). */
export function sample(schema: JsonSchema | undefined, depth = 0, name?: string): unknown {
  if (name !== undefined && Object.hasOwn(KNOWN_VALUES, name)) return KNOWN_VALUES[name];
  if (!schema || depth > 4) return 'abc';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return sample(options.find((option) => option.type !== 'null') ?? options[0], depth + 1);
  if (schema.allOf?.length) return sample(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value, depth + 1, key)]),
    );
  }
  if (type === 'array') return [sample(schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'decimal') return '10';
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate)) ?? 'abc';
  }
  return 'abc';
}

/** The operations of the OpenAPI document, `/api/dev/*` left out. */
export async function documentOperations(app: FastifyInstance): Promise<Operation[]> {
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          description?: string;
          responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        }
      >
    >;
  };
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (path.startsWith('/api/dev/')) continue;
    for (const [method, spec] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      list.push({
        method: method.toUpperCase(),
        path,
        parameters: spec.parameters ?? [],
        body: spec.requestBody?.content?.['application/json']?.schema,
        description: spec.description ?? '',
        isBare: !spec.responses?.['200']?.content?.['application/json']?.schema?.properties?.statusCode,
      });
    }
  }
  return list;
}

/** Whether an operation is a back-office (`auth: 'operator'`) route: its description names the role. */
export function isOperatorOperation(operation: Operation): boolean {
  return operation.description.includes('back-office role:');
}

/** Percent-encode as a raw client would: a lone surrogate becomes its (invalid) UTF-8 bytes. */
export function encode(text: string): string {
  return text
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      /^[\ud800-\udfff]$/.test(part)
        ? `%${Buffer.from([0xed, 0xa0 | ((part.charCodeAt(0) >> 6) & 0x1f), 0x80 | (part.charCodeAt(0) & 0x3f)])
            .toString('hex')
            .match(/../g)!
            .join('%')}`
        : encodeURIComponent(part),
    )
    .join('');
}

/** The URL of a call: path parameters filled in (`x` when not given), then the query string. */
export function urlOf(operation: Operation, path: Record<string, string>, query: Record<string, unknown>): string {
  const filled = operation.path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(path[name] ?? 'x'));
  const text = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encode(key)}=${encode(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  return text ? `${filled}?${text}` : filled;
}

/**
 * Why an answer is not the app's envelope (`{ statusCode: number, content, message: string }`, and
 * nothing else), or null when it is. A bare-content route (`Operation.isBare`) answers its own
 * shape on success; its errors are still envelopes.
 */
export function envelopeProblem(response: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return `not JSON: ${response.body.slice(0, 120)}`;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not an object';
  const keys = Object.keys(parsed).sort().join(',');
  if (keys !== 'content,message,statusCode') return `keys ${keys}: ${response.body.slice(0, 200)}`;
  const envelope = parsed as { statusCode: unknown; message: unknown };
  if (typeof envelope.statusCode !== 'number' || typeof envelope.message !== 'string') return 'wrong types';
  return null;
}
