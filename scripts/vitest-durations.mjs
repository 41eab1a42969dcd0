// Print the slowest unit and API test files, from Vitest's JSON report (written by scripts/test.mjs
// to `.vitest-report/results.json`): each file's test time (its first test's start to its last
// test's end; the file's import and app setup are not in it) in each project that ran it (an API
// file runs once on PGlite and once on PostgreSQL), slowest first, so that every run shows where the
// stage's time goes and a file that grew is seen the day it does (docs/testing.md).
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORT = new URL('../.vitest-report/results.json', import.meta.url);
const SHOWN = Number(process.argv[2] ?? 15);

if (!existsSync(REPORT)) {
  console.log('no unit and API JSON report to summarise');
  process.exit(0);
}
const report = JSON.parse(readFileSync(REPORT, 'utf8'));
/** file → wall times of its runs, in ms (one per project that ran it). */
const runsByFile = new Map();
for (const result of report.testResults ?? []) {
  const file = relative(ROOT, result.name);
  const ms = Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0));
  runsByFile.set(file, [...(runsByFile.get(file) ?? []), ms]);
}
const rows = [...runsByFile]
  .map(([file, runs]) => ({ file, runs, ms: runs.reduce((sum, ms) => sum + ms, 0) }))
  .sort((a, b) => b.ms - a.ms);
const totalMs = rows.reduce((sum, row) => sum + row.ms, 0);
console.log(
  `unit and API: ${rows.length} files, ${(totalMs / 1000).toFixed(1)} s of test time summed over the workers (imports and setup not counted); the ${Math.min(SHOWN, rows.length)} slowest (each run's time, one per database for an API file):`,
);
for (const row of rows.slice(0, SHOWN)) {
  const runs = row.runs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(' + ');
  console.log(`  ${row.file.padEnd(72)} ${(row.ms / 1000).toFixed(1).padStart(7)} s  (${runs})`);
}
