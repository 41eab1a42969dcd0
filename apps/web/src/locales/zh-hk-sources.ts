import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every zh-HK text in the repository's sources, as `[where, text]` pairs for `checkZhHkTexts`:
 * the web locale files (apps/web/src/locales/zh-HK/*.json, each leaf string) and the `'zh-HK'`
 * string literals of the shared contracts (codes.ts, validation.ts, …) and of the server (mails,
 * notices, messages). Node only; read by the unit test.
 */

/** The leaf strings of a locale file as `file:key.path`. */
function* jsonLeaves(value: unknown, where: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [where, value];
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) yield* jsonLeaves(child, `${where}.${key}`);
}

/** The web app's zh-HK locale strings. */
export function* localeTexts(localesDir: string): Generator<[string, string]> {
  const dir = join(localesDir, 'zh-HK');
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort())
    yield* jsonLeaves(JSON.parse(readFileSync(join(dir, file), 'utf8')), `zh-HK/${file}:`);
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') yield* sourceFiles(path);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) yield path;
  }
}

/**
 * A `'zh-HK': <literal>` entry: the key (quoted either way) then a single-quoted, double-quoted or
 * template literal, possibly on the next line. Template literals keep their `${…}` parts, which the
 * check ignores as placeholders are ignored.
 */
const ZH_HK_LITERAL = /['"]zh-HK['"]:\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`)/g;

/** The `'zh-HK'` string literals of the TypeScript sources under each of `roots`, as `path:line`. */
export function* sourceTexts(repoRoot: string, roots: string[]): Generator<[string, string]> {
  for (const root of roots) {
    for (const path of sourceFiles(join(repoRoot, root))) {
      const source = readFileSync(path, 'utf8');
      for (const match of source.matchAll(ZH_HK_LITERAL)) {
        const text = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\$\{[^}]*\}|\\[nrt]/g, ' ');
        const line = source.slice(0, match.index).split('\n').length;
        yield [`${path.slice(repoRoot.length + 1)}:${line}`, text];
      }
    }
  }
}

/** A run of Han characters: a line holding one carries Chinese text. */
const HAN = /\p{Script=Han}/u;

/**
 * Every line with Chinese text in the TypeScript sources under each of `roots` (tests excepted), as
 * `path:line`: catches zh-HK texts that are not written as a `'zh-HK':` entry (a `nameZhHk` field, a
 * template). Comments with Chinese examples are caught too, which is what a glossary check wants.
 */
export function* hanSourceLines(repoRoot: string, roots: string[]): Generator<[string, string]> {
  for (const root of roots) {
    for (const path of sourceFiles(join(repoRoot, root))) {
      const lines = readFileSync(path, 'utf8').split('\n');
      for (const [index, line] of lines.entries())
        if (HAN.test(line)) yield [`${path.slice(repoRoot.length + 1)}:${index + 1}`, line];
    }
  }
}
