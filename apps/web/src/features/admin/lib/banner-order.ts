/**
 * The banner ids after moving the one at `index` by `delta` places (-1 up, +1 down), for
 * `POST admin/banners/order`. A move past either end, or an index
 * outside the list, returns the ids unchanged (a copy).
 */
export function moveBanner(ids: readonly string[], index: number, delta: -1 | 1): string[] {
  const moved = [...ids];
  const target = index + delta;
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return moved;
  const [id] = moved.splice(index, 1);
  if (id !== undefined) moved.splice(target, 0, id);
  return moved;
}
