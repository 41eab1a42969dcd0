import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No colour is written outside the colour tokens: a stylesheet or a component reads
 * `var(--colour-…)` or `COLOURS.…` from `styles/colour-tokens.ts`, where every meaningful colour is
 * checked for contrast (`colour-tokens.test.ts`). A hex, `rgb()`/`rgba()` or `hsl()`/`hsla()`
 * literal anywhere else fails this test; docs/accessibility.md "Colour tokens" says how to add one.
 */

const SRC_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Files that are the tokens, or are generated from them or from Ant Design's theme. */
const TOKEN_FILES = new Set([
  'styles/colour-tokens.ts',
  'styles/colour-tokens.css',
  'styles/antd.css',
  // styles/antd/<island>.css: see `isTokenFile`.
]);
const isTokenFile = (path: string) => TOKEN_FILES.has(path) || /^styles\/antd\/[\w-]+\.css$/.test(path);

/**
 * Artwork whose colours are its own, each literal listed so that a new colour in these files still
 * fails. None of them carries text or a control: they are hidden from assistive technology or
 * named as one image, and the information beside them is written in text.
 */
const EXCEPTIONS: readonly { file: string; literals: readonly string[]; why: string }[] = [
  {
    file: 'components/logo.tsx',
    literals: ['#ffffff', '#0b1630', '#2dd4bf', '#0e7490', '#fff'],
    why: "the brand's logo: its mark's gradient and white strokes, and the word mark in white or navy",
  },
  {
    file: 'features/market/components/coin-icon.tsx',
    literals: ['#f7931a', '#627eea', '#26a17b', '#2775ca', '#0f766e', '#fff'],
    why: "each coin's trademark colour with its white glyph (aria-hidden; the coin's code is written beside it)",
  },
  {
    file: 'features/home/components/hero-art.tsx',
    literals: [
      '#2dd4bf',
      '#14b8a6',
      '#0e7490',
      '#1e3a8a',
      '#fcd34d',
      '#f59e0b',
      '#5eead4',
      '#0d9488',
      '#fff',
      '#fde68a',
      '#7c2d12',
      '#042f2e',
    ],
    why: "the home hero's illustration (aria-hidden, no figures or words)",
  },
];

/** A colour literal: #rgb, #rgba, #rrggbb, #rrggbbaa, or rgb()/rgba()/hsl()/hsla(). */
const COLOUR_LITERAL = /(?<![\w&])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})(?![\w-])|\b(?:rgba?|hsla?)\(/gi;

/** Stylesheets and components under `src`, tests left out (they may name colours to check them). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(css|ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The text without comments (block comments, and `//` comments that start a line), lines kept. */
function withoutComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/^\s*\/\/.*$/gm, blank);
}

/** Each colour literal of a file, with its line number. */
function colourLiteralsIn(text: string): { literal: string; line: number }[] {
  const code = withoutComments(text);
  return [...code.matchAll(COLOUR_LITERAL)].map((match) => ({
    literal: match[0].toLowerCase(),
    line: code.slice(0, match.index).split('\n').length,
  }));
}

describe('colour literals outside the colour tokens', () => {
  it('finds hex, rgb() and hsl() literals; not entities, anchors that are no hex number, or comments', () => {
    const sample = [
      '.a { color: #16A34A; border-color: #fff; }',
      '/* #abcdef in a comment */ .b { background: rgb(0 0 0 / 6%); fill: hsla(200, 50%, 50%, 0.5); }',
      "<a href='#add'>&#8203;</a> <Link to='#borrow' /> const id = '#faq';",
      '// #123456 in a line comment',
      'const x = 1; // a trailing comment may name #0f766e: it is code-adjacent, so it counts',
    ].join('\n');
    expect(colourLiteralsIn(sample)).toEqual([
      { literal: '#16a34a', line: 1 },
      { literal: '#fff', line: 1 },
      { literal: 'rgb(', line: 2 },
      { literal: 'hsla(', line: 2 },
      // An anchor that spells a hex number is taken for a colour: name it otherwise.
      { literal: '#add', line: 3 },
      { literal: '#0f766e', line: 5 },
    ]);
  });

  it('appear in no stylesheet or component but the token files and the listed artwork', () => {
    const exceptions = new Map(EXCEPTIONS.map((exception) => [exception.file, new Set(exception.literals)]));
    const found: string[] = [];
    for (const path of sourceFiles(SRC_DIR)) {
      const file = relative(SRC_DIR, path).split('\\').join('/');
      if (isTokenFile(file)) continue;
      const allowed = exceptions.get(file) ?? new Set<string>();
      for (const { literal, line } of colourLiteralsIn(readFileSync(path, 'utf8')))
        if (!allowed.has(literal)) found.push(`${file}:${line} ${literal}`);
    }
    expect(found, 'use a colour token (styles/colour-tokens.ts; docs/accessibility.md "Colour tokens")').toEqual([]);
  });

  it('lists exceptions that are still needed', () => {
    for (const { file, literals } of EXCEPTIONS) {
      const present = new Set(colourLiteralsIn(readFileSync(join(SRC_DIR, file), 'utf8')).map((hit) => hit.literal));
      expect(
        literals.filter((literal) => !present.has(literal)),
        `${file} no longer uses these`,
      ).toEqual([]);
    }
  });
});
