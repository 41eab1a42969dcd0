// npm run antd:css -w @meridian/web — writes src/styles/antd.css: Ant Design's styles for the
// components the app uses, generated once from the app's theme (src/components/antd-theme.ts)
// instead of in the browser on every island's first mount (Lighthouse's total blocking
// time); and src/styles/antd/<island>.css, the styles of the components each island of the public
// pages renders (`antdIsland`), so that those pages load a third to a half of it.
// `src/styles/antd-css.test.ts` fails while a file differs from what this writes.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractStyle } from '@ant-design/static-style-extract';
import { ConfigProvider } from 'antd';
import { createElement, type ReactElement } from 'react';
import { THEME } from '../src/components/antd-theme.ts';

const WEB_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the generated styles live (imported by `components/antd-config.tsx`). */
export const ANTD_CSS_PATH = join(WEB_ROOT, 'src/styles/antd.css');

/** Where each island's styles live: `<name>.css`, named after the island's module (`loan-borrow.tsx`). */
export const ISLAND_CSS_DIR = join(WEB_ROOT, 'src/styles/antd');

/**
 * Components that the app's components render inside themselves (a table's pagination, filter
 * dropdowns and checkboxes; a select's empty list; a popconfirm's popover and buttons; messages and
 * notifications of `App`): their styles are needed although no file of the app imports them.
 */
const RENDERED_INSIDE = [
  'Badge',
  'Button',
  'Checkbox',
  'Dropdown',
  'Empty',
  'Input',
  'Menu',
  'Pagination',
  'Popover',
  'Radio',
  'Spin',
  'Tooltip',
  'message',
  'notification',
];

/**
 * What each component used by an island renders inside itself (Ant Design 6's sources), for the
 * islands' styles: a table's pagination, filter dropdowns, selection boxes and empty state; a
 * pagination's size changer; a form item's label tooltip and grid; a modal's buttons. A component
 * not listed renders none. `RENDERED_INSIDE` is the app-wide superset the full file includes.
 */
const RENDERED_INSIDE_OF: Readonly<Record<string, readonly string[]>> = {
  Card: ['Skeleton'],
  Dropdown: ['Menu'],
  Form: ['Row', 'Col', 'Tooltip'],
  Input: ['Button'],
  List: ['Pagination', 'Spin', 'Empty', 'Row', 'Col'],
  Modal: ['Button'],
  Pagination: ['Select', 'Input'],
  Select: ['Empty'],
  Statistic: ['Skeleton'],
  Table: ['Pagination', 'Checkbox', 'Radio', 'Dropdown', 'Empty', 'Spin', 'Tooltip', 'Button', 'Input'],
  Typography: ['Tooltip', 'Input'],
};

/** Every `.ts`/`.tsx` file under `dir`, tests excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The names of Ant Design's components that the app's sources import as values
 * (`import { Button, type ButtonProps } from 'antd'` gives `Button`), with those rendered inside
 * them (`RENDERED_INSIDE`), sorted.
 */
export function usedAntdComponents(srcDir = join(WEB_ROOT, 'src')): string[] {
  const names = new Set(RENDERED_INSIDE);
  for (const file of sourceFiles(srcDir)) for (const name of antdImportsOf(readFileSync(file, 'utf8'))) names.add(name);
  names.delete('ConfigProvider');
  return [...names].sort();
}

/** The Ant Design components a source file imports as values (`import { Button, type X } from 'antd'`). */
function antdImportsOf(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name === '' || name.startsWith('type ')) continue;
      if (/^[A-Z]/.test(name) || name === 'message' || name === 'notification') names.push(name);
    }
  }
  return names;
}

/** The file a relative import names (`./x`, `../y.tsx`), or undefined when it is not a source file. */
function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  return [base, `${base}.tsx`, `${base}.ts`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    (path) => /\.tsx?$/.test(path) && existsSync(path),
  );
}

/** An island of a public page (`antdIsland(load, styles)`), as `antdIslands` finds it in the sources. */
export interface AntdIslandSource {
  /** The island module's file name without extension (`loan-borrow`): its stylesheet is `<name>.css`. */
  name: string;
  /** The island module's path. */
  entry: string;
  /** The file that declares the island (its page). */
  page: string;
  /** The stylesheet the declaration passes (`import x from '…/styles/antd/<name>.css?url'`), resolved; undefined when none is found. */
  styles: string | undefined;
}

