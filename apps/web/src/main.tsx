import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter, createAppRouter, routerInitialized, type AppRouterInstance } from './app/router.tsx';
import { wireAppServices } from './app/services.ts';
import { initI18n, namespacesForPath } from './lib/i18n.ts';
import { bootLocale } from './lib/locale.ts';
import { adoptPrerenderedCopy, prerenderIdPrefix } from './lib/prerendered-page.ts';
import { getUserId } from './lib/session.ts';
import { startPwa } from './lib/pwa.ts';
import './styles/colour-tokens.css';
import './styles/global.css';

/**
 * Start-up: read `?locale=` / `?_lt=` (then drop them from the address bar), load the active
 * language's texts for the shell and the first page, then render. The service worker (offline
 * shell, pushes) registers after the page has loaded.
 */
const locale = bootLocale();
wireAppServices();
startPwa({ registerWorker: import.meta.env.PROD });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * The first render is a transition, so React renders in slices of a few milliseconds and the main
 * thread stays free for input between them (Lighthouse's total blocking time); what is on
 * screen meanwhile is the prerendered page or the boot header. A guest on a prerendered page gets
 * that page hydrated — the prerender is what the first render produces, so React only attaches to
 * the DOM instead of building and committing the whole page again (docs/performance.md,
 * "Lighthouse: hydrating the prerendered pages"). A signed-in visitor's header differs from the
 * guest copy, so that page is rendered afresh as before.
 */
function render(router: AppRouterInstance, isPrerendered: boolean): void {
  const app = (
    <AppProvider>
      <AppRouter router={router} />
    </AppProvider>
  );
  const root = container as HTMLElement;
  if (isPrerendered && getUserId() === null && adoptPrerenderedCopy(root, locale)) {
    startTransition(() => {
      hydrateRoot(root, app, {
        identifierPrefix: prerenderIdPrefix(locale),
        // A mismatch is not fatal (React renders the page afresh), but it costs the whole render.
        onRecoverableError: (error) => console.error('Hydration of the prerendered page failed', error),
      });
    });
    return;
  }
  startTransition(() => createRoot(root).render(app));
}

/**
 * The router is created now (after `bootLocale` cleaned the address), so the first route's code
 * loads in parallel with the texts. Over a prerendered page (`public/boot.js` marks `<html>`), the
 * first render also waits for the route's code: rendering before it would replace the page with the
 * boot fallback for a moment.
 */
const router = createAppRouter();
const isPrerendered = document.documentElement.getAttribute('data-boot-path') === 'prerendered';
const texts = initI18n(locale, namespacesForPath(window.location.pathname)).then(
  () => undefined,
  (error: unknown) => {
    // Texts failed to load (offline, a stale deployment): render anyway; keys show instead of text.
    console.error('Could not load translations', error);
  },
);
void Promise.all([texts, isPrerendered ? routerInitialized(router) : undefined]).then(() =>
  render(router, isPrerendered),
);
