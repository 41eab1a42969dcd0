import { afterEach, describe, expect, it, vi } from 'vitest';
import { breakpointOf, createViewportStore, isMobileWidth } from './viewport.ts';

/** Breakpoints and the debounced mobile flag (500 ms; mobile below 768 px). */

function fakeWindow(width: number) {
  const target = new EventTarget();
  return Object.assign(target, { innerWidth: width }) as unknown as Window & { innerWidth: number };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('breakpoints', () => {
  it('puts each width in its band', () => {
    expect([0, 575, 576, 767, 768, 991, 992, 1199, 1200, 1599, 1600].map(breakpointOf)).toEqual([
      'xs',
      'xs',
      'sm',
      'sm',
      'md',
      'md',
      'lg',
      'lg',
      'xl',
      'xl',
      'xxl',
    ]);
  });

  it('is mobile below 768 px', () => {
    expect(isMobileWidth(767)).toBe(true);
    expect(isMobileWidth(768)).toBe(false);
  });
});

describe('createViewportStore', () => {
  it('recomputes the mobile flag 500 ms after the last resize', () => {
    vi.useFakeTimers();
    const win = fakeWindow(1280);
    const store = createViewportStore(win);
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.getSnapshot()).toBe(false);

    win.innerWidth = 390;
    win.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(300);
    win.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(499);
    expect(store.getSnapshot()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);

    // A resize that does not cross 768 px notifies no one.
    win.innerWidth = 500;
    win.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(500);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
