// After `vite build` and the SSR build of src/prerender: puts the prerendered public pages, in each
// language, into dist/index.html (home) and dist/prerendered/<path>.html (the others, with the styles
// of their route inlined; the server answers each for its path), inlines the boot script and the
// entry's styles into each (see src/prerender/prerender-entry.tsx and public/boot.js), then writes
// .br and .gz copies of every text asset for a static server that serves precompressed files (e.g.
// @fastify/static with `preCompressed: true`).
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
/** The page module of each prerendered path other than home, as the build's manifest names it. */
const PAGE_MODULES = {
  '/loan': 'src/features/loans/pages/loan-page.tsx',
  '/product/earn': 'src/features/funds/pages/earn-page.tsx',
  '/exchange': 'src/features/exchange/pages/exchange-page.tsx',
  '/product/fiscard': 'src/features/cards/pages/fiscard-page.tsx',
};

const { renderPage, PRERENDERED_PATHS } = await import(pathToFileURL(join(ssrDir, 'prerender-entry.js')).href);
const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));

const template = readFileSync(indexPath, 'utf8');
if (!template.includes(ROOT_MARKUP)) throw new Error('dist/index.html has no empty #root to prerender into');
for (const path of PRERENDERED_PATHS) {
  const variants = [];
  for (const locale of LOCALES) {
    // Test ids belong to the live app only: end-to-end tests must never find a static copy. They
    // keep their value under another name, which the app turns back into `data-testid` on the copy
    // it hydrates (`adoptPrerenderedCopy`, src/lib/prerendered-page.ts).
    const markup = (await renderPage(locale, path)).replace(/ data-testid="/g, ' data-prerender-testid="');
    variants.push(`<div class="prerender" data-locale="${locale}" lang="${locale}">${markup}</div>`);
  }
  const page = template.replace(
    ROOT_MARKUP,
    `<div id="root"><div class="boot-header" aria-hidden="true"></div>${variants.join('')}</div>`,
  );
  const routeStyles = path === '/' ? [] : routeStylesOf(path);
  const html = inlineFirstPaintFiles(page, path, routeStyles);
  const target = path === '/' ? indexPath : join(distDir, 'prerendered', `${path.slice(1)}.html`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, html);
}
rmSync(ssrDir, { recursive: true, force: true });

/**
 * The stylesheets the page module of `path` loads with it (its own and those of its static imports,
 * imports first, as Vite inserts them), without the entry's: the prerendered page needs them for its
 * first paint, and they would otherwise arrive only with the route's code.
 */
function routeStylesOf(path) {
  const source = PAGE_MODULES[path];
  if (!source || !manifest[source]) throw new Error(`No page module in the build's manifest for ${path}`);
  const stylesFrom = (keys, seen = new Set()) => {
    const styles = [];
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      for (const imported of chunk.imports ?? []) visit(imported);
      for (const css of chunk.css ?? []) if (!styles.includes(css)) styles.push(css);
    };
    keys.forEach(visit);
    return styles;
  };
  const entryStyles = new Set(stylesFrom(Object.keys(manifest).filter((key) => manifest[key].isEntry)));
  return stylesFrom([source]).filter((css) => !entryStyles.has(css));
}

/**
 * The first paint of every page waited for two small files after the HTML: the boot script (1.4 KB,
 * a classic script in the head) and the entry's stylesheet (~19 KB, 5 KB compressed). Each cost a
 * round trip that Lighthouse counted as render-blocking (docs/performance.md). Both go into
 * the page: the script as written (the server allows it by its SHA-256 in the CSP, read from this
 * file at start-up: apps/server/src/platform/http/csp.ts), the styles as a <style> element in the
 * link's place, so the cascade order is unchanged. A page other than home also gets its route's
 * styles (`routeStyles`, paths under dist) after the entry's, and every page names its own path in
 * `<meta name="meridian-prerendered">`, read by the boot script, which goes right before it.
 */
function inlineFirstPaintFiles(page, path, routeStyles) {
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
  const routeStyleText = routeStyles.map((file) => readFileSync(join(distDir, file), 'utf8')).join('\n');
  if (routeStyleText.includes('</style'))
    throw new Error(`the styles of ${path} cannot be inlined: they contain </style`);
  return page
    .replace(
      BOOT_TAG,
      () => `<meta name="meridian-prerendered" content="${path}" />\n    <script>${bootScript}</script>`,
    )
    .replace(styleTag, () => `<style>${styles}</style>${routeStyleText ? `<style>${routeStyleText}</style>` : ''}`);
}
// The chunk graph (vite `build.manifest`) is read by the size budget (scripts/bundle-budget.mjs), not
// served: it moves out of dist to build/manifest.json.
mkdirSync(join(webDir, 'build'), { recursive: true });
renameSync(join(distDir, '.vite', 'manifest.json'), join(webDir, 'build', 'manifest.json'));
rmSync(join(distDir, '.vite'), { recursive: true, force: true });
console.log(`prerendered ${PRERENDERED_PATHS.join(', ')} (${LOCALES.join(', ')})`);

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
