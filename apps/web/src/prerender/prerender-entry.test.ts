import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes } from '../app/routes.tsx';
import { readRouteHandle } from '../config/route-handle.ts';
import { PRERENDERED_ROUTES } from './prerender-entry.tsx';

/** Every route in the table, depth first. */
function allRoutes(list: readonly RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [route, ...allRoutes(route.children ?? [])]);
}

describe('the prerendered pages', () => {
  // The app hydrates the prerendered page: a header fixed in one and not in the other would stay
  // wrong after hydration (React does not patch attributes that differ).
  it.each(Object.entries(PRERENDERED_ROUTES))('%s has its live route’s id and header', (_path, page) => {
    const route = allRoutes(routes).find((candidate) => candidate.id === page.id);
    expect(route).toBeDefined();
    expect(readRouteHandle(route?.handle).fixedHeader === true).toBe(page.fixedHeader);
  });
});
