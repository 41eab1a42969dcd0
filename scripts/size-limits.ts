// Size limits of the sources (docs/decisions/0032-size-limits.md): no source file over
// MAX_FILE_LINES lines, no function over MAX_FUNCTION_LINES of its own lines. Read by
// scripts/size-limits.test.ts (the check `npm test` runs); `node scripts/size-limits.ts` prints every
// file and function over the limits, exceptions included, longest first.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Longest source file allowed, in lines (every line counts: code, comments, blank lines). */
export const MAX_FILE_LINES = 600;
/** Longest function allowed, in its own lines (lines of nested functions count for those). */
export const MAX_FUNCTION_LINES = 100;

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, '..');

/** One function's own length: `name` as written in the file (`Class.method`, `outer > inner`), 1-based `line`. */
export interface FunctionLength {
  name: string;
  line: number;
  ownLines: number;
}

/** One file or function over its limit; `function` is `*` for the file's own length. */
export interface SizeViolation {
  file: string;
  function: string;
  lines: number;
  limit: number;
}

/** An allowed violation, read from scripts/size-limits.exceptions.json; `function` `*` covers the whole file. */
export interface SizeException {
  file: string;
  function: string;
  reason: string;
}

/** Tests, test kits and type declarations are not measured; applied migrations live outside `src`. */
const isMeasured = (path: string) => /\.tsx?$/.test(path) && !/\.test\.tsx?$|\.test-kit\.tsx?$|\.d\.ts$/.test(path);

/** Source files under `apps/x/src` and `packages/x/src`, as paths relative to `root` with `/`. */
export function measuredSources(root: string = ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
      return isMeasured(entry.name) ? [relative(root, path).split(sep).join('/')] : [];
    });
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const src = join(root, group, entry.name, 'src');
        try {
          return walk(src);
        } catch {
          return [];
        }
      }),
  );
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** A readable name for a function: its own, its variable's or property's, or what it is passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  const text = (name: ts.Node | undefined) => (name ? name.getText(file) : undefined);
  const own = node.name ? text(node.name) : undefined;
  const parent = node.parent;
  const className =
    (ts.isClassDeclaration(parent) || ts.isClassExpression(parent)) && parent.name ? `${parent.name.text}.` : '';
  if (ts.isConstructorDeclaration(node)) return `${className}constructor`;
  if (own) return `${className}${own}`;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return text(parent.name)!;
  }
  if (ts.isCallExpression(parent)) return `${text(parent.expression)}(…) callback`;
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)) return `${text(parent.parent.name)} callback`;
  return 'anonymous';
}

/**
 * Every function of `text` with its own length: the lines from its first to its last, less the
 * lines a nested function has after its first line (the nested function's first line also holds
 * the enclosing code that defines it, so it stays the enclosing function's). A one-line callback
 * therefore counts for the function that writes it; a factory returning an object of methods is
 * measured method by method.
 */
export function functionLengths(text: string, fileName = 'file.tsx'): FunctionLength[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1;
  const found: FunctionLength[] = [];
  /** Walks `node`, adding nested functions to `found`; returns the lines the nested functions take from the enclosing one. */
  const visit = (node: ts.Node, path: string): number => {
    let taken = 0;
    ts.forEachChild(node, (child) => {
      if (isFunction(child) && child.body) {
        const first = lineOf(child.getStart(file));
        const last = lineOf(child.getEnd());
        const name = path ? `${path} > ${nameOf(child, file)}` : nameOf(child, file);
        const entry: FunctionLength = { name, line: first, ownLines: 0 };
        found.push(entry);
        entry.ownLines = last - first + 1 - visit(child, name);
        taken += last - first;
      } else {
        taken += visit(child, path);
      }
    });
    return taken;
  };
  visit(file, '');
  return found;
}

/** The number of lines of `text` (a final newline does not start a line). */
export function lineCount(text: string): number {
  return text.length === 0 ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/** Every file over MAX_FILE_LINES and every function over MAX_FUNCTION_LINES, exceptions not applied. */
export function sizeViolations(root: string = ROOT): SizeViolation[] {
  return measuredSources(root).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = lineCount(text);
    const fileViolation: SizeViolation[] =
      lines > MAX_FILE_LINES ? [{ file, function: '*', lines, limit: MAX_FILE_LINES }] : [];
    const functions = functionLengths(text, file)
      .filter((fn) => fn.ownLines > MAX_FUNCTION_LINES)
      .map((fn) => ({ file, function: fn.name, lines: fn.ownLines, limit: MAX_FUNCTION_LINES }));
    return [...fileViolation, ...functions];
  });
}

/** The allowed violations (scripts/size-limits.exceptions.json). */
export function readExceptions(root: string = ROOT): SizeException[] {
  const parsed = JSON.parse(readFileSync(join(root, 'scripts/size-limits.exceptions.json'), 'utf8')) as {
    exceptions: SizeException[];
  };
  return parsed.exceptions;
}

/** Whether `exception` allows `violation`: the same file, and the same function or `*`. */
export const isExcepted = (violation: SizeViolation, exception: SizeException) =>
  exception.file === violation.file && (exception.function === '*' || exception.function === violation.function);

/** `file: function (N lines, limit L)`, the form a failure names a violation in. */
export const describeViolation = (violation: SizeViolation) =>
  `${violation.file}: ${violation.function === '*' ? 'the file' : violation.function} (${violation.lines} lines, limit ${violation.limit})`;

if (import.meta.main) {
  const exceptions = readExceptions();
  for (const violation of sizeViolations().sort((a, b) => b.lines - a.lines)) {
    const excepted = exceptions.find((exception) => isExcepted(violation, exception));
    console.log(`${describeViolation(violation)}${excepted ? ` — excepted: ${excepted.reason}` : ''}`);
  }
}
