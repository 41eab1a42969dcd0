import { useSyncExternalStore } from 'react';

/** Breakpoints: the smallest width of each band, in CSS pixels. */
export const BREAKPOINT_MIN_PX = {
  xs: 0,
  sm: 576,
  md: 768,
  lg: 992,
  xl: 1200,
  xxl: 1600,
} as const;
export type Breakpoint = keyof typeof BREAKPOINT_MIN_PX;

/** Below this width the app is in mobile mode. */
export const MOBILE_WIDTH_MAX_EXCLUSIVE_PX = BREAKPOINT_MIN_PX.md;
/** Resize events are debounced by this long before the mobile flag is recomputed. */
export const RESIZE_DEBOUNCE_MS = 500;
/** Drawer width on larger screens; 100% in mobile mode. */
export const DRAWER_WIDTH_PX = 378;

export function isMobileWidth(widthPx: number): boolean {
  return widthPx < MOBILE_WIDTH_MAX_EXCLUSIVE_PX;
}

export function breakpointOf(widthPx: number): Breakpoint {
  let current: Breakpoint = 'xs';
  for (const [name, minPx] of Object.entries(BREAKPOINT_MIN_PX) as [Breakpoint, number][]) {
    if (widthPx >= minPx) current = name;
  }
  return current;
}

/**
 * A store of the mobile flag that listens to `resize` once for the whole app and recomputes after
 * the debounce, so components re-render once per settled resize rather than per frame.
 */
export function createViewportStore(win: Window, debounceMs: number = RESIZE_DEBOUNCE_MS) {
  let isMobile = isMobileWidth(win.innerWidth);
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const onResize = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const next = isMobileWidth(win.innerWidth);
      if (next === isMobile) return;
      isMobile = next;
      for (const listener of listeners) listener();
    }, debounceMs);
  };

  return {
    getSnapshot: () => isMobile,
    subscribe(listener: () => void): () => void {
      if (listeners.size === 0) win.addEventListener('resize', onResize);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          win.removeEventListener('resize', onResize);
          clearTimeout(timer);
        }
      };
    },
  };
}

let sharedStore: ReturnType<typeof createViewportStore> | undefined;

function viewportStore(): ReturnType<typeof createViewportStore> {
  sharedStore ??= createViewportStore(window);
  return sharedStore;
}

/** True below 768 px, updated 500 ms after the last resize. */
export function useIsMobile(): boolean {
  const store = viewportStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => false);
}
