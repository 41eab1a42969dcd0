import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import './antd-island.css';

/**
 * A lazily loaded part of a light page that renders Ant Design (issue 20 "web performance"). The
 * public and product pages (home, earn, loan, trust, exchange, the card pages) paint their shell and
 * marketing content with plain React and CSS; the forms, tables and lists they carry load after
 * that as islands, each inside Ant Design's configuration (`components/antd-config.tsx`: theme,
 * language, size).
 *
 * `load` resolves to the island's component. Its module, Ant Design's configuration and the active
 * language's Ant Design texts are fetched in parallel the first time the island renders; the module
 * should be imported only here (`() => import('./x.tsx').then((m) => m.X)`), so that its Ant Design
 * code stays out of the page's chunk. Render the result inside `<AntdIsland>`, which reserves its
 * space while it loads.
 */
export function antdIsland<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(async () => {
    const [config, Component] = await Promise.all([
      import('./antd-config.tsx').then(async (module) => {
        await module.prepareAntd();
        return module;
      }),
      load(),
    ]);
    const { AntdConfig } = config;
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
 * The place of one or more islands of `antdIsland` on a page: while they load, an empty block of
 * `minHeight` CSS pixels (the island's usual height at that width, so that the page below does not
 * move when it appears: CLS ≤ 0.05, issue 20) with `aria-busy`. `minHeight` may be a number or any
 * CSS length (e.g. `'min(480px, 90vh)'`); `testId` marks the placeholder for tests.
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
  return (
    <Suspense
      fallback={<div className="antd-island-placeholder" style={{ minHeight }} aria-busy="true" data-testid={testId} />}
    >
      {children}
    </Suspense>
  );
}
