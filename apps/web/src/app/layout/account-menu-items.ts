import type { RouteName, StaticRouteName } from '../../config/paths.ts';

/** A side-menu entry: a route, or a group of entries. */
export type SideMenuEntry =
  { route: StaticRouteName } | { group: string; route?: StaticRouteName; children: readonly SideMenuEntry[] };

/**
 * The account area's side menu: the Account and Order groups, then the statement, the
 * calendar and messages. A Settings group gathers the user-menu pages (Security, API keys, Profile, Payment, Address),
 * which also live under /my and would otherwise have no entry here.
 */
export const SIDE_MENU: readonly SideMenuEntry[] = [
  {
    group: 'account',
    children: [
      { route: 'AccountOverview' },
      { route: 'MainAccount' },
      { route: 'FundAccount' },
      { route: 'FiscardAccount' },
    ],
  },
  {
    group: 'order',
    children: [
      { route: 'WalletHistory' },
      { route: 'SwapHistory' },
      { route: 'FundHistory' },
      {
        group: 'loan',
        route: 'LoanHistory',
        children: [
          { route: 'LoanOrder' },
          { route: 'LoanRepayRecord' },
          { route: 'LoanAdjustRecord' },
          { route: 'LoanLiquidationRecord' },
        ],
      },
    ],
  },
  {
    group: 'settings',
    children: [
      { route: 'Security' },
      { route: 'ApiKeys' },
      { route: 'Profile' },
      { route: 'Payment' },
      { route: 'Address' },
    ],
  },
  { route: 'AccountStatement' },
  { route: 'Calendar' },
  { route: 'Messages' },
];

/** Menu key of a group entry. */
export function groupKey(group: string): string {
  return `group:${group}`;
}

/** Keys of the groups containing `route`, outermost first; empty when the route is not in a group. */
export function groupsContaining(route: RouteName, entries: readonly SideMenuEntry[] = SIDE_MENU): string[] {
  for (const entry of entries) {
    if (!('group' in entry)) continue;
    if (entry.route === route) return [groupKey(entry.group)];
    const inner = groupsContaining(route, entry.children);
    const isDirectChild = entry.children.some((child) => !('group' in child) && child.route === route);
    if (isDirectChild || inner.length > 0) return [groupKey(entry.group), ...inner];
  }
  return [];
}

/** Every group key (for "expand all"). */
export function allGroupKeys(entries: readonly SideMenuEntry[] = SIDE_MENU): string[] {
  return entries.flatMap((entry) => ('group' in entry ? [groupKey(entry.group), ...allGroupKeys(entry.children)] : []));
}

/** The groups open when the menu first shows: the current route's, else the first group. */
export function initialOpenGroups(matchedRoutes: readonly RouteName[], isExpandAll = false): string[] {
  if (isExpandAll) return allGroupKeys();
  for (const route of [...matchedRoutes].reverse()) {
    const groups = groupsContaining(route);
    if (groups.length > 0) return groups;
  }
  const first = SIDE_MENU.find((entry) => 'group' in entry);
  return first && 'group' in first ? [groupKey(first.group)] : [];
}
