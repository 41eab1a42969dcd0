import { useSyncExternalStore } from 'react';
import { requestOverlayHost } from './overlay-host-store.ts';

/** Open state of the mobile navigation drawer; it closes on every navigation. */
let isNavDrawerOpen = false;
const listeners = new Set<() => void>();

export function setNavDrawerOpen(next: boolean): void {
  if (next === isNavDrawerOpen) return;
  isNavDrawerOpen = next;
  if (next) requestOverlayHost();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNavDrawerOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isNavDrawerOpen,
    () => false,
  );
}
