import { Button, Drawer, Menu, type MenuProps } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { MenuIcon } from '../../components/icons.tsx';
import { MessagesUnreadBadge } from '../../features/notices/components/messages-unread-badge.tsx';
import { ROUTE_PATHS, type RouteName } from '../../config/paths.ts';
import { useRouteMeta } from '../../hooks/use-route-meta.ts';
import { useIsMobile } from '../../lib/viewport.ts';
import { groupKey, groupsContaining, initialOpenGroups, SIDE_MENU, type SideMenuEntry } from './account-menu-items.ts';
import { PageFallback } from './boot-fallback.tsx';
import './account-layout.css';

type MenuItem = Required<MenuProps>['items'][number];

function toMenuItems(entries: readonly SideMenuEntry[], label: (key: string) => string): MenuItem[] {
  return entries.map((entry): MenuItem => {
    if ('group' in entry) {
      const key = groupKey(entry.group);
      return {
        key,
        label: (
          <span data-testid={`side-menu-${key}`}>
            {label(entry.route ? `routes.${entry.route}` : `sideMenu.${entry.group}`)}
          </span>
        ),
        children: toMenuItems(entry.children, label),
      };
    }
    return {
      key: entry.route,
      label: (
        <span data-testid={`side-menu-${entry.route}`}>
          {label(`routes.${entry.route}`)}
          {entry.route === 'Messages' && <MessagesUnreadBadge />}
        </span>
      ),
    };
  });
}

/**
 * The account area's side menu (spec §2). It highlights the matched route names and opens the
 * group of the current route; with no such group the first group is open, or all with `isExpandAll`.
 */
export function AccountSideMenu({
  isExpandAll = false,
  onNavigate,
}: {
  isExpandAll?: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { named, current } = useRouteMeta();
  const matchedNames = useMemo(() => named.map((match) => match.name), [named]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => initialOpenGroups(matchedNames, isExpandAll));

  // Navigating elsewhere (a link, the back button) opens the new route's group too.
  useEffect(() => {
    const needed =
      [...matchedNames]
        .reverse()
        .map((name) => groupsContaining(name))
        .find((groups) => groups.length > 0) ?? [];
    setOpenKeys((open) => (needed.every((key) => open.includes(key)) ? open : [...new Set([...open, ...needed])]));
  }, [current, matchedNames]);

  const items = useMemo(() => toMenuItems(SIDE_MENU, (key) => t(key)), [t]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const route = key as RouteName;
    // The spec sent FiscardAccount to an external card site (the download page on phones); issue 19
    // builds the card pages inside the product, at every width.
    onNavigate?.();
    void navigate(ROUTE_PATHS[route]);
  };

  return (
    <Menu
      mode="inline"
      className="side-menu"
      items={items}
      selectedKeys={matchedNames}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      onClick={onClick}
    />
  );
}

/** Layout of /my/* and /messages: side menu on larger screens, a menu drawer on phones. */
export function AccountLayout() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [isMenuOpen, setMenuOpen] = useState(false);

  return (
    <div className="account-area">
      {!isMobile && (
        <aside className="account-area__side" data-testid="side-menu" aria-label={t('sideMenu.label')}>
          <AccountSideMenu />
        </aside>
      )}
      <section className="account-area__content">
        {isMobile && (
          <>
            <Button
              className="account-area__menu-button"
              icon={<MenuIcon size={16} />}
              onClick={() => setMenuOpen(true)}
              data-testid="side-menu-button"
            >
              {t('sideMenu.label')}
            </Button>
            <Drawer
              open={isMenuOpen}
              onClose={() => setMenuOpen(false)}
              placement="left"
              size="100%"
              title={t('sideMenu.label')}
            >
              <div data-testid="side-menu">
                <AccountSideMenu onNavigate={() => setMenuOpen(false)} />
              </div>
            </Drawer>
          </>
        )}
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </section>
    </div>
  );
}
