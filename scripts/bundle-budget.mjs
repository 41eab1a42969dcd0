// The JavaScript size budget (issue 13 item 6), a step of `npm test` after the build: a size, not a
// timing, so it is stable on shared machines. From the build's chunk graph (vite `build.manifest`,
// moved to apps/web/build/manifest.json by the web's postbuild) it adds up, per customer route, the
// gzip -9 size of every chunk loaded before that route's first paint:
//   home        the entry (index.html's module) and its static imports;
//   /admin      the entry, the Ant Design scope and the back office's module
//               (features/admin/admin-routes.ts: the operator shell, login and dashboard), and for
//               each other admin page that module and the page's own lazily loaded module;
//   any other   the entry, the Ant Design scope (app/layout/antd-scope.tsx, app/antd/antd-config.tsx),
//               the account layout (app/layout/account-layout.tsx, counted for every page: an upper
//               bound), and the page's own module, each with its static imports.
// It fails when home passes HOME_BUDGET_KB, the back office ADMIN_BUDGET_KB or another route
// ROUTE_BUDGET_KB, printing the route's chunks largest first. `npm run bench:bundle` measures what Chromium really fetches.
// ROUTE_BUDGET_KB is a ceiling over today's heaviest page (the wallet history, ~501 KB: React 19,
// Ant Design's table, form and select, and full zod), not the 200 KB target of issue 13, which no
// page with Ant Design meets yet; docs/decisions/0002-web-first-paint.md has the figures.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const HOME_BUDGET_KB = 150;
export const ROUTE_BUDGET_KB = 505;
// The back office is an operators' desktop tool, loaded once per working day and cached. It was one
// module for every admin page (Table, Form, DatePicker, QR code, decimal.js): ~552 KB when it was
// added, 598.6 KB of 600 KB with 16 pages (2026-11-26). Since then admin-routes.ts holds the shell
// and the dashboard and imports every other page lazily (its own chunk), so each page is counted on
// its own against this budget and a new screen no longer grows the others.
export const ADMIN_BUDGET_KB = 600;

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web');
const manifestPath = join(webDir, 'build', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`no ${manifestPath}: run \`npm run build\` first`);
  process.exit(1);
}
/** @type {Record<string, { file: string, src?: string, imports?: string[], isEntry?: boolean, isDynamicEntry?: boolean }>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const gzipKbOf = new Map();
function gzipKb(file) {
  if (!gzipKbOf.has(file))
    gzipKbOf.set(file, gzipSync(readFileSync(join(webDir, 'dist', file)), { level: 9 }).length / 1024);
  return gzipKbOf.get(file);
}

/** The output files of `key` and of everything it imports statically (not its dynamic imports). */
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build's manifest has no chunk ${key}`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, files);
  return files;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const sharedKeys = [
  'src/app/layout/antd-scope.tsx',
  'src/app/antd/antd-config.tsx',
  'src/app/layout/account-layout.tsx',
];
const pageKeys = Object.keys(manifest).filter(
  (key) =>
    /^src\/(features\/[^/]+|app)\/pages\/[^/]+\.tsx$/.test(key) &&
    !key.includes('dev-mailbox') &&
    !key.startsWith('src/features/admin/'),
);

const routes = [{ name: 'home (/)', files: closure(entryKey), budgetKb: HOME_BUDGET_KB }];
for (const key of pageKeys) {
  const files = closure(entryKey);
  for (const shared of sharedKeys) closure(shared, files);
  closure(key, files);
  routes.push({ name: key.replace(/^src\//, ''), files, budgetKb: ROUTE_BUDGET_KB });
}

// The back office (issue 16): its lazy module (shell, login, dashboard) counted like a page, with
// the Ant Design scope but without the customer account layout; each other admin page adds its own
// lazily loaded module to that.
const adminKey = 'src/features/admin/admin-routes.ts';
if (manifest[adminKey]) {
  const adminFiles = () => {
    const files = closure(entryKey);
    for (const shared of sharedKeys.slice(0, 2)) closure(shared, files);
    return closure(adminKey, files);
  };
  routes.push({ name: 'back office (/admin)', files: adminFiles(), budgetKb: ADMIN_BUDGET_KB });
  for (const key of Object.keys(manifest).filter((k) => /^src\/features\/admin\/pages\/[^/]+\.tsx$/.test(k))) {
    if (!manifest[key].isDynamicEntry) continue;
    routes.push({ name: key.replace(/^src\//, ''), files: closure(key, adminFiles()), budgetKb: ADMIN_BUDGET_KB });
  }
}

let overCount = 0;
for (const route of routes) {
  const totalKb = [...route.files].reduce((sum, file) => sum + gzipKb(file), 0);
  const isOver = totalKb > route.budgetKb;
  console.log(`${isOver ? '✖' : '✔'} ${route.name}: ${totalKb.toFixed(1)} KB of ${route.budgetKb} KB`);
  if (!isOver && !process.argv.includes('--verbose')) continue;
  if (isOver) overCount += 1;
  for (const file of [...route.files].sort((a, b) => gzipKb(b) - gzipKb(a)))
    console.log(`    ${file}  ${gzipKb(file).toFixed(1)} KB`);
}
console.log(`${routes.length - overCount} passed, ${overCount} failed`);
process.exit(overCount > 0 ? 1 : 0);
