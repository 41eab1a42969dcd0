import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

/**
 * On a slow first load nothing may show a raw translation key. Before this was
 * fixed, the prerendered home page carried `title`, `subtitle`, `columns.coin`, `columns.price` and
 * `note` in its market section for as long as the app took to load.
 *
 * Every locale namespace (one JS chunk per language and namespace, named after its JSON file) is
 * answered 2.5 s late; meanwhile the visible text of the page is read every 100 ms and must never
 * hold a line that is a key of any namespace. Afterwards the real texts must be there.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOCALES_DIR = join(ROOT, 'apps/web/src/locales');
const DELAY_MS = 2_500;
const NAMESPACES = readdirSync(join(LOCALES_DIR, 'en-US')).map((file) => file.replace(/\.json$/, ''));
/** A built locale chunk: `/assets/<namespace>-<8-character hash>.js`. */
const LOCALE_CHUNK = new RegExp(`/assets/(?:${NAMESPACES.join('|')})-[\\w-]{8}\\.js$`);

/** Every key path (`columns.coin`, and `market:columns.coin`) of every namespace of both languages. */
function allKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (namespace: string, value: unknown, path: string) => {
    if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(namespace, child, path ? `${path}.${key}` : key);
    } else {
      keys.add(path);
      keys.add(`${namespace}:${path}`);
      // Plural forms (`expiresIn_one`) show as their base key when missing.
      keys.add(path.replace(/_(?:zero|one|two|few|many|other)$/, ''));
    }
  };
  const locales = readdirSync(LOCALES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const { name: locale } of locales) {
    for (const file of readdirSync(join(LOCALES_DIR, locale))) {
      walk(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(LOCALES_DIR, locale, file), 'utf8')), '');
    }
  }
  return keys;
}
const KEYS = allKeys();

/** The visible lines of the page that are translation keys. */
async function rawKeysShown(page: Page): Promise<string[]> {
  // A string expression: the e2e project compiles without the DOM library.
  const text = await page.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => KEYS.has(line));
}

for (const [locale, marketTitle] of [
  ['en-US', 'Markets'],
  ['zh-HK', '市場行情'],
] as const) {
  test(`no raw translation key shows while the texts load slowly (${locale})`, async ({ page }) => {
    let delayed = 0;
    await page.route(LOCALE_CHUNK, async (route) => {
      delayed += 1;
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      await route.continue();
    });
    await page.goto(`/?locale=${locale}`, { waitUntil: 'commit' });

    const seen = new Set<string>();
    const until = Date.now() + DELAY_MS + 1_500;
    while (Date.now() < until) {
      for (const key of await rawKeysShown(page)) seen.add(key);
      await page.waitForTimeout(100);
    }
    await expect(page.getByTestId('market-table').getByRole('heading', { level: 2 })).toHaveText(marketTitle);
    for (const key of await rawKeysShown(page)) seen.add(key);

    expect(delayed, 'the locale chunks were delayed').toBeGreaterThan(0);
    expect([...seen], 'raw translation keys seen on the page').toEqual([]);
  });
}
