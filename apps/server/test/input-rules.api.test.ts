import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/modules/admin/admin.tables.ts';
import { DomainError } from '../src/platform/http/errors.ts';
import {
  documentOperations,
  envelopeProblem,
  isOperatorOperation,
  type JsonSchema,
  type Operation,
  sample,
  urlOf,
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
 * The input rules of docs/decisions/0010-input-rules.md, black-box through the API:
 * - every amount field of the OpenAPI document is marked (`format: decimal`, `x-amount`) and
 *   answers the envelope's validation error (422, code 120) naming the field for a non-numeric,
 *   exponent, negative (unsigned fields), huge or non-string value — never a 5xx;
 * - a NUL or bidi control in an operator's reason or a path parameter is refused in the envelope
 *   and the refused action is audited with its input sanitised;
 * - JSON bodies are strictly typed (a number sent as a string is refused);
 * - bidi controls are refused in labels and upload file names;
 * - an error raised after the app's handler answered still reaches the client as the envelope.
 */
let t: TestApp;
let user: TestSession;
let operatorToken: string;
/** Set by a test: the probe's handler refuses, then its `onSend` hook throws this once (as a failing audit write did). */
let probeHookError: Error | null = null;

/** A probe route whose `onSend` hook throws a database-like error once (`probeHookError`). */
function registerProbe(app: FastifyInstance) {
  app.post(
    '/api/probe-hook',
    {
      onSend: async (_request, _reply, payload) => {
        const error = probeHookError;
        probeHookError = null;
        if (error) throw error;
        return payload;
      },
    },
    async () => {
      // With a hook error waiting, the handler refuses first: the hook then fails on the app's own
      // error answer, after the error handler ran (as the audit write did on a refused request).
      if (probeHookError) throw new DomainError('NOT_FOUND');
      return { statusCode: 200, content: null, message: 'Success' };
    },
  );
}

beforeAll(async () => {
  t = await createTestApp({ configure: registerProbe });
  user = await registerAndLogin(t.app);
  await t.app.identity.setKycLevel(user.userId, 1);
  operatorToken = (await t.app.admin.createOperator('rules-admin@example.com', 'admin')).token;
}, 60_000);
afterAll(async () => t?.close());

/** One amount field of the document: where it is, and whether it may be negative. */
interface AmountField {
  operation: Operation;
  part: 'body' | 'query';
  /** Keys from the body's root; `0` for an array's first item. */
  path: (string | number)[];
  isSigned: boolean;
}

/** Every property of a JSON schema (objects, arrays, unions) marked `format: decimal`, with its key path. */
function amountPaths(
  schema: JsonSchema | undefined,
  path: (string | number)[] = [],
): [(string | number)[], JsonSchema][] {
  if (!schema) return [];
  if (schema.format === 'decimal') return [[path, schema]];
  const found: [(string | number)[], JsonSchema][] = [];
  for (const [key, value] of Object.entries(schema.properties ?? {})) found.push(...amountPaths(value, [...path, key]));
  if (schema.items) found.push(...amountPaths(schema.items, [...path, 0]));
  // The first branch of a union is the one `sample` builds.
  const branch = (schema.anyOf ?? schema.oneOf)?.find((option) => option.type !== 'null');
  if (branch) found.push(...amountPaths(branch, path));
  for (const part of schema.allOf ?? []) found.push(...amountPaths(part, path));
  return found;
}

/** A copy of `value` with `path` set to `replacement`. */
function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  const object = (value ?? {}) as Record<string, unknown>;
  return { ...object, [head as string]: setAt(object[head as string], rest, replacement) };
}

/** Routes whose callers sign the body (a custodian, a card processor): an unsigned call is 401 (137). */
const SIGNED_WEBHOOKS = new Set(['/api/custody/webhook', '/api/card/processor/webhook']);

/** Amount-like names that must carry the mark wherever a request takes them as text. */
const AMOUNT_NAME =
  /amount|principal|collateral|hkd$|usd$|usdt$|fee$|^(min|max|limit)$|max$|min$|spend|per24h|permonth|pertransaction|daily|monthly|askabove/i;

