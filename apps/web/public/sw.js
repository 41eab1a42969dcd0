/*
 * Meridian's service worker: Web Push for the message centre (spec §1, §4). Plain JavaScript,
 * served as-is from the site root (the CSP allows worker-src 'self'); it caches nothing.
 *
 * A push carries the JSON { id, title, body, link }. An open, focused tab already shows the message
 * as a toast (it hears the server's event stream), so a system notification is shown only when no
 * tab of the site is focused. A click focuses a tab of the site, or opens one, on the message's link.
 */
/* global self */
'use strict';

const FALLBACK_PATH = '/messages';
const ICON_PATH = '/favicon.svg';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
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
