import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants, formatInvariantReport } from '../src/modules/ledger/ledger.invariants.ts';
import { signCustodyBody } from '../src/modules/wallet/wallet.routes.ts';
import { seedWallet } from '../src/modules/wallet/wallet.seed.ts';
import {
  createTestApp,
  mutationHeaders,
  randomTestIp,
  registerAndLogin,
  type TestApp,
  type TestSession,
} from './helpers.ts';

/**
 * Issue 14 "Done when": a fuzz pass over every endpoint of the OpenAPI document (GET /api/docs/json)
 * — missing fields, wrong types, NUL and other control characters in every string field, 1 MB
 * strings, `__proto__` / `constructor` keys — signed in (a user with basic KYC and a balance) and
 * signed out. No answer may be a 5xx, and nothing may change: the ledger invariants hold and the
 * user's rows in the main tables are the same before and after. Bounded: a seeded PRNG picks at
 * most `VARIANTS_PER_OPERATION` requests per operation and sign-in state, besides a NUL in each
 * field, which is always sent. The custody webhook is
 * sent signed (`signCustodyBody`); `/api/dev/*` routes are left out.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const VARIANTS_PER_OPERATION = 12;
const SEED = 0x14_0001;
const ONE_MB = 'a'.repeat(1_000_000);

/** mulberry32: a small seeded PRNG, so a failing run can be repeated exactly. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface JsonSchema {
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
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
}

/**
 * Valid values by field name, so that a variant's one bad field is the only thing wrong with the
 * request and it reaches as deep as a real client's would (a NUL label beside a valid address).
 */
const KNOWN_VALUES: Record<string, unknown> = {
  coin: 'USDT',
  net: 'TRC20',
  network: 'TRC20',
  address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
  amount: '10',
  label: 'My wallet',
  emailCaptcha: '123456',
  email: 'someone@example.com',
};

/** A plausible value of a schema (the first enum member, a short string, 1, true …). */
function sample(schema: JsonSchema | undefined, depth = 0, name?: string): unknown {
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
  return 'abc';
}

type Part = 'query' | 'path' | 'header' | 'body';
interface Field {
  part: Part;
  name: string;
}
interface Variant {
  label: string;
  query: Record<string, unknown>;
  path: Record<string, string>;
  header: Record<string, string>;
  body: unknown;
  /** Raw JSON text instead of `body` (for `__proto__`, which an object literal would not keep). */
  raw?: string;
}

const BAD_STRINGS: [string, string][] = [
  ['NUL', 'x\u0000y'],
  ['C0 control', 'x\u0007\u001b'],
  ['C1 control', 'x\u0085\u009f'],
  ['lone surrogate', 'x\ud800'],
  ['1 MB', ONE_MB],
];
const WRONG_TYPES: [string, unknown][] = [
  ['number', 12345],
  ['object', { nested: 'x' }],
  ['array', ['x']],
  ['null', null],
  ['boolean', false],
];

/** Every request the fuzzer may send to one operation (a PRNG picks some of them). */
function variantsOf(operation: Operation): Variant[] {
  const base = (): Variant => ({
    label: 'base',
    query: Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, sample(p.schema, 0, p.name)]),
    ),
    path: Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(sample(p.schema))]),
    ),
    header: Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'header').map((p) => [p.name, String(sample(p.schema))]),
    ),
    body: operation.body ? sample(operation.body) : undefined,
  });
  const bodyFields = operation.body?.properties ? Object.keys(operation.body.properties) : [];
  const fields: Field[] = [
    ...operation.parameters.filter((p) => p.in !== 'cookie').map((p) => ({ part: p.in as Part, name: p.name })),
    ...bodyFields.map((name) => ({ part: 'body' as const, name })),
  ];
  const set = (variant: Variant, field: Field, value: unknown): Variant => {
    if (field.part === 'body') variant.body = { ...(variant.body as object), [field.name]: value };
    else if (field.part === 'header') variant.header[field.name] = String(value);
    else variant[field.part][field.name] = field.part === 'path' ? String(value) : value;
    return variant;
  };
  const variants: Variant[] = [];
  const hasRequired =
    (operation.body?.required?.length ?? 0) > 0 || operation.parameters.some((p) => p.required && p.in !== 'path');
  if (hasRequired)
    variants.push({ ...base(), label: 'all missing', query: {}, header: {}, body: operation.body ? {} : undefined });
  for (const field of fields) {
    for (const [name, text] of BAD_STRINGS) {
      // Headers and path segments cannot carry every byte: a NUL header is refused by HTTP itself.
      if (field.part === 'header' && name !== 'C1 control') continue;
      if (field.part === 'path' && name === '1 MB') continue;
      variants.push({ ...set(base(), field, text), label: `${field.part}.${field.name}: ${name}` });
    }
    if (field.part === 'body' || field.part === 'query') {
      for (const [name, value] of WRONG_TYPES) {
        if (field.part === 'query' && typeof value === 'object') continue;
        variants.push({ ...set(base(), field, value), label: `${field.part}.${field.name}: ${name}` });
      }
      if (hasRequired || field.part === 'body') {
        const missing = base();
        if (field.part === 'body') delete (missing.body as Record<string, unknown>)[field.name];
        else delete missing.query[field.name];
        // Only a missing REQUIRED field is sure to be refused; an optional one would run the action.
        const isRequired =
          field.part === 'body'
            ? operation.body?.required?.includes(field.name)
            : operation.parameters.find((p) => p.name === field.name)?.required;
        if (isRequired) variants.push({ ...missing, label: `${field.part}.${field.name}: missing` });
      }
    }
  }
  if (operation.body) {
    const b = base();
    variants.push({
      ...b,
      label: '__proto__ key',
      raw: `{"__proto__":{"isAdmin":true},${JSON.stringify(b.body).slice(1)}`,
    });
    variants.push({
      ...b,
      label: 'constructor key',
      raw: `{"constructor":{"prototype":{"isAdmin":true}},${JSON.stringify(b.body).slice(1)}`,
    });
    variants.push({ ...b, label: 'body not an object', body: ['x'] });
  }
  return variants;
}

