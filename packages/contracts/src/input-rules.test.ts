import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Endpoint } from './endpoint.ts';
import { decimalAmountSchema, signedDecimalAmountSchema } from './money.ts';

/**
 * The contracts' input rules (docs/decisions/0010-input-rules.md) over every endpoint descriptor of
 * every contract module: JSON bodies are strictly typed (no `z.coerce`, no preprocess: a query
 * string or a path parameter may coerce, it is text on the wire), and the wire amount schemas
 * refuse what is not a plain decimal without ever throwing.
 */
const contractFiles = readdirSync(dirname(fileURLToPath(import.meta.url))).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
);
const modules: Record<string, Record<string, unknown>> = Object.fromEntries(
  await Promise.all(
    contractFiles.map(async (file) => [file, (await import(`./${file}`)) as Record<string, unknown>] as const),
  ),
);

/** Every endpoint descriptor exported by a contract module (`{ name: defineEndpoint(…) }` groups). */
function allEndpoints(): [string, Endpoint][] {
  const found: [string, Endpoint][] = [];
  for (const [file, exports] of Object.entries(modules)) {
    for (const group of Object.values(exports)) {
      if (group === null || typeof group !== 'object') continue;
      for (const [name, value] of Object.entries(group as Record<string, unknown>)) {
        const endpoint = value as Partial<Endpoint>;
        if (endpoint && typeof endpoint.path === 'string' && typeof endpoint.method === 'string')
          found.push([`${file} ${name}`, endpoint as Endpoint]);
      }
    }
  }
  return found;
}

/** Paths (in the schema tree) of every coercing or preprocessing schema under `schema`. */
function coercions(schema: unknown, path = '', seen = new Set<unknown>()): string[] {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const zod = (schema as { _zod?: { def?: Record<string, unknown> } })._zod;
  if (!zod?.def) return [];
  const def = zod.def;
  const found: string[] = [];
  if (def.coerce === true) found.push(path || '(root)');
  // z.preprocess is a pipe whose input is a transform.
  if (def.type === 'pipe' && (def.in as { _zod?: { def?: { type?: string } } })?._zod?.def?.type === 'transform')
    found.push(`${path || '(root)'} (preprocess)`);
  const shape = def.shape as Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(shape ?? {})) found.push(...coercions(child, `${path}.${key}`, seen));
  for (const key of ['innerType', 'in', 'out', 'element', 'schema', 'valueType', 'left', 'right'])
    found.push(...coercions(def[key], path, seen));
  for (const option of (def.options as unknown[] | undefined) ?? []) found.push(...coercions(option, path, seen));
  return found;
}

describe('input rules of every contract', () => {
  const endpoints = allEndpoints();

  it('finds the endpoint descriptors', () => {
    expect(endpoints.length).toBeGreaterThan(200);
  });

  it('types JSON bodies strictly: no z.coerce or preprocess in any body', () => {
    const found = endpoints.flatMap(([name, endpoint]) =>
      endpoint.body ? coercions(endpoint.body).map((path) => `${name} body${path}`) : [],
    );
    expect(found).toEqual([]);
  });

  it('refuses what is not a plain decimal amount, never throwing', () => {
    for (const text of ['abc', '1e3', '-1', ' 1', '1,000', '0x10', 'Infinity', '', '01', '9'.repeat(31), '1.']) {
      expect(decimalAmountSchema.safeParse(text).success, text).toBe(false);
    }
    for (const text of ['0', '10', '1234.5678', '9'.repeat(30)]) {
      expect(decimalAmountSchema.safeParse(text).success, text).toBe(true);
    }
    expect(signedDecimalAmountSchema.safeParse('-12.5').success).toBe(true);
    expect(signedDecimalAmountSchema.safeParse('-1e3').success).toBe(false);
    expect(signedDecimalAmountSchema.safeParse('--1').success).toBe(false);
  });

  it('marks the amount schemas for the OpenAPI document', () => {
    expect(z.toJSONSchema(decimalAmountSchema)).toMatchObject({ format: 'decimal', 'x-amount': 'unsigned' });
    expect(z.toJSONSchema(signedDecimalAmountSchema)).toMatchObject({ format: 'decimal', 'x-amount': 'signed' });
  });
});
