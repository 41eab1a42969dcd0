import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BellIcon } from '../../../components/icons.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { useMessages } from '../api/get-messages.ts';
import { unreadCountOf } from '../lib/message-cache.ts';
import { QuietBoundary } from './quiet-boundary.tsx';
import './notification-bell.css';

const BellPanel = lazy(() => import('./bell-panel.tsx').then((module) => ({ default: module.BellPanel })));

interface NotificationBellProps {
  /** `header`: the wide header's bell with its preview on hover; `compact`: the phone header's bell, a plain link. */
  variant?: 'header' | 'compact';
}

/**
 * The header's notification bell: for a signed-in user an unread dot and, on hover or
 * keyboard focus, a preview of the 3 most recent messages; a guest gets the plain link. Plain CSS,
 * like the rest of the header: the preview's code (dates, texts) loads when it is first about to show.
 */
export function NotificationBell({ variant = 'header' }: NotificationBellProps) {
  const { t } = useTranslation();
  const userId = useUserId();
  if (!userId) {
    return (
      <Link
        to={pathTo('Messages')}
        className="header-chip header-chip--icon"
        aria-label={t('header.notifications')}
        data-testid="notification-bell"
      >
        <BellIcon size={19} />
      </Link>
    );
  }
  return <SignedInBell userId={userId} variant={variant} />;
}

function SignedInBell({ userId, variant }: { userId: string; variant: 'header' | 'compact' }) {
  const { t } = useTranslation();
  const { data } = useMessages(userId);
  const [isArmed, setArmed] = useState(false);
  const unreadCount = unreadCountOf(data);
  const arm = () => setArmed(true);
  const label = unreadCount > 0 ? `${t('header.notifications')} (${unreadCount})` : t('header.notifications');

  const trigger = (
    <Link
      to={pathTo('Messages')}
      className="header-chip header-chip--icon notification-bell__trigger"
      aria-label={label}
      data-testid={variant === 'compact' ? 'notification-bell-compact' : 'notification-bell'}
      data-unread-count={unreadCount}
    >
      <BellIcon size={19} />
      {unreadCount > 0 && (
        <span className="notification-bell__dot" data-testid="notification-bell-dot" aria-hidden="true" />
      )}
    </Link>
  );

  if (variant === 'compact') return <div className="notification-bell notification-bell--compact">{trigger}</div>;

  return (
    <div
      className="popover notification-bell"
      onPointerEnter={arm}
      onFocus={arm}
      data-testid="notification-bell-popover"
    >
      {trigger}
      <div className="popover__panel notification-bell__panel" role="dialog" aria-label={t('header.notifications')}>
        {isArmed ? (
          <QuietBoundary fallback={<div className="bell-panel bell-panel--loading" />}>
            <Suspense fallback={<div className="bell-panel bell-panel--loading" />}>
              <BellPanel userId={userId} />
            </Suspense>
          </QuietBoundary>
        ) : (
          <div className="bell-panel bell-panel--loading" />
        )}
      </div>
    </div>
  );
}
