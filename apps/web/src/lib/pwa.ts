import { useSyncExternalStore } from 'react';

/**
 * Meridian as an installed Progressive Web App (docs/marketing.md): the service worker
 * (`public/sw.js`, which also shows pushes) is registered on every visit of a production build, and
 * Chromium's install prompt is kept so that the download page can offer an "Install" button.
 */

/** The service worker of the site (`public/sw.js`, scope `/`). */
export const SERVICE_WORKER_PATH = '/sw.js';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferredPrompt: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * Start-up (main.tsx): keep the install prompt when the browser offers one, and register the
 * service worker once the page has loaded (production builds only: the dev server has no shell to cache).
 */
export function startPwa(options: { registerWorker: boolean }): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferredPrompt = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    deferredPrompt = null;
    notify();
  });
  if (!options.registerWorker || !('serviceWorker' in navigator)) return;
  const register = () =>
    void navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: '/' }).catch((error: unknown) => {
      console.log('Service worker not registered', error);
    });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/** Whether the browser holds an install prompt now (Chromium on Android and desktop). */
export function useCanPromptInstall(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => deferredPrompt !== null,
    () => false,
  );
}

/** Show the browser's install prompt; @returns whether the user accepted (false when none is held). */
export async function promptInstall(): Promise<boolean> {
  const event = deferredPrompt;
  if (!event) return false;
  deferredPrompt = null;
  notify();
  await event.prompt();
  return (await event.userChoice).outcome === 'accepted';
}

/** The install steps to show first: iPhone/iPad (Safari's Share menu), Android (Chrome's menu), or another device. */
export type InstallPlatform = 'ios' | 'android' | 'other';

/** The platform of a user agent (iPadOS reports a Mac with touch: pass `maxTouchPoints`). */
export function installPlatformOf(userAgent: string, maxTouchPoints = 0): InstallPlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/i.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'other';
}

/** Whether the app runs installed (from the home screen), where install steps make no sense. */
export function isInstalled(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}
