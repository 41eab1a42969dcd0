import { describe, expect, it } from 'vitest';
import { moveBanner } from './banner-order.ts';

describe('moveBanner', () => {
  it('moves a banner up or down one place', () => {
    expect(moveBanner(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveBanner(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
  });

  it('leaves the order as it is past either end or outside the list', () => {
    expect(moveBanner(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveBanner(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
    expect(moveBanner(['a', 'b'], 5, -1)).toEqual(['a', 'b']);
  });
});
