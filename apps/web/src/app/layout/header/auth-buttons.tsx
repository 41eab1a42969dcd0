import { useTranslation } from 'react-i18next';
import { openActionModal } from '../../../stores/modal-store.ts';
import { requestOverlayHost } from '../../../stores/overlay-host-store.ts';

/** Log in and Register for guests; both open the action modal. */
export function AuthButtons({ layout = 'inline' }: { layout?: 'inline' | 'stacked' }) {
  const { t } = useTranslation();
  return (
    <div className={`auth-buttons auth-buttons--${layout} guest-only`}>
      <button
        type="button"
        className="btn btn--ghost"
        data-testid="header-login"
        onPointerEnter={requestOverlayHost}
        onFocus={requestOverlayHost}
        onClick={() => openActionModal('login')}
      >
        {t('header.login')}
      </button>
      <button
        type="button"
        className="btn btn--primary"
        data-testid="header-register"
        onPointerEnter={requestOverlayHost}
        onFocus={requestOverlayHost}
        onClick={() => openActionModal('register')}
      >
        {t('header.register')}
      </button>
    </div>
  );
}
