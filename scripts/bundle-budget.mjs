// The JavaScript size budget, a step of `npm test` after the build: a
// size, not a timing, so it is stable on shared machines. From the build's chunk graph (vite
// `build.manifest`, moved to apps/web/build/manifest.json by the web's postbuild) it adds up, per
// customer route, the gzip -9 size of every chunk loaded before that route's first paint:
//   home        the entry (index.html's module) and its static imports;
//   public      the public and product pages outside the Ant Design scope (about, USDE, earn, the
//               card pages, trust, exchange, loan, download): the entry and the page's module. Their
//               Ant Design islands (components/antd-island.tsx) load after the first paint and are
//               listed apart, not counted;
//   scoped      the other pages (routes under the `AntdScope` route, written `shell(…)`): app-shell
//               pages (components/page-shell.tsx). The entry paints their frame and title; the page's
//               module with Ant Design's configuration (components/antd-config.tsx) is their island,
//               loaded after the first paint, listed apart;
//   account     the pages under the account layout (app/layout/account-layout.tsx: side menu): the
//               entry and the layout, each with its static imports; the page is its island as above;
//   /admin      the entry, the Ant Design scope (app/layout/antd-scope.tsx, components/antd-config.tsx)
//               and the back office's module (features/admin/admin-routes.ts: the operator shell,
//               login and dashboard), and for each other admin page that module and the page's own
//               lazily loaded module.
// Which page is in which group is read from apps/web/src/app/routes.tsx: a page imported before the
// `AntdScope` route is public, one after the `AccountArea` route is in the account group.
// It fails when a route passes its group's budget, printing the route's chunks largest first
// (`--verbose` prints every route's, and its island's). `npm run bench:bundle` measures what
// Chromium really fetches. The target: 200 KB for every customer route, 150 KB for home;
// the public pages keep a tighter ceiling (155 KB, a few KB over the heaviest), so that a regression
// there fails. docs/performance.md has the figures.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const HOME_BUDGET_KB = 150;
/** Public and product pages (200 KB each; a few KB over the heaviest, to catch a regression). */
export const PUBLIC_BUDGET_KB = 155;
/** App-shell pages outside the account layout (200 KB each). */
export const SCOPED_BUDGET_KB = 200;
/** App-shell pages under the account layout (side menu; 200 KB each, docs/performance.md). */
export const ACCOUNT_BUDGET_KB = 200;
// The back office is an operators' desktop tool, loaded once per working day and cached. It was one
// module for every admin page (Table, Form, DatePicker, QR code, decimal.js): ~552 KB when it was
// added, 598.6 KB of 600 KB with 16 pages (2026-11-26). Since then admin-routes.ts holds the shell
// and the dashboard and imports every other page lazily (its own chunk), so each page is counted on
// its own against this budget and a new screen no longer grows the others.
export const ADMIN_BUDGET_KB = 600;

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web');
const routesSource = readFileSync(join(webDir, 'src', 'app', 'routes.tsx'), 'utf8');
const scopeStart = routesSource.indexOf("id: 'AntdScope'");
const accountStart = routesSource.indexOf("id: 'AccountArea'");
if (scopeStart < 0 || accountStart < 0) throw new Error('routes.tsx has no AntdScope or AccountArea route');

/** The group of a page module (`src/features/x/pages/y.tsx`) from where routes.tsx imports it. */
function groupOf(key) {
  const at = routesSource.indexOf(`import('${key.replace(/^src\/(app\/)?/, (_, app) => (app ? './' : '../'))}')`);
  if (at < 0) return 'scoped';
  if (at < scopeStart) return 'public';
  return at > accountStart ? 'account' : 'scoped';
}
const manifestPath = join(webDir, 'build', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`no ${manifestPath}: run \`npm run build\` first`);
  process.exit(1);
}
/** @type {Record<string, { file: string, src?: string, imports?: string[], dynamicImports?: string[], isEntry?: boolean, isDynamicEntry?: boolean }>} */
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

/** The files of `all` that are not in `loaded`. */
function difference(all, loaded) {
  return new Set([...all].filter((file) => !loaded.has(file)));
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const antdScopeKey = 'src/app/layout/antd-scope.tsx';
const antdConfigKey = 'src/components/antd-config.tsx';
const accountLayoutKey = 'src/app/layout/account-layout.tsx';
const pageKeys = Object.keys(manifest).filter(
  (key) =>
    /^src\/(features\/[^/]+|app)\/pages\/[^/]+\.tsx$/.test(key) &&
    !key.includes('dev-mailbox') &&
    !key.startsWith('src/features/admin/'),
);

const budgetOf = { public: PUBLIC_BUDGET_KB, scoped: SCOPED_BUDGET_KB, account: ACCOUNT_BUDGET_KB };
const routes = [{ name: 'home (/)', files: closure(entryKey), budgetKb: HOME_BUDGET_KB, group: 'home' }];
for (const key of pageKeys) {
  const group = groupOf(key);
  const files = closure(entryKey);
  if (group === 'account') closure(accountLayoutKey, files);
  if (group === 'public') closure(key, files);
  // What loads after the first paint: a public page's islands (its lazily imported modules), an
  // app-shell page's module; each with Ant Design's configuration. Listed, not counted.
  const islandRoots = group === 'public' ? (manifest[key].dynamicImports ?? []) : [key];
  const islandFiles = islandRoots.length
    ? difference(
        islandRoots.reduce((all, imported) => closure(imported, all), closure(antdConfigKey)),
        files,
      )
    : undefined;
  routes.push({
    name: `${key.replace(/^src\//, '')} [${group}]`,
    files,
    budgetKb: budgetOf[group],
    group,
    islandFiles,
  });
}

// The back office: its lazy module (shell, login, dashboard) counted like a page, with
// the Ant Design scope but without the customer account layout; each other admin page adds its own
// lazily loaded module to that.
const adminKey = 'src/features/admin/admin-routes.ts';
if (manifest[adminKey]) {
  const adminFiles = () => {
    const files = closure(entryKey);
    closure(antdScopeKey, files);
    closure(antdConfigKey, files);
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
  const isVerbose = isOver || process.argv.includes('--verbose');
  if (isVerbose)
    for (const file of [...route.files].sort((a, b) => gzipKb(b) - gzipKb(a)))
      console.log(`    ${file}  ${gzipKb(file).toFixed(1)} KB`);
  if (route.islandFiles) {
    const islandKb = [...route.islandFiles].reduce((sum, file) => sum + gzipKb(file), 0);
    const what = route.group === 'public' ? 'its Ant Design islands' : 'the page with Ant Design (its island)';
    console.log(`    then ${what}, after the first paint: ${islandKb.toFixed(1)} KB more`);
    if (isVerbose)
      for (const file of [...route.islandFiles].sort((a, b) => gzipKb(b) - gzipKb(a)))
        console.log(`      ${file}  ${gzipKb(file).toFixed(1)} KB`);
  }
  if (isOver) overCount += 1;
}
console.log(`${routes.length - overCount} passed, ${overCount} failed`);
process.exit(overCount > 0 ? 1 : 0);
