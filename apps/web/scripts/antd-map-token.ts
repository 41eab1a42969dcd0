// npm run antd:token -w @meridian/web — writes src/components/antd-map-token.json: Ant Design's map
// tokens (the colour palettes and sizes its default algorithm derives from the seed tokens) for the
// app's theme (src/components/antd-theme.ts), computed once here instead of in the browser when an
// island's `ConfigProvider` first renders (Lighthouse's total blocking time; docs/performance.md).
// `src/components/antd-map-token.test.ts` fails while the file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { theme } from 'antd';
import { THEME } from '../src/components/antd-theme.ts';

/** Where the map tokens live (imported by `components/antd-map-token.ts`). */
export const ANTD_MAP_TOKEN_PATH = fileURLToPath(new URL('../src/components/antd-map-token.json', import.meta.url));

/**
 * The seed tokens `ConfigProvider` derives its map tokens from for `THEME` (Ant Design's default
 * seed with the theme's tokens over it) and the map tokens of the default algorithm for them.
 */
export function mapTokenOfTheme(): { seed: Record<string, unknown>; map: Record<string, unknown> } {
  const seed = { ...theme.defaultSeed, ...THEME.token };
  return { seed, map: { ...theme.defaultAlgorithm(seed) } };
}

/** The file's text: JSON, two-space indented, with a final newline (as prettier leaves it). */
export function mapTokenFileText(): string {
  return `${JSON.stringify(mapTokenOfTheme(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(ANTD_MAP_TOKEN_PATH, mapTokenFileText());
  console.log(`wrote ${ANTD_MAP_TOKEN_PATH}`);
}
