#!/usr/bin/env node
/**
 * The date matrix: runs the unit and API tests once per server clock setting (TEST_CLOCK_AT), so a
 * rule that only breaks on some dates — a month's end, a public holiday, a Sunday the 1st, 29
 * February, a minute before midnight in Hong Kong — breaks here rather than on that day (docs/clock.md).
 *
 *   node scripts/date-matrix.mjs                       every date, projects unit and api-pglite
 *   node scripts/date-matrix.mjs --only leap-day       one date (by label)
 *   node scripts/date-matrix.mjs -- --project api-pglite apps/server/src/modules/funds
 *                                                      extra arguments go to `vitest run` as they are
 *
 * Prints a table of label → passed/failed and the time it took; exits 1 when any date failed.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** The clock settings, each an ISO 8601 instant in Hong Kong time, and why it is in the matrix. */
const DATES = [
  { label: 'month-end', at: '2027-01-31T12:00:00+08:00', why: 'the last day of a 31-day month (a Sunday)' },
  { label: 'hk-holiday', at: '2027-10-01T10:00:00+08:00', why: 'National Day, a Hong Kong public holiday (a Friday)' },
  { label: 'sunday-first', at: '2027-08-01T10:00:00+08:00', why: 'the 1st of a month on a Sunday' },
  { label: 'leap-day', at: '2028-02-29T12:00:00+08:00', why: '29 February' },
  { label: 'hk-23-59', at: '2026-12-15T23:59:00+08:00', why: 'one minute before midnight in Hong Kong (15:59 UTC)' },
];

const DEFAULT_VITEST_ARGS = ['--project', 'unit', '--project', 'api-pglite'];

function parseArgs(argv) {
  const only = [];
  const passThrough = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--only') {
      const label = argv[index + 1];
      if (!label) throw new Error('--only needs a label');
      only.push(label);
      index += 1;
    } else if (arg === '--help' || arg === '-h') {
      return { isHelp: true, only, passThrough };
    } else if (arg !== '--') {
      passThrough.push(arg);
    }
  }
  return { isHelp: false, only, passThrough };
}

function main() {
  const { isHelp, only, passThrough } = parseArgs(process.argv.slice(2));
  if (isHelp) {
    console.log('usage: node scripts/date-matrix.mjs [--only <label>]... [vitest args]');
    for (const date of DATES) console.log(`  ${date.label.padEnd(13)} ${date.at}  ${date.why}`);
    return 0;
  }
  const unknown = only.filter((label) => !DATES.some((date) => date.label === label));
  if (unknown.length > 0) {
    console.error(`unknown label ${unknown.join(', ')}; labels: ${DATES.map((date) => date.label).join(', ')}`);
    return 2;
  }
  const dates = only.length > 0 ? DATES.filter((date) => only.includes(date.label)) : DATES;
  // Project choice is the caller's when given; otherwise the unit and PGlite API projects.
  const hasProject = passThrough.some((arg) => arg === '--project' || arg.startsWith('--project='));
  const vitestArgs = ['vitest', 'run', ...(hasProject ? [] : DEFAULT_VITEST_ARGS), ...passThrough];
  const results = [];
  for (const date of dates) {
    console.log(`\n=== ${date.label}: TEST_CLOCK_AT=${date.at} (${date.why})\n    npx ${vitestArgs.join(' ')}\n`);
    const startedMs = performance.now();
    const run = spawnSync('npx', vitestArgs, {
      stdio: 'inherit',
      env: { ...process.env, TEST_CLOCK_AT: date.at },
    });
    const seconds = (performance.now() - startedMs) / 1000;
    results.push({ ...date, isPassed: run.status === 0, seconds });
  }
  console.log('\ndate matrix');
  console.log(`${'label'.padEnd(13)} ${'TEST_CLOCK_AT'.padEnd(25)} ${'result'.padEnd(7)} time`);
  for (const result of results) {
    const time = `${Math.floor(result.seconds / 60)}m${String(Math.floor(result.seconds % 60)).padStart(2, '0')}s`;
    console.log(
      `${result.label.padEnd(13)} ${result.at.padEnd(25)} ${(result.isPassed ? 'passed' : 'FAILED').padEnd(7)} ${time}`,
    );
  }
  return results.every((result) => result.isPassed) ? 0 : 1;
}

process.exitCode = main();
