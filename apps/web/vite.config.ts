import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The web app builds to `dist/`, which the server serves in production with an SPA fallback and a
 * strict CSP (no inline scripts). In development `/api` is proxied to the server on port 3000.
 *
 * `npm run build` also renders the home page at build time (src/prerender, scripts/postbuild.mjs)
 * into dist/index.html, so its first paint needs no JavaScript.
 *
 * Splitting: the home route is eager and carries no Ant Design; every other route, the global
 * modals, drawers and the carousel load on demand (see `src/app/routes.tsx`). Only the framework
 * that every page needs is grouped into one long-lived vendor chunk.
 */
const apiProxy = { '/api': { target: 'http://localhost:3000', changeOrigin: true } };

/**
 * The chunks of Ant Design's configuration and of the public pages' islands (`antdIsland(...)` in
 * the product pages): their dynamic imports keep only their stylesheets in Vite's preload list, so
 * starting an island does not insert dozens of `<link rel=modulepreload>` in one task (issue 20,
 * docs/performance.md "Lighthouse"). A new island that should load the same way is added here.
 */
const ISLAND_CHUNKS = /(^|\/)(antd-config|loan-borrow|earn-products|exchange-panel|trust-product)-[\w-]+\.js$/;

/**
 * React Router's production build for `vite build`. Its package exports only `dist/development` (a
 * temporary choice upstream: remix-run/react-router#12532, #14753), whose dev warnings and checks
 * run in every user's browser: at start-up, route matching alone showed ~40 ms of main-thread time
 * in a profile of /loan (docs/performance.md). `vite dev` keeps the development build.
 */
const reactRouterDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: join(reactRouterDir, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(reactRouterDir, 'dist/production/dom-export.mjs') },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react()],
  resolve: { alias: command === 'build' ? REACT_ROUTER_PRODUCTION : [] },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The SSR build only renders the home page for the prerender; it needs no public files.
    copyPublicDir: !isSsrBuild,
    target: 'es2022',
    // Inlined assets would be data: URLs inside JS; keep icons and images as files.
    assetsInlineLimit: 0,
    // Chunk graph for the size budget (scripts/bundle-budget.mjs); postbuild moves it out of dist.
    manifest: !isSsrBuild,
    modulePreload: {
      resolveDependencies: (filename, deps) =>
        ISLAND_CHUNKS.test(filename) ? deps.filter((dep) => dep.endsWith('.css')) : deps,
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
}));
