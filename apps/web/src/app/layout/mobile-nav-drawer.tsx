import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { ChevronRightIcon, GlobeIcon, PhoneIcon } from '../../components/icons.tsx';
import { Logo } from '../../components/logo.tsx';
import { pathTo } from '../../config/paths.ts';
import { LOCALE_LABELS, matchLocale } from '../../lib/locale.ts';
import { useUserId } from '../../lib/session.ts';
import { DRAWER_WIDTH_PX, useIsMobile } from '../../lib/viewport.ts';
import { openActionModal, openLocaleModal } from '../../stores/modal-store.ts';
import { setNavDrawerOpen, useNavDrawerOpen } from '../../stores/nav-drawer-store.ts';
import { logout } from './header/account-menu.tsx';
import { TOP_MENU_ITEMS, USER_MENU_ITEMS } from './top-menu-items.ts';

/** Navigation drawer of the mobile header: 378 px wide, full width below 768 px. */
export function MobileNavDrawer() {
  const { t, i18n } = useTranslation();
  const isOpen = useNavDrawerOpen();
  const isMobile = useIsMobile();
  const userId = useUserId();
  const locale = matchLocale(i18n.language) ?? 'en-US';
  const close = () => setNavDrawerOpen(false);

  const link = (id: string, to: string, label: string) => (
    <NavLink
      key={id}
      to={to}
      className={({ isActive }) => `drawer-nav__item${isActive ? ' is-active' : ''}`}
      data-testid={`drawer-menu-${id}`}
    >
      <span>{label}</span>
      <ChevronRightIcon size={16} />
    </NavLink>
  );

  return (
    <Drawer
      open={isOpen}
      onClose={close}
      placement="right"
      size={isMobile ? '100%' : DRAWER_WIDTH_PX}
      title={<Logo height={24} tone="dark" />}
      rootClassName="nav-drawer"
    >
      <div data-testid="mobile-drawer" className="drawer-nav">
        <nav aria-label={t('header.productMenu')}>
          {TOP_MENU_ITEMS.map((item) => link(item.id, pathTo(item.route), t(`menu.${item.id}`)))}
        </nav>
        {userId && (
          <nav aria-label={t('header.account')} className="drawer-nav__group">
            <h3>{t('header.account')}</h3>
            {USER_MENU_ITEMS.map((item) => link(`user-${item.id}`, pathTo(item.route), t(`userMenu.${item.id}`)))}
            {link('messages', pathTo('Messages'), t('header.notifications'))}
          </nav>
        )}
        <div className="drawer-nav__group">
          <button
            type="button"
            className="drawer-nav__item"
            onClick={openLocaleModal}
            data-testid="drawer-locale-picker"
          >
            <span className="drawer-nav__icon-label">
              <GlobeIcon size={18} /> {t('header.language')}
            </span>
            <span className="drawer-nav__value">{LOCALE_LABELS[locale]}</span>
          </button>
          <NavLink to={pathTo('Download')} className="drawer-nav__item">
            <span className="drawer-nav__icon-label">
              <PhoneIcon size={18} /> {t('header.app')}
            </span>
            <ChevronRightIcon size={16} />
          </NavLink>
        </div>
        <div className="drawer-nav__actions">
          {userId ? (
            <button
              type="button"
              className="btn btn--ghost-dark btn--block"
              onClick={() => void logout().then(() => window.location.assign(pathTo('Home')))}
            >
              {t('userMenu.logout')}
            </button>
          ) : (
            <>
              <button
                type="button"
                className="btn btn--ghost-dark btn--block"
                data-testid="drawer-login"
                onClick={() => {
                  close();
                  openActionModal('login');
                }}
              >
                {t('header.login')}
              </button>
              <button
                type="button"
                className="btn btn--primary btn--block"
                data-testid="drawer-register"
                onClick={() => {
                  close();
                  openActionModal('register');
                }}
              >
                {t('header.register')}
              </button>
            </>
          )}
        </div>
      </div>
    </Drawer>
  );
}
