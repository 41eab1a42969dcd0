import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository carries what its tests and its runtime read. A fresh clone
 * (`npm ci && npm test`) has no `../shared` beside it, so no tracked file (source, scripts,
 * configs; Markdown is prose and left out) may name the shared folder or a relative path that
 * climbs above the repository root. Copy what is needed into the repository instead
 * (`apps/server/test/vectors/`, `apps/server/data/prices/`).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const TEXT_FILE =
  /\.(c?[jt]sx?|mjs|mts|json|ya?ml|toml|sh|env|example|html|css|sql|txt|csv)$|(^|\/)(\.[\w.-]+|Dockerfile|Makefile)$/;
const THIS_FILE = relative(ROOT, import.meta.filename)
  .split(sep)
  .join('/');

/** Every place in `text` (of the file at `path`, from the root) that reads outside the repository. */
export function outsideReferences(path: string, text: string): string[] {
  const found: string[] = [];
  const depth = dirname(path) === '.' ? 0 : dirname(path).split('/').length;
  for (const [index, line] of text.split('\n').entries()) {
    const where = `${path}:${index + 1}`;
    if (/(^|[^\w-])shared\/data\b|\.\.[/\\]shared\b|['"]\.\.['"]\s*,\s*['"]shared['"]/.test(line))
      found.push(`${where} names the shared folder: ${line.trim()}`);
    if (/\/work\/shared\b/.test(line))
      found.push(`${where} names an absolute path outside the repository: ${line.trim()}`);
    // A run of `../` (or of '..' path arguments) longer than the file's depth climbs above the root.
    for (const match of line.matchAll(/(?:\.\.\/){1,}|(?:['"]\.\.['"]\s*,\s*){2,}/g)) {
      const climbs = (match[0].match(/\.\./g) ?? []).length;
      if (climbs > depth) found.push(`${where} climbs ${climbs} levels from depth ${depth}: ${line.trim()}`);
    }
  }
  return found;
}

describe('the repository reads nothing outside itself', () => {
  it('finds the patterns it is meant to find', () => {
    expect(
      outsideReferences(
        'apps/server/src/a/b/c.test.ts',
        "join(import.meta.dirname, '../../../../../../shared/data/x.json')",
      ),
    ).toHaveLength(2);
    expect(outsideReferences('apps/server/src/x.ts', "join(dir, '..', 'shared', 'data', 'prices')")).toHaveLength(1);
    expect(outsideReferences('apps/server/tsconfig.json', '"extends": "../../tsconfig.base.json"')).toEqual([]);
    expect(outsideReferences('scripts/x.sh', 'cat ../../etc/passwd')).toHaveLength(1);
  });

  it('no tracked file (source, scripts, configs) reads from outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(
        (path) =>
          path !== '' &&
          !path.endsWith('.md') &&
          path !== THIS_FILE &&
          path !== 'package-lock.json' &&
          TEXT_FILE.test(path),
      );
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((path) => {
      let text: string;
      try {
        text = readFileSync(join(ROOT, path), 'utf8');
      } catch {
        return []; // deleted in the working tree
      }
      return outsideReferences(path, text);
    });
    expect(problems).toEqual([]);
  });
});