/**
 * The islands of the public pages: each `antdIsland(() => import('./x.tsx')…, styles[, warmUp])` in `src`.
 * Sorted by name; two island modules with one file name are refused (their stylesheets would collide).
 */
export function antdIslands(srcDir = join(WEB_ROOT, 'src')): AntdIslandSource[] {
  const islands = new Map<string, AntdIslandSource>();
  // The optional third argument is the island's list of warm-up imports (`[() => import(…), …]`).
  const declaration = /antdIsland\(\s*\(\)\s*=>\s*import\('(\.[^']+)'\)[^;]*?,\s*(\w+)\s*(?:,\s*\[[^\]]*\])?,?\s*\);/g;
  for (const page of sourceFiles(srcDir)) {
    const source = readFileSync(page, 'utf8');
    for (const match of source.matchAll(declaration)) {
      const entry = resolveImport(page, match[1]!);
      if (!entry) throw new Error(`${page}: island module ${match[1]} not found`);
      const name = basename(entry).replace(/\.tsx?$/, '');
      if (islands.has(name) && islands.get(name)!.entry !== entry) throw new Error(`two islands are named ${name}`);
      const stylesImport = new RegExp(`import\\s+${match[2]}\\s+from\\s+'([^']+\\.css)\\?url'`).exec(source);
      const styles = stylesImport ? resolve(dirname(page), stylesImport[1]!) : undefined;
      islands.set(name, { name, entry, page, styles });
    }
  }
  return [...islands.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The Ant Design components an island can render: those imported by its module and by every module
 * it imports, statically or lazily (`import('./x')`: its modals and later parts), through relative
 * imports, with what they render inside themselves (`RENDERED_INSIDE_OF`), sorted. What it opens
 * through the app's overlays (sign-in, security check, toasts) is not in it: those load the full
 * file (`prepareAntd()`).
 */
export function islandAntdComponents(entry: string): string[] {
  const names = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const name of antdImportsOf(source)) names.add(name);
    const specifiers = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'/gm),
      ...source.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g),
    ].map((match) => match[1]!);
    for (const specifier of specifiers) {
      const target = resolveImport(file, specifier);
      if (target) pending.push(target);
    }
  }
  for (let size = 0; size !== names.size;) {
    size = names.size;
    for (const name of [...names]) for (const inner of RENDERED_INSIDE_OF[name] ?? []) names.add(inner);
  }
  names.delete('ConfigProvider');
  return [...names].sort();
}

/** Ant Design's CSS for `components` in the app's theme, as one string (`@ant-design/static-style-extract`). */
export function generateAntdCss(components = usedAntdComponents()): string {
  const css = extractStyle({
    includes: components,
    customTheme: (node: ReactElement) =>
      createElement(ConfigProvider, { theme: { ...THEME, zeroRuntime: false } }, node),
  });
  // A nested configuration (a modal's, a notification's) gets a root-token rule of its own under a
  // generated class (`.css-var-_R_…_`); Ant Design writes those at runtime (`cssVar`), so the file
  // keeps only the app's (`.meridian`).
  const withoutNestedTokens = css.replace(/\.css-var-[\w-]+\{[^{}]*\}/g, '');
  return `/* Generated by \`npm run antd:css -w @meridian/web\` from src/components/antd-theme.ts for: ${components.join(', ')}. Do not edit. */\n${withoutNestedTokens}\n`;
}

/** Every file this script writes, path → content: the full file and one per island. */
export function generateAllAntdCss(): Map<string, string> {
  const files = new Map([[ANTD_CSS_PATH, generateAntdCss()]]);
  for (const { name, entry } of antdIslands())
    files.set(join(ISLAND_CSS_DIR, `${name}.css`), generateAntdCss(islandAntdComponents(entry)));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  rmSync(ISLAND_CSS_DIR, { recursive: true, force: true });
  mkdirSync(ISLAND_CSS_DIR, { recursive: true });
  for (const [path, css] of generateAllAntdCss()) {
    writeFileSync(path, css);
    console.log(`wrote ${path} (${(css.length / 1024).toFixed(1)} KB)`);
  }
}
