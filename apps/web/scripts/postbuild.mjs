// After `vite build` and the SSR build of src/prerender: puts the prerendered home page, in each
// language, into dist/index.html (see src/prerender/prerender-entry.tsx and public/boot.js), inlines
// the boot script and the entry's styles into it, then writes .br and .gz copies of every text asset
// for a static server that serves precompressed files (e.g. @fastify/static with `preCompressed: true`).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const ssrDir = join(webDir, '.prerender');
const distDir = join(webDir, 'dist');
const indexPath = join(distDir, 'index.html');
const ROOT_MARKUP = '<div id="root"><div class="boot-header" aria-hidden="true"></div></div>';
const LOCALES = ['en-US', 'zh-HK'];

const { renderHome } = await import(pathToFileURL(join(ssrDir, 'prerender-entry.js')).href);

const variants = [];
for (const locale of LOCALES) {
  // Test ids belong to the live app only: end-to-end tests must never find the static copy.
  const markup = (await renderHome(locale)).replace(/ data-testid="[^"]*"/g, '');
  variants.push(`<div class="prerender" data-locale="${locale}" lang="${locale}">${markup}</div>`);
}

const html = readFileSync(indexPath, 'utf8');
if (!html.includes(ROOT_MARKUP)) throw new Error('dist/index.html has no empty #root to prerender into');
writeFileSync(
  indexPath,
  inlineFirstPaintFiles(
    html.replace(
      ROOT_MARKUP,
      `<div id="root"><div class="boot-header" aria-hidden="true"></div>${variants.join('')}</div>`,
    ),
  ),
);
rmSync(ssrDir, { recursive: true, force: true });

/**
 * The first paint of every page waited for two small files after the HTML: the boot script (1.4 KB,
 * a classic script in the head) and the entry's stylesheet (~19 KB, 5 KB compressed). Each cost a
 * round trip that Lighthouse counted as render-blocking (docs/performance.md). Both go into
 * the page: the script as written (the server allows it by its SHA-256 in the CSP, read from this
 * file at start-up: apps/server/src/platform/http/csp.ts), the styles as a <style> element in the
 * link's place, so the cascade order is unchanged.
 */
function inlineFirstPaintFiles(page) {
  const BOOT_TAG = '<script src="/boot.js"></script>';
  if (!page.includes(BOOT_TAG)) throw new Error('dist/index.html has no boot script tag to inline');
  const bootScript = readFileSync(join(distDir, 'boot.js'), 'utf8');
  if (bootScript.includes('</script')) throw new Error('boot.js cannot be inlined: it contains </script');
  const styleLinks = [...page.matchAll(/<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g)];
  if (styleLinks.length !== 1)
    throw new Error(`dist/index.html names ${styleLinks.length} stylesheets; expected the entry's one`);
  const [styleTag, stylePath] = styleLinks[0];
  const styles = readFileSync(join(distDir, stylePath), 'utf8');
  if (styles.includes('</style')) throw new Error(`${stylePath} cannot be inlined: it contains </style`);
  return page
    .replace(BOOT_TAG, () => `<script>${bootScript}</script>`)
    .replace(styleTag, () => `<style>${styles}</style>`);
}
// The chunk graph (vite `build.manifest`) is read by the size budget (scripts/bundle-budget.mjs), not
// served: it moves out of dist to build/manifest.json.
mkdirSync(join(webDir, 'build'), { recursive: true });
renameSync(join(distDir, '.vite', 'manifest.json'), join(webDir, 'build', 'manifest.json'));
rmSync(join(distDir, '.vite'), { recursive: true, force: true });
console.log(`prerendered the home page into dist/index.html (${LOCALES.join(', ')})`);

/** Text assets worth compressing; images other than SVG are already compressed. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;
/** Below this size compression saves less than the extra request header costs. */
const COMPRESS_MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let compressedCount = 0;
for (const path of files(distDir)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const content = readFileSync(path);
  if (content.length < COMPRESS_MIN_BYTES) continue;
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
  compressedCount += 1;
}
console.log(`wrote .br and .gz copies of ${compressedCount} files`);
