import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendApiNotFound } from './error-handler.ts';

/** Where the web build writes the prerendered public pages other than home: `<path>.html`. */
const PRERENDERED_DIR = 'prerendered';

/**
 * The prerendered public pages of the web build in `root`: page path (`/loan`) → its file under
 * `root` (`prerendered/loan.html`), listed once at start-up (docs/performance.md).
 */
function prerenderedPages(root: string): Map<string, string> {
  const pages = new Map<string, string>();
  const dir = join(root, PRERENDERED_DIR);
  if (!existsSync(dir)) return pages;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
    pages.set(`/${file.slice(PRERENDERED_DIR.length + 1, -'.html'.length)}`, file);
  }
  return pages;
}

/**
 * Serve the built web app: hashed assets with long caching, a prerendered page's own HTML for its
 * path (`prerendered/<path>.html`: home's is `index.html`), and `index.html` for every other page
 * path (SPA fallback). Unknown /api paths and missing files answer 404.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string | undefined): Promise<void> {
  const root = webDistDir ? resolve(webDistDir) : undefined;
  const hasWeb = root !== undefined && existsSync(join(root, 'index.html'));
  const pages = hasWeb ? prerenderedPages(root) : new Map<string, string>();
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz beside each text asset; serve them to clients that accept them.
      preCompressed: true,
      setHeaders: (reply, path) => {
        const isHashed = path.includes(`${join(root, 'assets')}`);
        reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    // Any GET of a page path answers the app, whatever its Accept header (`curl /some/page` sends
    // */*); a missing file (a path whose last segment has an extension, e.g. an old hashed asset)
    // stays a 404 so a stale script is never answered with HTML.
    const pathname = request.url.split(/[?#]/, 1)[0] ?? '';
    const isFilePath = /\.[A-Za-z0-9]{1,8}$/.test(pathname);
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (!isFilePath || (request.headers.accept ?? '').includes('text/html'));
    if (!isApi && hasWeb && isPageRequest) {
      return reply.header('cache-control', 'no-cache').sendFile(pages.get(pathname) ?? 'index.html');
    }
    return sendApiNotFound(request, reply);
  });
}