/** Pick `count` of `items` with the PRNG (all of them when there are fewer). */
function pick<T>(items: T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

let t: TestApp;
let user: TestSession;

/** The user's rows in the main tables, as JSON text, for a before/after comparison. */
async function snapshot(userId: string): Promise<Record<string, unknown[]>> {
  const tables: [string, string][] = [
    ['users', 'id'],
    ['sessions', 'user_id'],
    ['address_book', 'user_id'],
    ['withdrawals', 'user_id'],
    ['deposits', 'user_id'],
    ['deposit_addresses', 'user_id'],
    ['verification_codes', 'user_id'],
    ['exchange_quotes', 'user_id'],
    ['notice_messages', 'user_id'],
    ['push_subscriptions', 'user_id'],
    ['mfa_recovery_codes', 'user_id'],
    ['ledger_accounts', 'owner_id'],
  ];
  const result: Record<string, unknown[]> = {};
  for (const [table, column] of tables) {
    const rows = await t.database.db.execute(
      sql.raw(`SELECT to_jsonb(x) AS row FROM ${table} x WHERE ${column} = '${userId}'`),
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: { row: Record<string, unknown> }[] }).rows) as {
      row: Record<string, unknown>;
    }[];
    // A session's last-seen time moves with every signed-in request, and a User-Lang header sets the
    // user's language (by design, identity): neither is a change the fuzzed input caused.
    result[table] = list
      .map(({ row }) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(row).filter(([key]) => !/last_seen|last_used|updated_at|^locale$/.test(key)),
          ),
        ),
      )
      .sort();
  }
  const postings = await t.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ledger_postings`));
  result.ledger_postings = [(Array.isArray(postings) ? postings : (postings as { rows: unknown[] }).rows)[0]];
  return result;
}

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
  user = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(user.userId, 1);
  const { address } = await t.app.wallet.depositAddress(user.userId, 'USDT', 'TRC20');
  const raw = JSON.stringify({
    deliveryId: `d-${randomUUID()}`,
    sentAt: t.app.clock.now().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount: '100',
      confirmations: 20,
    },
  });
  const credited = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
    payload: raw,
  });
  expect(credited.statusCode).toBe(200);
}, 60_000);
afterAll(async () => t.close());

/** The operations of the OpenAPI document, `/api/dev/*` left out. */
async function operations(): Promise<Operation[]> {
  const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<
      string,
      Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
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
      });
    }
  }
  return list;
}

/** Percent-encode as a raw client would: a lone surrogate becomes its (invalid) UTF-8 bytes. */
function encode(text: string): string {
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

function urlOf(operation: Operation, variant: Variant): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(variant.path[name] ?? 'x'));
  const text = Object.entries(variant.query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encode(key)}=${encode(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  return text ? `${path}?${text}` : path;
}

describe('fuzzing every endpoint of the OpenAPI document', () => {
  it('answers no 5xx and changes nothing, signed in and signed out', async () => {
    const random = prng(SEED);
    const list = await operations();
    expect(list.length).toBeGreaterThan(30);
    const before = await snapshot(user.userId);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of list) {
      const isMutation = operation.method !== 'GET';
      const hasInput = operation.body !== undefined || operation.parameters.some((p) => p.in !== 'cookie');
      // A mutation without any input would simply run (log out, mark all read): nothing to fuzz.
      if (isMutation && !hasInput) continue;
      const isWebhook = operation.path === '/api/custody/webhook';
      for (const signedIn of isWebhook ? [false] : [true, false]) {
        // Every field gets its NUL (the class of issue 14 item 1); the other variants are sampled.
        const all = variantsOf(operation);
        const chosen = [
          ...all.filter((v) => v.label.endsWith(': NUL')),
          ...pick(
            all.filter((v) => !v.label.endsWith(': NUL')),
            VARIANTS_PER_OPERATION,
            random,
          ),
        ];
        for (const variant of chosen) {
          const payload = variant.raw ?? (variant.body === undefined ? undefined : JSON.stringify(variant.body));
          const headers: Record<string, string> = {
            ...(signedIn ? { cookie: user.cookie } : {}),
            ...(isMutation ? mutationHeaders() : {}),
            'api-version': '2.0',
            ...variant.header,
          };
          if (isWebhook && payload !== undefined) headers['x-custody-signature'] = signCustodyBody(SECRET, payload);
          if (random() < 0.5) headers['user-lang'] = 'zh-HK';
          const response = await t.app.inject({
            method: operation.method as 'GET',
            url: urlOf(operation, variant),
            headers,
            ...(payload !== undefined && isMutation ? { payload } : {}),
            remoteAddress: randomTestIp(),
          });
          sent += 1;
          if (response.statusCode >= 500)
            failures.push(
              `${operation.method} ${operation.path} [${signedIn ? 'signed in' : 'signed out'}] ${variant.label} → ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
        }
      }
    }
    console.info(`fuzz: ${sent} requests to ${list.length} operations`);
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
    expect(await snapshot(user.userId)).toEqual(before);
    const report = await checkLedgerInvariants(t.database.db);
    expect(report.isHeld, formatInvariantReport(report)).toBe(true);
  }, 120_000);
});
