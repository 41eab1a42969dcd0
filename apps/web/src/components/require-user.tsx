import { Button, Result } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useUserId } from '../lib/session.ts';
import { openActionModal } from '../stores/modal-store.ts';

/**
 * Route protection on the real route names (not a separate list that can drift from the routes):
 * a guest opening a protected page gets the login modal, returning here afterwards. The server
 * refuses every protected call without a session (101) regardless.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const userId = useUserId();
  const { t } = useTranslation('identity');
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  useEffect(() => {
    if (!userId) openActionModal('login', { returnTo });
  }, [userId, returnTo]);
  if (userId) return <>{children}</>;
  return (
    <Result
      data-testid="sign-in-required"
      status="403"
      title={t('guard.title')}
      extra={
        <Button type="primary" onClick={() => openActionModal('login', { returnTo })}>
          {t('login.submit')}
        </Button>
      }
    />
  );
}
