// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useStagedMount } from './use-staged-mount.ts';

/** Renders the parts its stage allows and records each stage it rendered with. */
function Staged({ stageCount, seen }: { stageCount: number; seen: number[] }) {
  const stage = useStagedMount(stageCount);
  seen.push(stage);
  return (
    <ol>
      {Array.from({ length: stage }, (_unused, index) => (
        <li key={index}>part {index + 1}</li>
      ))}
    </ol>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useStagedMount', () => {
  it('renders the first part on mount and one more per task until all are there', async () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    render(<Staged stageCount={3} seen={seen} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    await act(() => vi.advanceTimersToNextTimerAsync());
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    await act(() => vi.advanceTimersToNextTimerAsync());
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    // Nothing further is scheduled once every part is there.
    expect(vi.getTimerCount()).toBe(0);
    expect(seen.every((stage, index) => index === 0 || stage >= seen[index - 1]!)).toBe(true);
    expect(Math.max(...seen)).toBe(3);
  });

  it('renders everything at once when there is one stage', () => {
    vi.useFakeTimers();
    render(<Staged stageCount={1} seen={[]} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
