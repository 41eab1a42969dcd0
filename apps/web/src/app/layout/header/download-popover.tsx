import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PhoneIcon } from '../../../components/icons.tsx';
import { pathTo } from '../../../config/paths.ts';

const DownloadQrCode = lazy(() =>
  import('../../../components/download-qr-code.tsx').then((module) => ({ default: module.DownloadQrCode })),
);

/**
 * The app popover: Meridian installs from the website as a Progressive Web App, so the
 * QR code opens the install page (`/download`) on a phone, and the popover lists the steps for
 * iPhone (Safari) and Android (Chrome). Plain CSS shows it on hover and keyboard focus; the QR
 * code's code loads the first time it is about to show.
 */
export function DownloadPopover() {
  const { t } = useTranslation();
  const [isArmed, setArmed] = useState(false);
  const [isOpen, setOpen] = useState(false);
  const arm = () => setArmed(true);

  return (
    <div
      className={`popover${isOpen ? ' is-open' : ''}`}
      onPointerEnter={arm}
      onFocus={arm}
      onMouseLeave={() => setOpen(false)}
      data-testid="download-popover"
    >
      <button
        type="button"
        className="header-chip"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onClick={() => {
          arm();
          setOpen((open) => !open);
        }}
        data-testid="download-trigger"
      >
        <PhoneIcon size={18} />
        <span>{t('header.app')}</span>
      </button>
      <div className="popover__panel popover__panel--download" role="dialog" aria-label={t('download.popoverTitle')}>
        <div className="download-qr" data-testid="download-qr">
          {isArmed ? (
            <Suspense fallback={<span className="download-qr__placeholder" />}>
              <DownloadQrCode />
            </Suspense>
          ) : (
            <span className="download-qr__placeholder" />
          )}
        </div>
        <div className="download-popover__text">
          <strong>{t('download.popoverTitle')}</strong>
          <span>{t('download.popoverBody')}</span>
          <ol className="download-popover__steps" data-testid="download-steps">
            <li>{t('download.stepIos')}</li>
            <li>{t('download.stepAndroid')}</li>
          </ol>
          <Link to={pathTo('Download')} className="text-link">
            {t('download.popoverLink')}
          </Link>
        </div>
      </div>
    </div>
  );
}
