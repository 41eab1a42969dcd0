import { Suspense, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { ChevronDownIcon, MenuIcon } from '../../components/icons.tsx';
import { InAccountLayout } from '../../components/page-shell.tsx';
import { MessagesUnreadBadge } from '../../features/notices/components/messages-unread-badge.tsx';
import { ROUTE_PATHS, type RouteName } from '../../config/paths.ts';
import { useRouteMeta } from '../../hooks/use-route-meta.ts';
import { useIsMobile } from '../../lib/viewport.ts';
import { groupKey, groupsContaining, initialOpenGroups, SIDE_MENU, type SideMenuEntry } from './account-menu-items.ts';
import { PageFallback } from './boot-fallback.tsx';
import './account-layout.css';

/** Left padding of a menu row per nesting level, in CSS pixels (Ant Design's inline indent). */
const INDENT_PX = 24;

interface MenuListProps {
  entries: readonly SideMenuEntry[];
  depth: number;
  matched: readonly RouteName[];
  current: RouteName;
  openKeys: readonly string[];
  onToggle: (key: string) => void;
  onNavigate?: () => void;
}

/** One level of the side menu: links to routes and groups that open and close. */
function MenuList({ entries, depth, matched, current, openKeys, onToggle, onNavigate }: MenuListProps) {
  const { t } = useTranslation();
  const listId = useId();
  const indent = { paddingInlineStart: INDENT_PX * (depth + 1) };
  return (
    <ul className="side-menu__list" role="list">
      {entries.map((entry) => {
        if ('group' in entry) {
          const key = groupKey(entry.group);
          const isOpen = openKeys.includes(key);
          const childrenId = `${listId}-${entry.group}`;
          const isSelected = entry.route ? matched.includes(entry.route) : false;
          return (
            <li key={key}>
              <button
                type="button"
                className={`side-menu__row side-menu__group${isSelected ? ' is-selected' : ''}`}
                style={indent}
                aria-expanded={isOpen}
                aria-controls={childrenId}
                onClick={() => onToggle(key)}
              >
                <span data-testid={`side-menu-${key}`}>
                  {t(entry.route ? `routes.${entry.route}` : `sideMenu.${entry.group}`)}
                </span>
                <ChevronDownIcon size={12} strokeWidth={2.6} className="side-menu__arrow" />
              </button>
              <div id={childrenId} hidden={!isOpen}>
                {isOpen && (
                  <MenuList
                    entries={entry.children}
                    depth={depth + 1}
                    matched={matched}
                    current={current}
                    openKeys={openKeys}
                    onToggle={onToggle}
                    onNavigate={onNavigate}
                  />
                )}
              </div>
            </li>
          );
        }
        const isSelected = matched.includes(entry.route);
        return (
          <li key={entry.route}>
            <Link
              to={ROUTE_PATHS[entry.route]}
              className={`side-menu__row side-menu__item${isSelected ? ' is-selected' : ''}`}
              style={indent}
              aria-current={isSelected ? 'page' : undefined}
              onClick={onNavigate}
            >
              <span data-testid={`side-menu-${entry.route}`}>
                {t(`routes.${entry.route}`)}
                {entry.route === 'Messages' && <MessagesUnreadBadge />}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The account area's side menu, plain React and CSS (it paints before Ant Design loads,
 * docs/performance.md): links to the routes, the current one marked (`aria-current="page"`), in groups that
 * open and close (`aria-expanded`). It opens the group of the current route; with no such group the
 * first group is open, or all with `isExpandAll`. `onNavigate` runs when a link is followed.
 */
export function AccountSideMenu({
  isExpandAll = false,
  onNavigate,
}: {
  isExpandAll?: boolean;
  onNavigate?: () => void;
}) {
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

  const onToggle = (key: string) =>
    setOpenKeys((open) => (open.includes(key) ? open.filter((other) => other !== key) : [...open, key]));

  return (
    <div className="side-menu">
      <MenuList
        entries={SIDE_MENU}
        depth={0}
        matched={matchedNames}
        current={current}
        openKeys={openKeys}
        onToggle={onToggle}
        onNavigate={onNavigate}
      />
    </div>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The side menu on phones: a full-width sheet from the left over the page, a modal dialog. Focus
 * moves into it when it opens and stays inside (Tab and Shift+Tab wrap); Escape, the close button or
 * the backdrop close it, and focus goes back to the button that opened it (`returnFocusTo`).
 */
function MenuSheet({ onClose, returnFocusTo }: { onClose: () => void; returnFocusTo: HTMLElement | null }) {
  const { t } = useTranslation();
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      returnFocusTo?.focus();
    };
  }, [returnFocusTo]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="menu-sheet" onKeyDown={onKeyDown}>
      <div className="menu-sheet__mask" onClick={onClose} aria-hidden="true" />
      <div className="menu-sheet__panel" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={panelRef}>
        <div className="menu-sheet__header">
          <button type="button" className="menu-sheet__close" onClick={onClose} aria-label={t('sideMenu.close')}>
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M5 5l14 14M19 5 5 19" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
          <h2 className="menu-sheet__title" id={titleId}>
            {t('sideMenu.label')}
          </h2>
        </div>
        <div className="menu-sheet__body" data-testid="side-menu">
          <AccountSideMenu onNavigate={onClose} />
        </div>
      </div>
    </div>
  );
}

/** Layout of /my/* and /messages: side menu on larger screens, a menu sheet on phones. */
export function AccountLayout() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

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
            <button
              type="button"
              ref={buttonRef}
              className="account-area__menu-button"
              onClick={() => setMenuOpen(true)}
              aria-haspopup="dialog"
              aria-expanded={isMenuOpen}
              data-testid="side-menu-button"
            >
              <MenuIcon size={16} />
              <span>{t('sideMenu.label')}</span>
            </button>
            {isMenuOpen && <MenuSheet onClose={() => setMenuOpen(false)} returnFocusTo={buttonRef.current} />}
          </>
        )}
        <InAccountLayout value={true}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </InAccountLayout>
      </section>
    </div>
  );
}
