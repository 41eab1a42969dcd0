import type { StaticRouteName } from './paths.ts';

/** What a route tells the shell about itself, read with `useRouteMeta`. */
export interface RouteHandle {
  /** The header stays fixed at the top while scrolling. */
  fixedHeader?: boolean;
  /** No footer on this route or its children (Order, Account, My). */
  hideFooter?: boolean;
  /** Child routes shown as tabs on this route's pages. */
  tabs?: readonly StaticRouteName[];
}

export function readRouteHandle(value: unknown): RouteHandle {
  return typeof value === 'object' && value !== null ? (value as RouteHandle) : {};
}
