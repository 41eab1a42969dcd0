import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as admin from '@meridian/contracts/admin';
import * as backOffice from '@meridian/contracts/back-office';
import * as kyc from '@meridian/contracts/kyc';
import * as kycRules from '@meridian/contracts/kyc-rules';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { auditActionLabel, countryName, FIELDS_SHOWN_AS_CODE, fieldLabel, valueLabel } from './labels.ts';

/**
 * Every code the back office shows has a label in en-US and zh-HK: each enum value of the
 * back-office contracts (found by walking their zod schemas, by field name: `enums.<field>.<value>`),
 * each list of names the user page shows as text, and each audit action (every state-changing
 * operator endpoint of the contracts, and the sign-in's `operator.*` actions of admin.access.ts).
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..', '..', '..', '..', '..');
const LOCALES = ['en-US', 'zh-HK'] as const;
const catalogue = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    JSON.parse(readFileSync(join(ROOT, 'apps/web/src/locales', locale, 'admin.json'), 'utf8')) as object,
  ]),
) as Record<(typeof LOCALES)[number], object>;

/** The text at a dotted key path (each step one segment), or undefined. */
function textAt(tree: object, segments: string[]): unknown {
  return segments.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    tree,
  );
}

/** A zod 4 schema's definition, as far as the walk reads it. */
interface Def {
  type: string;
  entries?: Record<string, string>;
  shape?: Record<string, unknown>;
  element?: unknown;
  innerType?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
  in?: unknown;
  out?: unknown;
  valueType?: unknown;
}

/** Adds every enum value under `schema` to `found`, by the name of the field that holds it. */
function collectEnums(schema: unknown, field: string, found: Map<string, Set<string>>, seen = new Set<unknown>()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Def } })._zod?.def;
  if (!def) return;
  const walk = (child: unknown, name = field) => collectEnums(child, name, found, seen);
  if (def.type === 'enum') {
    const values = found.get(field) ?? new Set<string>();
    for (const value of Object.values(def.entries ?? {})) values.add(String(value));
    found.set(field, values);
  } else if (def.type === 'object') for (const [name, child] of Object.entries(def.shape ?? {})) walk(child, name);
  else if (def.type === 'union') for (const option of def.options ?? []) walk(option);
  else
    for (const child of [def.element, def.innerType, def.left, def.right, def.in, def.out, def.valueType]) walk(child);
}

/** Every enum of the modules' exported schemas and of their endpoints' query, body and content. */
function enumsOf(modules: object[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const module of modules)
    for (const [name, value] of Object.entries(module)) {
      if (!value || typeof value !== 'object') continue;
      if ('_zod' in value) collectEnums(value, name.replace(/Schema$/, ''), found);
      else
        for (const endpoint of Object.values(value as Record<string, unknown>))
          if (endpoint && typeof endpoint === 'object' && 'method' in endpoint)
            for (const part of ['query', 'body', 'content'])
              collectEnums((endpoint as Record<string, unknown>)[part], part, found);
    }
  return found;
}

/** The names the user page shows as text, by the `enums` field they are labelled under. */
const NAME_LISTS: Record<string, readonly string[]> = {
  verificationStatus: backOffice.VERIFICATION_STATUS_NAMES,
  module: backOffice.USER_HISTORY_MODULES,
  historyKind: backOffice.USER_HISTORY_KINDS,
  historyStatus: backOffice.USER_HISTORY_STATUSES,
  idType: kycRules.ID_TYPES,
};

/** Every audit action: operator endpoints that change state (their names), and the sign-in's own. */
async function auditActions(): Promise<string[]> {
  const dir = join(ROOT, 'packages/contracts/src');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.includes('.test.'))) {
    const module = (await import(join(dir, file))) as Record<string, unknown>;
    for (const group of Object.values(module)) {
      if (!group || typeof group !== 'object' || '_zod' in group) continue;
      for (const [name, endpoint] of Object.entries(group as Record<string, unknown>)) {
        const { auth, method } = (endpoint ?? {}) as { auth?: string; method?: string };
        if (auth === 'operator' && method !== 'GET') names.add(name);
      }
    }
  }
  const access = readFileSync(join(ROOT, 'apps/server/src/modules/admin/admin.access.ts'), 'utf8');
  for (const [, action] of access.matchAll(/'(operator\.[a-zA-Z]+)'/g)) names.add(action!);
  return [...names].sort();
}

describe('back-office labels', () => {
  it('label every enum value of the back-office contracts in en-US and zh-HK', () => {
    const found = enumsOf([backOffice, kyc, kycRules, admin]);
    for (const [field, values] of Object.entries(NAME_LISTS)) found.set(field, new Set(values));
    expect(found.size).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [field, values] of found) {
      if (FIELDS_SHOWN_AS_CODE.has(field)) continue;
      for (const value of values)
        for (const locale of LOCALES)
          if (typeof textAt(catalogue[locale], ['enums', field, value]) !== 'string')
            missing.push(`${locale} enums.${field}.${value}`);
    }
    expect(missing).toEqual([]);
  });

  it('label every audit action in en-US and zh-HK', async () => {
    const actions = await auditActions();
    expect(actions).toContain('operator.totpEnrolled');
    expect(actions).toContain('freezeUser');
    const missing = actions.flatMap((action) =>
      LOCALES.filter(
        (locale) => typeof textAt(catalogue[locale], ['auditActions', ...action.split('.')]) !== 'string',
      ).map((locale) => `${locale} auditActions.${action}`),
    );
    expect(missing).toEqual([]);
  });

  it('show countries by their name in the language, values by their label, a code without one as itself', () => {
    expect(countryName('HK', 'en-US')).toBe('Hong Kong SAR China');
    expect(countryName('HK', 'zh-HK')).toContain('香港');
    expect(countryName('unknown', 'en-US')).toBe('unknown');
    const t = ((key: string, options?: { defaultValue?: string }) =>
      (textAt(catalogue['zh-HK'], key.split('.')) as string | undefined) ?? options?.defaultValue ?? key) as TFunction;
    expect(valueLabel(t, 'zh-HK', 'netWorthUsdBand', 'from100kTo1m')).toBe('100,000 至 100 萬美元');
    expect(valueLabel(t, 'zh-HK', 'idType', 'passport')).toBe('護照');
    expect(valueLabel(t, 'zh-HK', 'nationality', 'HK')).toContain('香港');
    expect(valueLabel(t, 'zh-HK', 'verificationStatus', 'verified')).toBe('已認證');
    expect(valueLabel(t, 'zh-HK', 'coin', 'USDT')).toBe('USDT');
    expect(valueLabel(t, 'zh-HK', 'netWorthUsdBand', 'somethingNew')).toBe('somethingNew');
    expect(fieldLabel(t, 'individual.netWorthUsdBand')).toBe('資產淨值');
    expect(fieldLabel(t, 'sourcesOfFunds.1')).toBe('資金來源 2');
    expect(auditActionLabel(t, 'operator.totpEnrolled')).toBe('已登記驗證器');
  });
});
