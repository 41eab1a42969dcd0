import { useQueryClient } from '@tanstack/react-query';
import { App as AntdApp } from 'antd';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useRenderedPath } from '../../../hooks/use-rendered-path.ts';
import { bindFeedbackSink } from '../../../lib/feedback.ts';
import { adminKeys, setAdminUnauthenticatedHandler } from '../api/admin-call.ts';
import { ADMIN_PATHS, LOGIN_REASON_EXPIRED, LOGIN_REASON_PARAM } from '../lib/admin-paths.ts';
import { AdminSpinner } from './admin-spinner.tsx';
import './admin.css';

/** Shows the HTTP client's toasts and notifications with Ant Design's `App` inside the back office. */
function AdminFeedbackBinder() {
  const { message, notification } = AntdApp.useApp();
  useEffect(
    () =>
      bindFeedbackSink({
        show(event) {
          if (event.kind === 'success') void message.success(event.text);
          else if (event.kind === 'error') void message.error(event.text);
          else notification.error({ title: event.title, description: event.description });
        },
      }),
    [message, notification],
  );
  return null;
}

/**
 * Sends the operator to the sign-in page when a back-office call answers 101. When a session had
 * been loaded, it ended (30 minutes idle, 8 hours at most, or revoked): the sign-in page says so.
 */
function AdminUnauthenticatedRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const isOnLogin = location.pathname === ADMIN_PATHS.login;
  useEffect(() => {
    setAdminUnauthenticatedHandler(() => {
      if (isOnLogin) return;
      const hadSession = queryClient.getQueryData(adminKeys.session) !== undefined;
      queryClient.removeQueries({ queryKey: adminKeys.all });
      const search = hadSession ? `?${LOGIN_REASON_PARAM}=${LOGIN_REASON_EXPIRED}` : '';
      void navigate(`${ADMIN_PATHS.login}${search}`, { replace: true });
    });
    return () => setAdminUnauthenticatedHandler(null);
  }, [isOnLogin, navigate, queryClient]);
  return null;
}

/**
 * The root of every `/admin` page, sign-in included: no customer header or footer, the back office's
 * own feedback and 101 handling, and the `admin` texts loaded before the page renders.
 */
export function AdminRoot() {
  const { i18n } = useTranslation('admin');
  useRenderedPath();
  return (
    <AntdApp component={false} message={{ top: 64, maxCount: 3 }} notification={{ placement: 'topRight' }}>
      <div lang={i18n.language}>
        <AdminFeedbackBinder />
        <AdminUnauthenticatedRedirect />
        <Suspense fallback={<AdminSpinner />}>
          <Outlet />
        </Suspense>
      </div>
    </AntdApp>
  );
}
