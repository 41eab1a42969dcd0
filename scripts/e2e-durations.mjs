// Print how long each end-to-end spec file took, from Playwright's JSON report
// (e2e/playwright-report/results.json, written by e2e/playwright.config.ts): the summed duration of
// its tests per project, slowest first, and the run's wall time. Used by scripts/test.mjs after the
// e2e stage so that every run shows where the suite's time goes (docs/testing.md).
import { existsSync, readFileSync } from 'node:fs';

const REPORT = new URL('../e2e/playwright-report/results.json', import.meta.url);
if (!existsSync(REPORT)) {
  console.log('no e2e JSON report to summarise');
  process.exit(0);
}
const report = JSON.parse(readFileSync(REPORT, 'utf8'));
/** file → project → { tests, ms } */
const byFile = new Map();
function walk(suite) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
      const file = spec.file;
      const projects = byFile.get(file) ?? new Map();
      const entry = projects.get(test.projectName) ?? { tests: 0, ms: 0 };
      entry.tests += 1;
      entry.ms += ms;
      projects.set(test.projectName, entry);
      byFile.set(file, projects);
    }
  }
  for (const child of suite.suites ?? []) walk(child);
}
for (const suite of report.suites) walk(suite);
const rows = [...byFile].map(([file, projects]) => ({
  file,
  projects,
  ms: [...projects.values()].reduce((sum, entry) => sum + entry.ms, 0),
}));
rows.sort((a, b) => b.ms - a.ms);
console.log(
  `e2e wall time ${(report.stats.duration / 1000).toFixed(1)} s; summed test time per spec file (two workers run in parallel):`,
);
for (const row of rows) {
  const parts = [...row.projects].map(
    ([project, entry]) => `${project} ${entry.tests} tests ${(entry.ms / 1000).toFixed(1)} s`,
  );
  console.log(`  ${row.file.padEnd(26)} ${(row.ms / 1000).toFixed(1).padStart(7)} s  (${parts.join(', ')})`);
}
