import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BellIcon, GlobeIcon, PhoneIcon, TrustIcon } from '../../../components/icons.tsx';
import { ProductPage, type ProductPageConfig } from '../../../components/product-page.tsx';
import {
  type InstallPlatform,
  installPlatformOf,
  isInstalled,
  promptInstall,
  useCanPromptInstall,
} from '../../../lib/pwa.ts';
import './download-page.css';

const DownloadQrCode = lazy(() =>
  import('../../../components/download-qr-code.tsx').then((module) => ({ default: module.DownloadQrCode })),
);

const CONFIG: ProductPageConfig = {
  page: 'download',
  highlights: [],
  sections: [
    {
      id: 'benefits',
      variant: 'cards',
      items: ['homeScreen', 'notifications', 'offline', 'secure'],
      Icons: { homeScreen: PhoneIcon, notifications: BellIcon, offline: GlobeIcon, secure: TrustIcon },
    },
  ],
};

/** The install guides, phones first. */
const PLATFORMS: readonly InstallPlatform[] = ['ios', 'android', 'other'];
const GUIDE_KEY: Record<InstallPlatform, string> = { ios: 'ios', android: 'android', other: 'desktop' };

function InstallGuide({ platform, isCurrent }: { platform: InstallPlatform; isCurrent: boolean }) {
  const { t } = useTranslation('marketing');
  const key = `download.install.${GUIDE_KEY[platform]}`;
  const steps = t(`${key}.steps`, { returnObjects: true }) as unknown;
  return (
    <li className={`install-guide${isCurrent ? ' install-guide--current' : ''}`} data-testid={`install-${platform}`}>
      <h3>
        {t(`${key}.title`)}
        {isCurrent && <span className="install-guide__badge">{t('download.install.yourDevice')}</span>}
      </h3>
      <ol>{Array.isArray(steps) && steps.map((step) => <li key={String(step)}>{String(step)}</li>)}</ol>
    </li>
  );
}

/**
 * /download: Meridian installs from the website as a Progressive Web App (manifest and service
 * worker, docs/marketing.md). The header's QR code opens this page on a phone: the install steps
 * for iPhone (Safari), Android (Chrome) and computers, the visitor's own first; an Install button
 * where the browser offers its prompt; the QR code for visitors on a computer.
 */
export function DownloadPage() {
  const { t } = useTranslation('marketing');
  const canPrompt = useCanPromptInstall();
  const [platform] = useState(() => installPlatformOf(navigator.userAgent, navigator.maxTouchPoints));
  const [installed, setInstalled] = useState(isInstalled);
  // On a phone its own steps first; on a computer the phones' first (the QR code is for them).
  const ordered = platform === 'other' ? PLATFORMS : [platform, ...PLATFORMS.filter((other) => other !== platform)];

  const heroActions = installed ? (
    <p className="install-done" data-testid="install-done">
      {t('download.install.installed')}
    </p>
  ) : canPrompt ? (
    <button
      type="button"
      className="btn btn--primary btn--lg"
      onClick={() => void promptInstall().then((accepted) => setInstalled(accepted))}
      data-testid="install-now"
    >
      {t('download.install.installNow')}
    </button>
  ) : (
    <a href="#install" className="btn btn--primary btn--lg">
      {t('download.install.title')}
    </a>
  );

  return (
    <ProductPage config={CONFIG} heroActions={heroActions}>
      <section id="install" className="product-section" data-testid="download-install">
        <div className="container">
          <div className="section-head">
            <h2>{t('download.install.title')}</h2>
          </div>
          <div className="install-layout">
            <ol className="install-guides">
              {ordered.map((item) => (
                <InstallGuide key={item} platform={item} isCurrent={item === platform && item !== 'other'} />
              ))}
            </ol>
            {platform === 'other' && (
              <aside className="install-scan" data-testid="download-scan">
                <div className="install-scan__code">
                  <Suspense fallback={<span className="download-qr__placeholder" />}>
                    <DownloadQrCode />
                  </Suspense>
                </div>
                <h3>{t('download.install.scanTitle')}</h3>
                <p>{t('download.install.scanBody')}</p>
              </aside>
            )}
          </div>
        </div>
      </section>
    </ProductPage>
  );
}
