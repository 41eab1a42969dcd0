import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider.tsx';
import { AppRouter, createAppRouter, routerInitialized, type AppRouterInstance } from './app/router.tsx';
import { wireAppServices } from './app/services.ts';
import { initI18n, namespacesForPath } from './lib/i18n.ts';
import { bootLocale } from './lib/locale.ts';
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
 * screen meanwhile is the prerendered page or the boot header.
 */
function render(router: AppRouterInstance): void {
  const root = createRoot(container as HTMLElement);
  startTransition(() => {
    root.render(
      <AppProvider>
        <AppRouter router={router} />
      </AppProvider>,
    );
  });
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
void Promise.all([texts, isPrerendered ? routerInitialized(router) : undefined]).then(() => render(router));
