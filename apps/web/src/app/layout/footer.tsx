import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LinkedInIcon, TelegramIcon, XIcon, YouTubeIcon } from '../../components/icons.tsx';
import { Logo } from '../../components/logo.tsx';
import type { SocialLinkId } from '@meridian/contracts/site';
import { pathTo } from '../../config/paths.ts';
import { useSite } from '../../lib/get-site.ts';
import { TOP_MENU_ITEMS } from './top-menu-items.ts';

const SOCIAL_ICONS: Record<SocialLinkId, typeof XIcon> = {
  x: XIcon,
  telegram: TelegramIcon,
  linkedin: LinkedInIcon,
  youtube: YouTubeIcon,
};

const SOCIAL_LABELS: Record<SocialLinkId, string> = {
  x: 'X',
  telegram: 'Telegram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
};

/**
 * Site footer: company links, the Privacy Policy and AML/KYC documents in a new tab, the
 * social accounts the operator configured (`GET site`; none shown while unset), copyright.
 */
export function Footer() {
  const { t } = useTranslation();
  const { social } = useSite();
  const year = new Date().getFullYear();

  return (
    <footer className="site-footer" data-testid="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <Logo height={28} />
          <p>{t('footer.tagline')}</p>
          {social.length > 0 && (
            <ul className="site-footer__social" aria-label={t('footer.social')} data-testid="footer-social">
              {social.map((link) => {
                const Icon = SOCIAL_ICONS[link.id];
                return (
                  <li key={link.id}>
                    <a href={link.href} target="_blank" rel="noopener noreferrer" aria-label={SOCIAL_LABELS[link.id]}>
                      <Icon />
                    </a>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <nav className="site-footer__column" aria-label={t('footer.company')}>
          <h2>{t('footer.company')}</h2>
          <Link to={pathTo('About')} data-testid="footer-about">
            {t('footer.about')}
          </Link>
          <a href={pathTo('PrivacyPolicy')} target="_blank" rel="noopener" data-testid="footer-privacy">
            {t('footer.privacy')}
          </a>
          <a href={pathTo('AmlKycPolicy')} target="_blank" rel="noopener" data-testid="footer-aml">
            {t('footer.amlKyc')}
          </a>
          <Link to={pathTo('Download')}>{t('footer.download')}</Link>
          <Link to={pathTo('ProofOfLiabilities')} data-testid="footer-liabilities">
            {t('footer.liabilities')}
          </Link>
        </nav>
        <nav className="site-footer__column" aria-label={t('footer.products')}>
          <h2>{t('footer.products')}</h2>
          {TOP_MENU_ITEMS.map((item) => (
            <Link key={item.id} to={pathTo(item.route)}>
              {t(`menu.${item.id}`)}
            </Link>
          ))}
        </nav>
      </div>
      <div className="site-footer__legal">
        <p className="site-footer__risk">{t('footer.risk')}</p>
        <p data-testid="footer-copyright">{t('footer.copyright', { year })}</p>
      </div>
    </footer>
  );
}
