// npm run bench:lighthouse — Lighthouse on the home page in mobile emulation (its default), in
// Debian Chromium, against the production build. Prints the performance score, LCP, CLS and TBT.
// Targets (issue 2): score ≥ 90, CLS ≤ 0.05.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH, serve } from './lib/serve.mjs';

const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const server = await serve();
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS });
const results = [];
try {
  for (let run = 0; run < runs; run += 1) {
    const result = await lighthouse(`${server.baseUrl}/`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const audits = result.lhr.audits;
    results.push({
      score: Math.round((result.lhr.categories.performance.score ?? 0) * 100),
      lcpMs: audits['largest-contentful-paint'].numericValue,
      cls: audits['cumulative-layout-shift'].numericValue,
      tbtMs: audits['total-blocking-time'].numericValue,
      fcpMs: audits['first-contentful-paint'].numericValue,
    });
  }
} finally {
  await chrome.kill();
  await server.stop();
}
const median = (key) => [...results.map((r) => r[key])].sort((a, b) => a - b)[Math.floor(results.length / 2)];
for (const [i, r] of results.entries()) {
  console.log(
    `run ${i + 1}: score ${r.score}  FCP ${r.fcpMs.toFixed(0)} ms  LCP ${r.lcpMs.toFixed(0)} ms  CLS ${r.cls.toFixed(3)}  TBT ${r.tbtMs.toFixed(0)} ms`,
  );
}
const score = median('score');
const cls = median('cls');
console.log(
  `median of ${runs}: performance score ${score} (target ≥ 90)  LCP ${median('lcpMs').toFixed(0)} ms  CLS ${cls.toFixed(3)} (target ≤ 0.05)  TBT ${median('tbtMs').toFixed(0)} ms`,
);
