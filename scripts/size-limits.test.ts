import { describe, expect, it } from 'vitest';
import {
  describeViolation,
  functionLengths,
  isExcepted,
  lineCount,
  readExceptions,
  sizeViolations,
} from './size-limits.ts';

/**
 * Size limits of the sources (docs/decisions/0032-size-limits.md): no file of `apps/x/src` or
 * `packages/x/src` over 600 lines, no function over 100 of its own lines, tests and test kits
 * excepted. The allowed exceptions are listed, each with its reason, in
 * `scripts/size-limits.exceptions.json`; an exception that no longer matches fails too, so the list
 * only shrinks.
 */
describe('size limits', () => {
  it("counts a function's own lines: a nested function's lines after its first are its own", () => {
    const text = [
      'export function factory() {', // 1: factory
      '  const helper = 1;', // 2: factory
      '  return {', // 3: factory
      '    method() {', // 4: factory (the line that writes the method)
      '      return helper;', // 5: method
      '    },', // 6: method
      '    other: () => [1].map((x) => x + 1),', // 7: factory (a one-line function stays with its writer)
      '  };', // 8: factory
      '}', // 9: factory
    ].join('\n');
    expect(functionLengths(text)).toEqual([
      { name: 'factory', line: 1, ownLines: 7 },
      { name: 'factory > method', line: 4, ownLines: 3 },
      { name: 'factory > other', line: 7, ownLines: 1 },
      { name: 'factory > other > [1].map(…) callback', line: 7, ownLines: 1 },
    ]);
  });

  it('names methods by class, components by variable, callbacks by what they are passed to', () => {
    const text = [
      'class Service {',
      '  constructor() {}',
      '  run() {',
      '    items.forEach((item) => {',
      '      use(item);',
      '    });',
      '  }',
      '}',
      'const Page = () => <Button onClick={() => {',
      '  go();',
      '}} />;',
    ].join('\n');
    expect(functionLengths(text).map((fn) => `${fn.name}: ${fn.ownLines}`)).toEqual([
      'Service.constructor: 1',
      'Service.run: 3',
      'Service.run > items.forEach(…) callback: 3',
      'Page: 1',
      'Page > onClick callback: 3',
    ]);
  });

  it('counts the lines of a file without its final newline', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('no source file over 600 lines and no function over 100 of its own, but the listed exceptions', () => {
    const exceptions = readExceptions();
    const violations = sizeViolations();
    const unexcepted = violations.filter((violation) => !exceptions.some((item) => isExcepted(violation, item)));
    expect(unexcepted.map(describeViolation), 'split these, or list them with a reason').toEqual([]);
    const stale = exceptions.filter((item) => !violations.some((violation) => isExcepted(violation, item)));
    expect(stale, 'these exceptions no longer match: remove them from the list').toEqual([]);
    expect(exceptions.filter((item) => item.reason.trim() === '')).toEqual([]);
    // Parsing every source takes about 3 s of CPU; on a loaded shared machine the wall time is many times that.
  }, 120_000);
});