describe('amount fields', () => {
  const fields: AmountField[] = [];
  let list: Operation[] = [];
  beforeAll(async () => {
    list = await documentOperations(t.app);
    for (const operation of list) {
      for (const [path, schema] of amountPaths(operation.body))
        fields.push({ operation, part: 'body', path, isSigned: schema['x-amount'] === 'signed' });
      for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.schema?.format === 'decimal'))
        fields.push({
          operation,
          part: 'query',
          path: [parameter.name],
          isSigned: parameter.schema?.['x-amount'] === 'signed',
        });
    }
  });

  it('are marked in the OpenAPI document (format decimal, x-amount), amount-like text fields included', () => {
    expect(fields.length).toBeGreaterThan(40);
    const unmarked: string[] = [];
    const visit = (operation: Operation, schema: JsonSchema | undefined, path: string) => {
      if (!schema) return;
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        const isText = value.type === 'string' || value.anyOf?.some((option) => option.type === 'string');
        const isMarked = value.format === 'decimal' || value.anyOf?.some((option) => option.format === 'decimal');
        if (AMOUNT_NAME.test(key) && isText && !isMarked && !value.enum)
          unmarked.push(`${operation.method} ${operation.path} ${path}${key}`);
        visit(operation, value, `${path}${key}.`);
        if (value.items) visit(operation, value.items, `${path}${key}.0.`);
      }
      for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
        visit(operation, option, path);
    };
    for (const operation of list) visit(operation, operation.body, '');
    expect(unmarked).toEqual([]);
  });

  it('refuse non-numeric, exponent, negative, huge and non-string values naming the field, never a 5xx', async () => {
    const values: [string, unknown][] = [
      ['non-numeric', 'abc'],
      ['exponent', '1e3'],
      ['hexadecimal', '0x10'],
      ['separator', '1,000'],
      ['space', ' 1'],
      ['huge', '9'.repeat(60)],
      ['huge decimal', `1.${'0'.repeat(60)}`],
      ['Infinity', 'Infinity'],
      ['number', 10],
    ];
    const failures: string[] = [];
    for (const field of fields) {
      const { operation } = field;
      const isOperator = isOperatorOperation(operation);
      const cases: [string, unknown][] = [
        // A query string is text: the number 10 arrives as "10".
        ...values.filter(([label]) => field.part === 'body' || label !== 'number'),
        field.isSigned ? ['signed exponent', '-1e3'] : ['negative', '-1'],
      ];
      for (const [label, value] of cases) {
        const query = Object.fromEntries(
          operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, sample(p.schema, 0, p.name)]),
        );
        const path = Object.fromEntries(
          operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(sample(p.schema, 0, p.name))]),
        );
        const body = operation.body ? sample(operation.body) : undefined;
        if (field.part === 'query') query[field.path[0] as string] = value;
        const payload = field.part === 'body' ? setAt(body, field.path, value) : body;
        const isMutation = operation.method !== 'GET';
        const response = await t.app.inject({
          method: operation.method as 'GET',
          url: urlOf(operation, path, query),
          headers: {
            ...(isOperator ? { authorization: `Bearer ${operatorToken}` } : { cookie: user.cookie }),
            ...(isMutation ? mutationHeaders() : {}),
            'api-version': '2.0',
          },
          ...(isMutation && payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
          remoteAddress: randomTestIp(),
        });
        const where = `${operation.method} ${operation.path} ${field.part}.${field.path.join('.')} ${label}`;
        const answer = response.json() as { statusCode?: number; content?: { fields?: { field: string }[] } };
        const named = answer.content?.fields?.some((item) => item.field === field.path.join('.'));
        // A signed machine route (a webhook) refuses an unsigned call before reading its body.
        const isSignedWebhook = SIGNED_WEBHOOKS.has(operation.path) && response.statusCode === 401;
        if (!isSignedWebhook && (response.statusCode !== 422 || answer.statusCode !== 120 || !named))
          failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 160)}`);
        const problem = envelopeProblem(response);
        if (problem) failures.push(`${where}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuse a non-numeric HK$ amount of the qualified-investor test (it answered 500)', async () => {
    for (const portfolioHkd of ['abc', '1e3', '-8000000', '8000000.001', '9'.repeat(40)]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/investor/qualify',
        headers: { ...mutationHeaders({ 'User-Lang': 'zh-HK' }), cookie: user.cookie },
        payload: { type: 'individual', portfolioHkd, isDeclared: true },
      });
      expect(response.statusCode, portfolioHkd).toBe(422);
      expect(response.json().content.fields[0].field).toBe('portfolioHkd');
    }
  });
});

/** The newest audit row. */
async function lastAudit() {
  const [row] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

function operatorCall(method: 'POST' | 'PUT', url: string, payload: unknown, lang = 'en-US') {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { ...mutationHeaders({ 'User-Lang': lang }), authorization: `Bearer ${operatorToken}` },
    payload: JSON.stringify(payload),
  });
}

