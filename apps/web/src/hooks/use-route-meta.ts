import { useMatches, type UIMatch } from 'react-router';
import { readRouteHandle, type RouteHandle } from '../config/route-handle.ts';
import { isRouteName, type RouteName } from '../config/paths.ts';

export interface NamedMatch {
  name: RouteName;
  pathname: string;
  handle: RouteHandle;
  params: UIMatch['params'];
}

export interface RouteMeta {
  isHeaderFixed: boolean;
  isFooterHidden: boolean;
  /** Matched named routes from the outermost to the current one. */
  named: NamedMatch[];
  /** The current (innermost) named route. */
  current: RouteName;
}

/** The matched routes' names and handles: what the header, footer, menus and breadcrumbs show. */
export function useRouteMeta(): RouteMeta {
  const matches = useMatches();
  const named: NamedMatch[] = [];
  let isHeaderFixed = false;
  let isFooterHidden = false;
  for (const match of matches) {
    const handle = readRouteHandle(match.handle);
    if (handle.fixedHeader) isHeaderFixed = true;
    if (handle.hideFooter) isFooterHidden = true;
    if (isRouteName(match.id)) named.push({ name: match.id, pathname: match.pathname, handle, params: match.params });
  }
  return { isHeaderFixed, isFooterHidden, named, current: named.at(-1)?.name ?? 'Home' };
}
