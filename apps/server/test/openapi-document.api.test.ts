import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The generated OpenAPI document (`/api/docs/json`, platform/http/openapi.ts) carries what the API
 * linters look for (Spectral `spectral:oas`, OWASP ruleset): a unique operationId per operation,
 * every tag listed at the top level, the security each route declares (its schemes defined), and
 * the envelope's error answers (401 where a session is needed, 422, 429, 500).
 */
interface DocumentOperation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}
let t: TestApp;
let document: {
  tags?: { name: string }[];
  paths: Record<string, Record<string, DocumentOperation>>;
  components: { securitySchemes: Record<string, unknown> };
};
beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(async () => t?.close());

function operations(): [string, DocumentOperation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => [`${method} ${path}`, operation] as [string, DocumentOperation],
    ),
  );
}

describe('the OpenAPI document for the linters', () => {
  it('gives every operation a unique operationId', () => {
    const ids = operations().map(([, operation]) => operation.operationId);
    expect(ids.length).toBeGreaterThan(200);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/admin/users/{userId}/freeze']?.post?.operationId).toBe('freezeUser');
  });

  it('lists every tag an operation uses at the top level', () => {
    const listed = new Set((document.tags ?? []).map((tag) => tag.name));
    const used = new Set(operations().flatMap(([, operation]) => operation.tags ?? []));
    expect([...used].filter((tag) => !listed.has(tag))).toEqual([]);
  });

  it('declares the security of every route, with defined schemes', () => {
    const schemes = new Set(Object.keys(document.components.securitySchemes));
    const problems: string[] = [];
    for (const [name, operation] of operations()) {
      if (!Array.isArray(operation.security)) problems.push(`${name}: no security`);
      for (const requirement of operation.security ?? [])
        for (const scheme of Object.keys(requirement)) if (!schemes.has(scheme)) problems.push(`${name}: ${scheme}`);
    }
    expect(problems).toEqual([]);
    expect(document.paths['/api/admin/users/{userId}/freeze']?.post?.security).toEqual([
      { operatorCookie: [] },
      { operatorBearer: [] },
    ]);
  });

  it('documents the error answers: 422, 429, 500 everywhere, 401 where a session is needed', () => {
    const problems: string[] = [];
    for (const [name, operation] of operations()) {
      const codes = Object.keys(operation.responses ?? {});
      const needed = ['422', '429', '500', ...((operation.security ?? []).length > 0 ? ['401'] : [])];
      for (const code of needed) if (!codes.includes(code)) problems.push(`${name}: no ${code}`);
    }
    expect(problems).toEqual([]);
  });
});
