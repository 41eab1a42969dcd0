// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppendedPages } from './use-appended-pages.ts';

interface Row {
  id: string;
}
const page = (pageID: number, ids: string[]) => ({ pageID, list: ids.map((id) => ({ id })) });
const keyOf = (row: Row) => row.id;

describe('useAppendedPages (list mode, spec §9)', () => {
  it('appends later pages, keeps a row that moved between pages once, and restarts on page 1', () => {
    const { result, rerender } = renderHook(({ current }) => useAppendedPages<Row>(current, keyOf, true), { initialProps: { current: page(1, ['a', 'b']) } });
    expect(result.current.map(keyOf)).toEqual(['a', 'b']);
    rerender({ current: page(2, ['b', 'c']) });
    expect(result.current.map(keyOf)).toEqual(['a', 'b', 'c']);
    rerender({ current: page(1, ['z']) });
    expect(result.current.map(keyOf)).toEqual(['z']);
  });

  it('collects nothing while inactive (the desktop table pages instead)', () => {
    const { result } = renderHook(() => useAppendedPages<Row>(page(1, ['a']), keyOf, false));
    expect(result.current).toEqual([]);
  });
});