describe('the back office refuses control characters in the envelope and still audits the refusal', () => {
  it('a NUL or a bidi control in a reason: 422 naming reason, the audit row holds the escaped reason', async () => {
    for (const [reason, stored] of [
      ['fraud\u0000report', 'fraud\\u0000report'],
      ['fraud \u202ereport', 'fraud \\u202ereport'],
    ]) {
      const response = await operatorCall('POST', `/users/${user.userId}/freeze`, { reason }, 'zh-HK');
      expect(response.statusCode).toBe(422);
      expect(envelopeProblem(response)).toBeNull();
      expect(response.json().content.fields[0].field).toBe('reason');
      expect(response.body).not.toMatch(/Failed query|audit_log|insert into/i);
      const row = await lastAudit();
      expect(row).toMatchObject({ action: 'freezeUser', reason: stored, outcomeCode: 120, targetId: user.userId });
    }
  });

  it('a NUL in an adjustment reason and in an amount: refused, audited', async () => {
    const response = await operatorCall('POST', '/adjustments', {
      reason: 'credit\u0000',
      postings: [
        { account: { kind: 'platform', code: 'adjustments' }, asset: 'USDT', amount: '-1\u0000' },
        { account: { kind: 'user', userId: user.userId }, asset: 'USDT', amount: '1' },
      ],
    });
    expect(response.statusCode).toBe(422);
    expect(envelopeProblem(response)).toBeNull();
    expect(
      response
        .json()
        .content.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['postings.0.amount', 'reason']);
    expect(await lastAudit()).toMatchObject({ action: 'proposeAdjustment', reason: 'credit\\u0000', outcomeCode: 120 });
  });

  it('a NUL in a path parameter: 422 naming it, the audit row holds the escaped parameter', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users/a%00b/freeze',
      headers: { ...mutationHeaders(), authorization: `Bearer ${operatorToken}` },
      payload: { reason: 'fraud report' },
    });
    expect(response.statusCode).toBe(422);
    expect(envelopeProblem(response)).toBeNull();
    expect(response.json().content.fields[0].field).toBe('userId');
    expect(await lastAudit()).toMatchObject({ action: 'freezeUser', targetId: 'a\\u0000b', outcomeCode: 120 });
  });
});

describe('JSON bodies are strictly typed', () => {
  it('a number sent as a string is refused naming the field (termDays, LTV percents, card count)', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      [
        'POST',
        '/api/loan/borrow',
        { loanCoin: 'USDT', termDays: '30', collateralAmount: '1', principal: '100', emailCaptcha: '123456' },
        'termDays',
      ],
      [
        'POST',
        '/api/loan/protection',
        {
          orderId: '1',
          isEnabled: true,
          action: 'REPAY',
          triggerLtvPct: '80',
          targetLtvPct: 65,
          maxAmount: '10',
          emailCaptcha: '123456',
        },
        'triggerLtvPct',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { ...mutationHeaders(), cookie: user.cookie },
        payload,
      });
      expect(response.statusCode, url).toBe(422);
      expect(
        response.json().content.fields.map((f: { field: string }) => f.field),
        url,
      ).toContain(field);
    }
  });

  it('a query string still reads its numbers from text (GET loan/calc?termDays=30)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/loan/calc?loanCoin=USDT&termDays=30&principal=100',
      headers: { cookie: user.cookie },
    });
    expect(response.json().content?.fields ?? []).not.toContainEqual(expect.objectContaining({ field: 'termDays' }));
  });
});

describe('bidirectional controls', () => {
  it('are refused in a label, in both languages', async () => {
    const response = await operatorCall(
      'POST',
      `/users/${user.userId}/notes`,
      { text: 'see \u2066ticket\u2069' },
      'zh-HK',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields[0].field).toBe('text');
    expect(response.json().content.fields[0].message).toBe('此欄位含有控制字元（如 NUL 或文字方向控制字元）或無效字元');
  });

  it('are refused in an upload file name (a\\u202Egnp.exe shows as aexe.png)', async () => {
    const boundary = '----bidi-boundary';
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a\u202egnp.exe"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/banners/images',
      headers: {
        ...mutationHeaders(),
        authorization: `Bearer ${operatorToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields[0].message).toMatch(/control character/);
  });
});

describe('the envelope is the only error shape', () => {
  it('a hook error on an error answer is still the envelope, with no database text', async () => {
    probeHookError = Object.assign(new Error('Failed query: insert into "audit_log" params: secret'), {
      statusCode: undefined,
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/probe-hook',
      headers: mutationHeaders(),
      payload: {},
    });
    // Fastify's default handler keeps the status already set (the refusal's 404); the envelope
    // guard answers that status class in the envelope, without the error's text.
    expect([404, 500]).toContain(response.statusCode);
    expect(envelopeProblem(response)).toBeNull();
    expect(response.body).not.toMatch(/Failed query|audit_log|secret/);
  });

  it("Fastify's own errors (bad JSON, unsupported media type) answer in the envelope", async () => {
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/probe-hook',
      headers: { ...mutationHeaders(), 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(envelopeProblem(badJson)).toBeNull();
    const media = await t.app.inject({
      method: 'POST',
      url: '/api/probe-hook',
      headers: { ...mutationHeaders(), 'content-type': 'text/x-unknown' },
      payload: 'x',
    });
    expect(media.statusCode).toBeGreaterThanOrEqual(400);
    expect(envelopeProblem(media)).toBeNull();
  });
});
