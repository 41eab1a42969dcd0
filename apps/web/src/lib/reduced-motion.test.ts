// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePrefersReducedMotion } from './reduced-motion.ts';

/** A `matchMedia` whose "reduce motion" answer the test sets, telling its listeners of a change. */
function fakeMatchMedia(initial: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: initial,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', (text: string) => {
    expect(text).toBe('(prefers-reduced-motion: reduce)');
    return query;
  });
  return {
    set(matches: boolean) {
      query.matches = matches;
      for (const listener of listeners) listener();
    },
    listenerCount: () => listeners.size,
  };
}

describe('usePrefersReducedMotion', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('follows the system setting and its changes, and stops listening on unmount', () => {
    const system = fakeMatchMedia(false);
    const { result, unmount } = renderHook(() => usePrefersReducedMotion());
    expect(result.current).toBe(false);
    act(() => system.set(true));
    expect(result.current).toBe(true);
    unmount();
    expect(system.listenerCount()).toBe(0);
  });

  it('is false where the browser has no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    const { result } = renderHook(() => usePrefersReducedMotion());
    expect(result.current).toBe(false);
  });
});
