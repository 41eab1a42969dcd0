import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../../components/logo.tsx';
import { MenuIcon } from '../../../components/icons.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { NotificationBell } from '../../../features/notices/components/notification-bell.tsx';
import { setNavDrawerOpen } from '../../../stores/nav-drawer-store.ts';
import { requestOverlayHost } from '../../../stores/overlay-host-store.ts';
import { TOP_MENU_ITEMS } from '../top-menu-items.ts';
import { AccountMenu } from './account-menu.tsx';
import { AuthButtons } from './auth-buttons.tsx';
import { DownloadPopover } from './download-popover.tsx';
import { LanguageButton } from './language-button.tsx';

/**
 * The site header, plain HTML and CSS so that the first paint needs no UI library. Wide screens
 * show the product menu and actions; below 992 px a menu button opens the navigation drawer.
 */
export function Header({ isFixed }: { isFixed: boolean }) {
  const { t } = useTranslation();
  const userId = useUserId();

  return (
    <header
      className={`site-header${isFixed ? ' site-header--fixed' : ''}`}
      data-testid="site-header"
      data-fixed={isFixed}
    >
      <div className="site-header__inner">
        <Link to={pathTo('Home')} className="site-header__logo" data-testid="header-logo" aria-label={t('header.home')}>
          <Logo height={28} />
        </Link>
        <nav className="top-menu" aria-label={t('header.productMenu')} data-testid="top-menu">
          {TOP_MENU_ITEMS.map((item) => (
            <NavLink
              key={item.id}
              to={pathTo(item.route)}
              className={({ isActive }) => `top-menu__item${isActive ? ' is-active' : ''}`}
              data-testid={`top-menu-${item.id}`}
            >
              {t(`menu.${item.id}`)}
            </NavLink>
          ))}
        </nav>
        <div className="site-header__actions">
          <DownloadPopover />
          <LanguageButton />
          {userId ? (
            <>
              <NotificationBell />
              <AccountMenu />
            </>
          ) : (
            <AuthButtons />
          )}
        </div>
        {userId && <NotificationBell variant="compact" />}
        <button
          type="button"
          className="icon-button site-header__burger"
          aria-label={t('header.openMenu')}
          data-testid="mobile-menu-button"
          onPointerEnter={requestOverlayHost}
          onClick={() => setNavDrawerOpen(true)}
        >
          <MenuIcon size={24} />
        </button>
      </div>
    </header>
  );
}
