// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AntdIsland, islandLoader } from './antd-island.tsx';

// Ant Design's configuration waits for a stylesheet's load event, which jsdom never fires.
vi.mock('./antd-config.tsx', () => ({
  prepareAntd: () => Promise.resolve(),
  AntdConfig: ({ children }: { children: ReactNode }) => children,
}));

afterEach(cleanup);

describe('AntdIsland', () => {
  it('holds the placeholder until the page has painted, then renders the islands', async () => {
    render(
      <AntdIsland minHeight={320} testId="island-loading">
        <p>island</p>
      </AntdIsland>,
    );
    const placeholder = screen.getByTestId('island-loading');
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(placeholder.style.minHeight).toBe('320px');
    expect(screen.queryByText('island')).toBeNull();

    expect(await screen.findByText('island')).toBeTruthy();
    expect(screen.queryByTestId('island-loading')).toBeNull();
  });
});

describe('islandLoader', () => {
  it('evaluates the warm-up modules in order, each in a task of its own, then the island', async () => {
    const calls: string[] = [];
    const step = (name: string) => () => {
      calls.push(name);
      // A task queued now runs before the next step only if that step waits for a later task.
      setTimeout(() => calls.push(`task after ${name}`), 0);
      return Promise.resolve();
    };
    const loadIsland = islandLoader(
      () => {
        calls.push('island');
        return Promise.resolve('Island');
      },
      undefined,
      [step('contracts/money'), step('contracts/loans')],
    );

    const loaded = await loadIsland();

    expect(loaded.Component).toBe('Island');
    expect(calls).toEqual([
      'contracts/money',
      'task after contracts/money',
      'contracts/loans',
      'task after contracts/loans',
      'island',
    ]);
    expect(loadIsland()).toBe(loadIsland());
  });

  it('tries a failed load again on the next call', async () => {
    let attempts = 0;
    const loadIsland = islandLoader(
      () => (++attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('Island')),
      undefined,
      [() => Promise.resolve()],
    );
    await expect(loadIsland()).rejects.toThrow('offline');
    expect((await loadIsland()).Component).toBe('Island');
  });
});
