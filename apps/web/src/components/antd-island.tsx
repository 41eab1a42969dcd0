import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { afterPaintIdle, nextTask } from '../lib/idle.ts';
import type * as AntdConfigModule from './antd-config.tsx';
import type { AntdConfig, AntdStylesUrl } from './antd-config.tsx';
import './antd-island.css';

/** What `loadIsland` resolves to: the island's component and Ant Design's configuration around it. */
export interface LoadedIsland<C> {
  Component: C;
  AntdConfig: typeof AntdConfig;
}

/**
 * A module an island imports that is worth evaluating in a task of its own before the island's
 * module, e.g. `() => import('@meridian/contracts/loans')`: the contracts build their zod schemas
 * when they load, which made the island's module graph one long task.
 */
export type IslandWarmUp = () => Promise<unknown>;

/**
 * The loader of an island: the first call fetches `load`'s module, Ant Design's configuration, its
 * styles (`styles`: the island's own file, `styles/antd/<island>.css`; by default the full file) and
 * the active language's Ant Design texts; later calls return the same promise (a failed load is tried
 * again on the next call). Call it early — in a route's `lazy`, on hover — to start the downloads
 * before the island renders.
 *
 * Without `warmUp` everything is fetched in parallel, and the browser evaluates the island's module
 * graph in one task. With `warmUp` (modules in dependency order, leaves first) the loader evaluates
 * Ant Design's configuration, then each warm-up module, then the island's module, each in a task of
 * its own (a yield to the event loop between them), so that no single task blocks the main thread
 * for long (Lighthouse's total blocking time counts each task's time past 50 ms:
 * docs/performance.md "Lighthouse: the islands' start in short tasks"). The styles and texts are
 * still fetched at the start, in parallel; the island's modules arrive a round trip per step later.
 */
export function islandLoader<C>(
  load: () => Promise<C>,
  styles?: AntdStylesUrl,
  warmUp: readonly IslandWarmUp[] = [],
): () => Promise<LoadedIsland<C>> {
  let loading: Promise<LoadedIsland<C>> | undefined;
  const loadParallel = () =>
    Promise.all([
      import('./antd-config.tsx').then(async (module) => {
        await module.prepareAntd(styles);
        return module;
      }),
      load(),
    ]);
  const loadInSteps = async (): Promise<[typeof AntdConfigModule, C]> => {
    const config = await import('./antd-config.tsx');
    const prepared = config.prepareAntd(styles);
    // Not left unhandled while the steps run; awaited (and so thrown) below.
    prepared.catch(() => undefined);
    for (const step of warmUp) {
      await nextTask();
      await step();
    }
    await nextTask();
    const Component = await load();
    await prepared;
    return [config, Component];
  };
  return () => {
    loading ??= (warmUp.length === 0 ? loadParallel() : loadInSteps()).then(
      ([config, Component]) => ({ Component, AntdConfig: config.AntdConfig }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}

/**
 * A lazily loaded part of a light page that renders Ant Design. The
 * public and product pages (home, earn, loan, trust, exchange, the card pages) paint their shell and
 * marketing content with plain React and CSS; the forms, tables and lists they carry load after
 * that as islands, each inside Ant Design's configuration (`components/antd-config.tsx`: theme,
 * language, size). The signed-in pages are islands as a whole (`components/page-shell.tsx`).
 *
 * `load` resolves to the island's component. Its module, Ant Design's configuration, the island's
 * styles and the active language's Ant Design texts are fetched in parallel (`islandLoader`) when
 * the island first renders (`<AntdIsland>` renders it once the page has painted and the main thread
 * is idle); the module should be imported only here (`() => import('./x.tsx').then((m) => m.X)`), so
 * that its Ant Design code stays out of the page's chunk. `styles` is the URL of the island's own
 * stylesheet, `styles/antd/<module's file name>.css?url`, which `npm run antd:css -w @meridian/web`
 * writes from the components the module and its imports render (`styles/antd-css.test.ts` checks
 * the pairing). `warmUp` lists the island's heavier imports to evaluate first, one task each
 * (`islandLoader`). Render the result inside `<AntdIsland>`, which reserves its space while it loads.
 */
export function antdIsland<P extends object>(
  load: () => Promise<ComponentType<P>>,
  styles: AntdStylesUrl,
  warmUp: readonly IslandWarmUp[] = [],
): ComponentType<P> {
  const loadIsland = islandLoader(load, styles, warmUp);
  return lazy(async () => {
    const { AntdConfig, Component } = await loadIsland();
    function Island(props: P) {
      return (
        <AntdConfig>
          <Component {...props} />
        </AntdConfig>
      );
    }
    return { default: Island };
  });
}

/**
 * The place of one or more islands of `antdIsland` on a page: an empty block of `minHeight` CSS
 * pixels (the island's usual height at that width, so that the page below does not move when it
 * appears: CLS ≤ 0.05) with `aria-busy`, until the islands are there. `minHeight` may be a
 * number or any CSS length (e.g. `'min(480px, 90vh)'`); `testId` marks the placeholder for tests.
 *
 * The islands start (render, and so load) only after the page around them has been committed and
 * painted, once the main thread is idle (`afterPaintIdle`): their downloads and Ant Design's
 * start-up then come after the page's text is on screen instead of holding its first paint back
 * (React would otherwise wait for the suspended island before committing the page in a navigation).
 */
export function AntdIsland({
  minHeight,
  children,
  testId,
}: {
  minHeight: number | string;
  children: ReactNode;
  testId?: string;
}) {
  const [isStarted, setIsStarted] = useState(false);
  useEffect(() => {
    let isMounted = true;
    void afterPaintIdle().then(() => {
      if (isMounted) setIsStarted(true);
    });
    return () => {
      isMounted = false;
    };
  }, []);
  const placeholder = (
    <div className="antd-island-placeholder" style={{ minHeight }} aria-busy="true" data-testid={testId} />
  );
  return isStarted ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
}
