import { useQueryClient } from '@tanstack/react-query';
import { Button, Menu, Result, Space, Tag, Typography } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ApiError, STATUS_LOGIN_EXPIRED } from '../../../lib/api-client.ts';
import { adminKeys, lastAdminActivityMs } from '../api/admin-call.ts';
import { useOperatorSession } from '../api/get-session.ts';
import { signOut } from '../api/sign-out.ts';
import { menuItemsFor, menuKeyOf } from '../lib/admin-menu.ts';
import { ADMIN_PATHS, LOGIN_REASON_EXPIRED, LOGIN_REASON_PARAM } from '../lib/admin-paths.ts';
import { isIdleExpired } from '../lib/time.ts';
import { AdminSpinner } from './admin-spinner.tsx';
import { LanguageSelect } from './language-select.tsx';
import { OperatorContext } from './operator-context.tsx';

/** How often the idle clock is looked at. */
const IDLE_CHECK_INTERVAL_MS = 15_000;

/**
 * Ends the page's session view once the operator has been idle as long as the server allows (the
 * server has already expired it): back to the sign-in page with the "session expired" message.
 */
/** Sends the operator to the sign-in page (an effect: rendering stays free of navigation). */
function GoToLogin() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(ADMIN_PATHS.login, { replace: true });
  }, [navigate]);
  return null;
}

function useIdleExpiry(idleTimeoutMinutes: number) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const timer = setInterval(() => {
      if (!isIdleExpired(lastAdminActivityMs(), Date.now(), idleTimeoutMinutes)) return;
      queryClient.removeQueries({ queryKey: adminKeys.all });
      void navigate(`${ADMIN_PATHS.login}?${LOGIN_REASON_PARAM}=${LOGIN_REASON_EXPIRED}`, { replace: true });
    }, IDLE_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [idleTimeoutMinutes, navigate, queryClient]);
}

/**
 * The back office's own layout: a left menu of the pages the operator's role may open,
 * a top bar with the operator's email and role, the language switch and sign-out, then the page.
 * Below 768 px (admin.css) the menu is a bar with the brand and a Menu button that opens the list
 * over the page and closes it once a page is chosen, so the page keeps the whole width.
 * Without a full session it sends the operator to the sign-in page.
 */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const session = useOperatorSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isMenuOpen, setMenuOpen] = useState(false);
  useIdleExpiry(session.data?.idleTimeoutMinutes ?? 30);

  if (session.isPending) return <AdminSpinner />;
  if (session.isError) {
    const isSignedOut = session.error instanceof ApiError && session.error.statusCode === STATUS_LOGIN_EXPIRED;
    if (isSignedOut) return <GoToLogin />;
    return (
      <Result
        status="error"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void session.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  if (session.data.state !== 'signedIn') return <GoToLogin />;

  const { operator } = session.data;
  const items = menuItemsFor(operator.role).map((item) => ({
    key: item.key,
    label: t(`menu.${item.key}`),
    path: item.path,
  }));
  const selectedKey = menuKeyOf(location.pathname);

  const onSignOut = async () => {
    await signOut();
    queryClient.removeQueries({ queryKey: adminKeys.all });
    void navigate(ADMIN_PATHS.login, { replace: true });
  };

  return (
    <OperatorContext value={session.data}>
      {/* Plain elements, not Ant Design's Layout: its Sider would enlarge the Menu chunk the customer pages share. */}
      <div className="admin-shell" data-menu-open={isMenuOpen}>
        <aside className="admin-sider">
          <div className="admin-brand">
            <span>{t('layout.brand')}</span>
            {/* Shown below 768 px only (admin.css). */}
            <Button
              className="admin-menu-toggle"
              aria-expanded={isMenuOpen}
              aria-controls="admin-nav"
              onClick={() => setMenuOpen((isOpen) => !isOpen)}
            >
              {t('layout.menuButton')}
            </Button>
          </div>
          <nav id="admin-nav" className="admin-nav" aria-label={t('layout.menu')}>
            <Menu
              mode="inline"
              selectedKeys={selectedKey ? [selectedKey] : []}
              items={items.map(({ key, label }) => ({ key, label }))}
              onClick={({ key }) => {
                const item = items.find((entry) => entry.key === key);
                setMenuOpen(false);
                if (item) void navigate(item.path);
              }}
            />
          </nav>
        </aside>
        <div className="admin-main">
          <header className="admin-topbar">
            <Space size="middle" wrap>
              <Typography.Text data-testid="admin-operator-email">{operator.email}</Typography.Text>
              <Tag color="blue" data-testid="admin-operator-role">
                {t(`roles.${operator.role}`)}
              </Tag>
              <LanguageSelect />
              <Button size="middle" onClick={() => void onSignOut()}>
                {t('layout.signOut')}
              </Button>
            </Space>
          </header>
          <main className="admin-content">
            <Suspense fallback={<AdminSpinner />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </OperatorContext>
  );
}
