import { type ISpectralDiagnostic, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { defined, schema } from '@stoplight/spectral-functions';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The generated OpenAPI document (`/api/docs/json`) passes Spectral's `spectral:oas` and the OWASP
 * API Security Top 10 ruleset (`@stoplight/spectral-owasp-ruleset`) with no error; every warning
 * that stays is listed below with its reason (docs/api.md, "Limits and the linter"). Runs offline:
 * both rulesets are npm packages, the document comes from `app.inject()`.
 */

/** Severity of a Spectral diagnostic: 0 error, 1 warning, 2 information, 3 hint. */
const ERROR = 0;
const WARNING = 1;

/** JSONPath of every schema in a request (parameters and JSON bodies). */
const REQUEST_SCHEMAS = ['$.paths[*][*].parameters[*]', '$.paths[*][*].requestBody'];
const ofType = (roots: string[], type: string) => roots.map((root) => `${root}..[?(@ && @.type=="${type}")]`);

const hasStringLimit = {
  function: schema,
  functionOptions: {
    schema: { type: 'object', anyOf: [{ required: ['maxLength'] }, { required: ['enum'] }, { required: ['const'] }] },
  },
};
const hasItemLimit = { field: 'maxItems', function: defined };

/**
 * The operations that are deliberately open: they are how a caller gets a session (sign-in,
 * registration, password reset, the operator's sign-in and its authenticator step, signing out),
 * or they carry their own proof (a custody or card-processor webhook signed with HMAC, a freeze
 * link's single-use token; docs/freeze-links.md).
 */
const OPEN_WRITES = [
  'post /api/user/login',
  'post /api/user/register',
  'post /api/user/forgetPassword',
  'post /api/user/resetPassword',
  'post /api/user/passkeys/login',
  'post /api/custody/webhook',
  'post /api/admin/session',
  'delete /api/admin/session',
  'post /api/admin/session/totp',
  'post /api/card/processor/webhook',
  'post /api/user/freeze',
];

/**
 * The warnings that stay, by rule, with their reason. A rule missing here must give no warning.
 * `owasp:api1:2023-no-numeric-ids`: these resources (withdrawals, address-book entries, cards,
 * trusts, bank accounts, change requests, alerts) are `bigserial` rows; a user's route looks the row
 * up with the caller's own user id and a back-office route needs an operator with the right role,
 * so a guessed id answers "not found". Moving them to opaque ids is a migration of their own.
 */
const KEPT_WARNINGS: Record<string, string> = {
  'owasp:api3:2023-no-additionalProperties':
    'open maps (`z.record`) are keyed by asset, currency or locale: their keys are bounded by the product, not by `additionalProperties: false`',
  'owasp:api3:2023-constrained-additionalProperties': 'the same open maps: see no-additionalProperties',
  'owasp:api2:2023-read-restricted':
    'public reads: market prices, coins, banners, site settings, a calendar feed by its unguessable file name',
  'owasp:api2:2023-write-restricted': `the open writes, listed in OPEN_WRITES: ${OPEN_WRITES.length} operations`,
  'owasp:api1:2023-no-numeric-ids': 'bigserial ids of rows checked for ownership or role on every route (see above)',
  'owasp:api8:2023-define-error-responses-401': 'routes open to anyone, with no session to lose',
  'operation-success-response':
    'file downloads and the event stream are registered without a response schema (images, PDFs, CSV, SSE)',
  'operation-description': 'the event stream (Server-Sent Events), described in docs/notices.md',
  'oas3-api-servers': 'the document is served by the API itself; its server is the origin it is read from',
  'info-contact': 'an internal API; the contact is the team that owns the repository',
};

/**
 * Rules switched off, with their reason: each would warn on thousands of schemas for a reason that
 * holds for all of them, and a Spectral run's time grows with the number of its diagnostics (about
 * 3x for ten thousand), so they are not run. The length rules run on requests, as errors.
 */
const RULES_OFF: Record<string, string> = {
  'owasp:api4:2023-string-restricted':
    'free text (names, labels, reasons, messages) has no pattern or format by nature; its length is bounded',
  'owasp:api4:2023-rate-limit':
    'the limits are per IP on chosen routes and per API key; a limited route answers 429 with Retry-After (documented on every operation) rather than announcing its budget in headers',
  'string and array limits of answers':
    'answers are the server’s own output, not input: a `.max()` there would be enforced by the response serializer and make a long stored value a 500; what is stored came through a bounded request, and lists are paged (pageSize ≤ 100) or bounded by the product',
};

/** Both rulesets; the length rules on requests only; the kept errors as warnings; the rules off. */
const ruleset = {
  extends: [
    [oas as RulesetDefinition, 'recommended'],
    [owasp as RulesetDefinition, 'recommended'],
  ],
  rules: {
    'owasp:api4:2023-string-limit': {
      severity: 'error',
      given: ofType(REQUEST_SCHEMAS, 'string'),
      then: hasStringLimit,
    },
    'owasp:api4:2023-array-limit': { severity: 'error', given: ofType(REQUEST_SCHEMAS, 'array'), then: hasItemLimit },
    'owasp:api4:2023-string-restricted': 'off',
    'owasp:api4:2023-rate-limit': 'off',
    'owasp:api2:2023-write-restricted': 'warn',
    'owasp:api1:2023-no-numeric-ids': 'warn',
  },
} as unknown as RulesetDefinition;

let t: TestApp;
let results: ISpectralDiagnostic[];
beforeAll(async () => {
  t = await createTestApp();
  const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Record<string, unknown>;
  const spectral = new Spectral();
  spectral.setRuleset(ruleset);
  results = await spectral.run(document);
}, 120_000);
afterAll(async () => t?.close());

/** `post /api/user/login` of a diagnostic at `paths./api/user/login.post.security`. */
function operationOf(result: ISpectralDiagnostic): string {
  const [, path, method] = result.path.map(String);
  return `${method} ${path}`;
}

describe('the OpenAPI document under Spectral (spectral:oas and OWASP API Security Top 10)', () => {
  it('has no error', () => {
    const errors = results.filter((result) => result.severity === ERROR);
    expect(errors.map((result) => `${String(result.code)} ${result.path.join('.')}`)).toEqual([]);
  });

  it('keeps only the listed warnings, and gives each rule off a reason', () => {
    expect(Object.values(RULES_OFF).every((reason) => reason.length > 20)).toBe(true);
    const warned = new Set(
      results.filter((result) => result.severity === WARNING).map((result) => String(result.code)),
    );
    expect([...warned].filter((code) => !(code in KEPT_WARNINGS))).toEqual([]);
  });

  it('leaves open only the writes that must be', () => {
    const open = results.filter((result) => result.code === 'owasp:api2:2023-write-restricted').map(operationOf);
    expect(open.sort()).toEqual([...OPEN_WRITES].sort());
  });

  it('bounds every string and list of every request', () => {
    const unbounded = results.filter(
      (result) => result.code === 'owasp:api4:2023-string-limit' || result.code === 'owasp:api4:2023-array-limit',
    );
    expect(unbounded.map((result) => result.path.join('.'))).toEqual([]);
  });

  it('gives every integer a format (int32 or int64)', () => {
    const unformatted = results.filter((result) => result.code === 'owasp:api4:2023-integer-format');
    expect(unformatted.map((result) => result.path.join('.'))).toEqual([]);
  });
});
