// npm run bench:bundle — the gzipped JavaScript the home route loads before first paint, and the
// whole build's total. Target: home route ≤ 200 KB gzipped.
//
// Two figures for the home route:
// - static: the scripts of index.html (the inline boot script, the module entry) and its modulepreloads;
// - measured: every JS file Chromium fetched before first contentful paint on "/" (1280 px),
//   which also counts the lazily loaded home route chunk. The larger of the two is the figure.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, ROOT, ensureBuilt, serve } from './lib/serve.mjs';

const BUDGET_KB = 200;
const dist = join(ROOT, 'apps/web/dist');
const gzipKb = (path) => gzipSync(readFileSync(path), { level: 9 }).length / 1024;
const fmt = (kb) => `${kb.toFixed(1)} KB`;

ensureBuilt();
const html = readFileSync(join(dist, 'index.html'), 'utf8');
// Every script of index.html: the inline boot script (the build inlines it), the module entry and
// its modulepreloads.
const staticFiles = [...html.matchAll(/(?:src|href)="(\/[^"]+\.js)"/g)].map((m) => m[1]);
const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const inlineKb = inlineScripts.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length / 1024, 0);
const staticKb = staticFiles.reduce((sum, file) => sum + gzipKb(join(dist, file)), inlineKb);

const allJs = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const totalKb = allJs.reduce((sum, file) => sum + gzipKb(join(dist, 'assets', file)), 0);

const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
let measured;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.baseUrl + '/', { waitUntil: 'networkidle' });
  measured = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.js') && entry.startTime <= fcp)
      .map((entry) => new URL(entry.name).pathname);
  });
} finally {
  await browser.close();
  await server.stop();
}
const measuredKb = measured.reduce((sum, file) => sum + gzipKb(join(dist, file)), inlineKb);
const homeKb = Math.max(staticKb, measuredKb);

console.log('Home route JavaScript (gzip -9):');
console.log(
  `  inline + entry + modulepreloads: ${fmt(staticKb)} in ${inlineScripts.length} inline script(s) and ${staticFiles.length} files`,
);
console.log(`  inline + fetched before first paint in Chromium: ${fmt(measuredKb)} in ${measured.length} files`);
for (const file of measured) console.log(`    ${file}  ${fmt(gzipKb(join(dist, file)))}`);
console.log(
  `home route: ${fmt(homeKb)} (budget ${BUDGET_KB} KB) ${homeKb <= BUDGET_KB ? 'within budget' : 'OVER BUDGET'}`,
);
console.log(`whole build: ${fmt(totalKb)} gzipped JavaScript in ${allJs.length} files`);
