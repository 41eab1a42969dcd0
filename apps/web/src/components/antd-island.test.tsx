// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AntdIsland } from './antd-island.tsx';

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
