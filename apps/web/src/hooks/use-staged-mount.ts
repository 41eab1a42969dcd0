import { startTransition, useEffect, useState } from 'react';
import { nextTask } from '../lib/idle.ts';

/**
 * How many of a large component's `stageCount` parts to render now: 1 on mount, then one more in
 * each later task of the event loop (a transition each), until all `stageCount` are. A component
 * renders its parts in order as `stage` allows, so that mounting it is several short tasks rather
 * than one long one: React renders a transition in slices, but commits it — DOM insertion, layout
 * effects and the re-renders they set off — in one task, and Lighthouse's total blocking time
 * counts each task's time past 50 ms at its simulated 4× slower CPU (docs/performance.md,
 * "Lighthouse: the loan calculator mounted in stages"). The stages are a few milliseconds apart;
 * hold the space of the parts not yet shown where the page below is on screen.
 *
 * `stageCount` is an integer ≥ 1 and fixed for the component's life. Returns an integer in
 * 1…`stageCount`, never decreasing.
 */
export function useStagedMount(stageCount: number): number {
  const [stage, setStage] = useState(1);
  useEffect(() => {
    if (stage >= stageCount) return;
    let isMounted = true;
    void nextTask().then(() => {
      if (isMounted) startTransition(() => setStage((current) => Math.min(current + 1, stageCount)));
    });
    return () => {
      isMounted = false;
    };
  }, [stage, stageCount]);
  return stage;
}
