import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants, formatInvariantReport } from '../src/modules/ledger/ledger.invariants.ts';
import { signCustodyBody } from '../src/modules/wallet/wallet.routes.ts';
import { seedWallet } from '../src/modules/wallet/wallet.seed.ts';
import {
  documentOperations,
  envelopeProblem,
  isOperatorOperation,
  type Operation,
  sample,
  urlOf as operationUrl,
} from './openapi-operations.ts';
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
 * — missing fields, wrong types, NUL and other control characters (bidi controls included) in every
 * string field and path parameter, 1 MB strings, `__proto__` / `constructor` keys — signed in (a
 * user with basic KYC and a balance; an admin operator on the back-office routes) and signed out.
 * No answer may be a 5xx, every answer is the app's envelope (docs/decisions/0010-input-rules.md:
 * no database or Fastify error text reaches a client), every refused back-office write is still
 * audited, and nothing may change: the ledger invariants hold and the user's rows in the main
 * tables are the same before and after. Bounded: a seeded PRNG picks at most
 * `VARIANTS_PER_OPERATION` requests per operation and sign-in state, besides a NUL in each field,
 * which is always sent. The custody webhook is sent signed (`signCustodyBody`); `/api/dev/*`
 * routes are left out.
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
  ['bidi override', 'a\u202egnp.exe'],
  ['300 characters', 'p'.repeat(300)],
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
/** An admin operator's bearer token: the back-office routes are fuzzed as an operator. */
let operatorToken: string;

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
  operatorToken = (await t.app.admin.createOperator('fuzz-admin@example.com', 'admin')).token;
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

/** How many rows the audit log holds. */
async function auditRows(): Promise<number> {
  const rows = await t.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM audit_log`));
  return ((Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows)[0] as { n: number }).n;
}

describe('fuzzing every endpoint of the OpenAPI document', () => {
  it('answers no 5xx, only the envelope, audits every operator write and changes nothing', async () => {
    const random = prng(SEED);
    const list = await documentOperations(t.app);
    expect(list.length).toBeGreaterThan(30);
    const before = await snapshot(user.userId);
    const failures: string[] = [];
    let sent = 0;
    let operatorWrites = 0;
    const auditedBefore = await auditRows();
    for (const operation of list) {
      const isMutation = operation.method !== 'GET';
      const hasInput = operation.body !== undefined || operation.parameters.some((p) => p.in !== 'cookie');
      // A mutation without any input would simply run (log out, mark all read): nothing to fuzz.
      if (isMutation && !hasInput) continue;
      const isWebhook = operation.path === '/api/custody/webhook';
      const isOperator = isOperatorOperation(operation);
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
            ...(signedIn && !isOperator ? { cookie: user.cookie } : {}),
            ...(signedIn && isOperator ? { authorization: `Bearer ${operatorToken}` } : {}),
            ...(isMutation ? mutationHeaders() : {}),
            'api-version': '2.0',
            ...variant.header,
          };
          if (isWebhook && payload !== undefined) headers['x-custody-signature'] = signCustodyBody(SECRET, payload);
          if (random() < 0.5) headers['user-lang'] = 'zh-HK';
          const response = await t.app.inject({
            method: operation.method as 'GET',
            url: operationUrl(operation, variant.path, variant.query),
            headers,
            ...(payload !== undefined && isMutation ? { payload } : {}),
            remoteAddress: randomTestIp(),
          });
          sent += 1;
          const where = `${operation.method} ${operation.path} [${signedIn ? (isOperator ? 'operator' : 'signed in') : 'signed out'}] ${variant.label}`;
          if (response.statusCode >= 500)
            failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
          const problem = response.statusCode < 300 && operation.isBare ? null : envelopeProblem(response);
          if (problem) failures.push(`${where} → ${response.statusCode} not the envelope: ${problem}`);
          // A path the router itself refuses (bad URL encoding, over-long parameter) reaches no route,
          // so no operator and no audit row; every other operator write is audited.
          const isRouterRefusal = /^path\.\w+: (lone surrogate|300 characters)$/.test(variant.label);
          if (signedIn && isOperator && isMutation && !isRouterRefusal) operatorWrites += 1;
        }
      }
    }
    console.info(`fuzz: ${sent} requests to ${list.length} operations`);
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
    // Every state-changing operator request, refused or not, wrote its audit row.
    expect(operatorWrites).toBeGreaterThan(100);
    expect((await auditRows()) - auditedBefore).toBeGreaterThanOrEqual(operatorWrites);
    expect(await snapshot(user.userId)).toEqual(before);
    const report = await checkLedgerInvariants(t.database.db);
    expect(report.isHeld, formatInvariantReport(report)).toBe(true);
  }, 300_000);
});
