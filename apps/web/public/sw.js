/*
 * Meridian's service worker (plain JavaScript, served as-is from the site root; the CSP allows
 * worker-src 'self'). Two jobs:
 *
 * 1. The offline shell of the installed Progressive Web App (docs/marketing.md). Installing caches
 *    the shell — the page ('/', the same index.html every route gets, its boot script and first
 *    styles inline), the manifest, the icons and the scripts and styles that page names — and each
 *    successful load of a page refreshes it. Pages are network-first: offline, the cached shell
 *    answers and the app starts. Hashed assets are answered from the cache only while offline
 *    (online they go to the network and the browser's HTTP cache, untouched). The API is
 *    network-first for the few public, non-personal GET calls the shell shows
 *    (PUBLIC_API_PREFIXES); every other API call — anything of a user's — is never intercepted nor
 *    stored.
 * 2. Web Push for the message centre (§4), below.
 *
 * A push carries the JSON { id, title, body, link }. An open, focused tab already shows the message
 * as a toast (it hears the server's event stream), so a system notification is shown only when no
 * tab of the site is focused. A click focuses a tab of the site, or opens one, on the message's link.
 */
/* global self, caches */
'use strict';

const FALLBACK_PATH = '/messages';
const ICON_PATH = '/icons/icon-192.png';

/** Bump to drop every older cache on activation. */
const SHELL_CACHE = 'meridian-shell-v1';
const SHELL_PAGE = '/';
const SHELL_FILES = [
  SHELL_PAGE,
  '/favicon.svg',
  '/manifest.webmanifest',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/apple-touch-icon.png',
];
/** Public GET calls of the shell, network-first with the last answer kept for offline. */
const PUBLIC_API_PREFIXES = ['/api/site', '/api/market/'];

/** The /assets/… scripts and styles an HTML page names (its entry chunks, preloads and CSS). */
function assetsOf(html) {
  const found = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) found.add(match[1]);
  return [...found];
}

/** Store the shell page's answer and the assets it names (skipping those already cached). */
async function keepShell(response) {
  const cache = await caches.open(SHELL_CACHE);
  const html = await response.clone().text();
  await cache.put(SHELL_PAGE, response);
  for (const path of assetsOf(html)) {
    if (!(await cache.match(path))) await cache.add(path).catch(() => undefined);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL_FILES.filter((path) => path !== SHELL_PAGE));
      const page = await fetch(SHELL_PAGE, { cache: 'no-cache' });
      if (page.ok) await keepShell(page);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== SHELL_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === 'navigate') {
    // Network-first; every page path answers index.html (a prerendered public page, its own copy of
    // it with the page inside: docs/performance.md), so the shell stands in for all.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && url.pathname === SHELL_PAGE) event.waitUntil(keepShell(response.clone()));
          return response;
        })
        .catch(async () => (await caches.match(SHELL_PAGE)) || Response.error()),
    );
    return;
  }
  if (PUBLIC_API_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy)));
          }
          return response;
        })
        .catch(async () => (await caches.match(request)) || Response.error()),
    );
    return;
  }
  // Offline only: the cached shell files and hashed assets.
  if (self.navigator.onLine === false) {
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request)));
  }
});

/** The push payload, or null when it is not the expected JSON. */
function readPayload(data) {
  if (!data) return null;
  try {
    const payload = data.json();
    if (!payload || typeof payload.title !== 'string') return null;
    return {
      id: typeof payload.id === 'string' ? payload.id : undefined,
      title: payload.title,
      body: typeof payload.body === 'string' ? payload.body : '',
      link: typeof payload.link === 'string' ? payload.link : null,
    };
  } catch {
    return null;
  }
}

/** A path inside this site; anything else (another origin, `//host`) becomes the messages page. */
function safePath(link) {
  return typeof link === 'string' && link.startsWith('/') && !link.startsWith('//') ? link : FALLBACK_PATH;
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  if (!payload) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (windows.some((client) => client.focused)) return;
      await self.registration.showNotification(payload.title, {
        body: payload.body,
        tag: payload.id,
        icon: ICON_PATH,
        data: { path: safePath(payload.link) },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = safePath(event.notification.data && event.notification.data.path);
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const existing = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (existing) {
        const client = await existing.focus().catch(() => null);
        if (client) {
          if (client.url === target) return;
          try {
            // navigate() works on tabs this worker controls; for another, a new tab opens below.
            await client.navigate(target);
            return;
          } catch {
            // Not controlled by this worker.
          }
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});
