import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, UserIcon } from '../../../components/icons.tsx';
import { pathTo } from '../../../config/paths.ts';
import type { identityEndpoints } from '@meridian/contracts/identity';
import { request } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session.ts';
import { USER_MENU_ITEMS } from '../top-menu-items.ts';

/**
 * The route of `identityEndpoints.logout`, checked against the descriptor at compile time: the
 * header is on every first paint, and importing the descriptor would bring full zod with it.
 */
const LOGOUT_ROUTE = { method: 'POST', path: '/user/logout' } as const satisfies Pick<
  typeof identityEndpoints.logout,
  'method' | 'path'
>;

/** Logout calls the server (silently), then forgets the user whatever the answer. */
export async function logout(): Promise<void> {
  await request(LOGOUT_ROUTE.method, LOGOUT_ROUTE.path, { body: {}, silent: true, skipLoginRedirect: true });
  clearSession();
}

/** The signed-in user's menu, a CSS dropdown on hover and focus. */
export function AccountMenu() {
  const { t } = useTranslation();
  return (
    <div className="popover popover--menu" data-testid="account-menu">
      <button type="button" className="header-chip" aria-haspopup="menu" aria-label={t('header.account')}>
        <UserIcon size={18} />
        <ChevronDownIcon size={14} />
      </button>
      <div className="popover__panel popover__panel--menu" role="menu">
        {USER_MENU_ITEMS.map((item) => (
          <Link key={item.id} role="menuitem" to={pathTo(item.route)} className="menu-link">
            {t(`userMenu.${item.id}`)}
          </Link>
        ))}
        <button
          type="button"
          role="menuitem"
          className="menu-link menu-link--button"
          onClick={() => {
            void logout().then(() => window.location.assign(pathTo('Home')));
          }}
        >
          {t('userMenu.logout')}
        </button>
      </div>
    </div>
  );
}
