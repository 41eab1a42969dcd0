import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The back office's texts exist in both languages: every key of en-US has its zh-HK text and the
 * other way round (plural forms aside: Chinese has only `_other`).
 */
const LOCALES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'locales');

function keysOf(locale: string): string[] {
  const keys: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key);
    } else {
      keys.push(path.replace(/_(?:one|other)$/, ''));
    }
  };
  walk(JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'admin.json'), 'utf8')), '');
  return [...new Set(keys)].sort();
}

describe('admin locale files', () => {
  it('have the same keys in en-US and zh-HK', () => {
    expect(keysOf('zh-HK')).toEqual(keysOf('en-US'));
  });
});
