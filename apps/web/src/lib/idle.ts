/** The longest wait for an idle moment before `afterPaintIdle` resolves anyway. */
export const IDLE_TIMEOUT_MS = 1500;

/**
 * Resolves once the browser has painted the current frame and then found an idle moment on the main
 * thread (`requestIdleCallback`, at most `timeoutMs` later; a 0 ms timer where the browser has none).
 * Used to start work that is not needed for the first paint — the Ant Design islands of the public
 * pages — after that paint, so their downloads and their evaluation do not delay it
 * (Lighthouse's largest contentful paint; docs/performance.md). Never rejects.
 */
export function afterPaintIdle(timeoutMs: number = IDLE_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window === 'undefined' || typeof window.requestAnimationFrame !== 'function') {
      resolve();
      return;
    }
    // The callback of requestAnimationFrame runs before the frame's paint; the timer after it runs
    // once that frame is out.
    window.requestAnimationFrame(() => {
      setTimeout(() => {
        if (typeof window.requestIdleCallback === 'function') {
          window.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
        } else {
          setTimeout(resolve, 0);
        }
      }, 0);
    });
  });
}

/**
 * Resolves in a later task of the event loop (a 0 ms timer), so that work after it does not extend
 * the current task: a long piece of start-up work cut at its awaits of `nextTask()` runs as several
 * short tasks, between which the browser can handle input. Never rejects.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
