import { useSyncExternalStore } from 'react';

/**
 * Whether the Ant Design overlay host (global modals, drawers, toasts) has been asked for. It is
 * kept off the first paint of the home page and mounted on first need: a modal or drawer opening,
 * a message to show, or a pointer resting on a control that will need it.
 */
let isRequested = false;
const listeners = new Set<() => void>();

export function requestOverlayHost(): void {
  if (isRequested) return;
  isRequested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOverlayHostRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isRequested,
    () => false,
  );
}
