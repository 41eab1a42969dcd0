import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LinkedInIcon, TelegramIcon, XIcon, YouTubeIcon } from '../../components/icons.tsx';
import { Logo } from '../../components/logo.tsx';
import { SOCIAL_LINKS, type SocialLink } from '../../config/links.ts';
import { pathTo } from '../../config/paths.ts';
import { TOP_MENU_ITEMS } from './top-menu-items.ts';

const SOCIAL_ICONS: Record<SocialLink['id'], typeof XIcon> = {
  x: XIcon,
  telegram: TelegramIcon,
  linkedin: LinkedInIcon,
  youtube: YouTubeIcon,
};

/** Site footer (spec §2): company links, the AML/KYC document in a new tab, social links, copyright. */
export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();

  return (
    <footer className="site-footer" data-testid="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <Logo height={28} />
          <p>{t('footer.tagline')}</p>
          {SOCIAL_LINKS.length > 0 && (
            <ul className="site-footer__social" aria-label={t('footer.social')} data-testid="footer-social">
              {SOCIAL_LINKS.map((link) => {
                const Icon = SOCIAL_ICONS[link.id];
                return (
                  <li key={link.id}>
                    <a href={link.href} target="_blank" rel="noopener noreferrer" aria-label={link.label}>
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
          <Link to={pathTo('PrivacyPolicy')} data-testid="footer-privacy">
            {t('footer.privacy')}
          </Link>
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
