import { describe, expect, it } from 'vitest';
import { nextPageIdOf, rowsOfPages } from './paging.ts';

interface Row {
  id: string;
}
const page = (ids: string[]) => ({ list: ids.map((id) => ({ id })) });
const keyOf = (row: Row) => row.id;

describe('paged lists in list mode', () => {
  it('asks the next page until totalPage, then none', () => {
    expect(nextPageIdOf({ pageID: 1, totalPage: 3 })).toBe(2);
    expect(nextPageIdOf({ pageID: 3, totalPage: 3 })).toBeUndefined();
    expect(nextPageIdOf({ pageID: 1, totalPage: 0 })).toBeUndefined();
  });

  it('appends pages in order and shows a row that moved between pages once, at its first place', () => {
    expect(rowsOfPages([page(['a', 'b']), page(['b', 'c'])], keyOf).map(keyOf)).toEqual(['a', 'b', 'c']);
  });

  it('has no rows before the first page arrives', () => {
    expect(rowsOfPages<Row>(undefined, keyOf)).toEqual([]);
  });
});
