import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ArrowRightIcon,
  CardIcon,
  EarnIcon,
  ExchangeIcon,
  ExternalIcon,
  LoanIcon,
  MiningIcon,
  StablecoinIcon,
  TrustIcon,
} from '../../../components/icons.tsx';
import { MINING_SITE_URL } from '../../../config/links.ts';
import { pathTo, type StaticRouteName } from '../../../config/paths.ts';

interface BusinessLine {
  id: string;
  Icon: ComponentType<{ size?: number }>;
  route?: StaticRouteName;
  externalUrl?: string | null;
}

const LINES: readonly BusinessLine[] = [
  { id: 'earn', Icon: EarnIcon, route: 'Earn' },
  { id: 'trust', Icon: TrustIcon, route: 'Trust' },
  { id: 'loan', Icon: LoanIcon, route: 'Loan' },
  { id: 'card', Icon: CardIcon, route: 'Fiscard' },
  { id: 'usde', Icon: StablecoinIcon, route: 'USDE' },
  { id: 'exchange', Icon: ExchangeIcon, route: 'Exchange' },
  { id: 'mining', Icon: MiningIcon, externalUrl: MINING_SITE_URL },
];

/** The business-lines grid (spec §1): each product line with a short pitch and where to go. */
export function BusinessLines() {
  const { t } = useTranslation('home');

  return (
    <section className="home-section" aria-labelledby="home-lines-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-lines-title">{t('lines.title')}</h2>
          <p>{t('lines.subtitle')}</p>
        </div>
        <ul className="business-lines" data-testid="business-lines">
          {LINES.map(({ id, Icon, route, externalUrl }) => {
            const body = (
              <>
                <span className="business-line__icon">
                  <Icon size={26} />
                </span>
                <h3>{t(`lines.${id}.title`)}</h3>
                <p>{t(`lines.${id}.body`)}</p>
                <span className="business-line__more">
                  {route || externalUrl ? t('lines.more') : t('lines.soon')}
                  {route && <ArrowRightIcon size={16} />}
                  {externalUrl && <ExternalIcon size={16} />}
                </span>
              </>
            );
            return (
              <li key={id} data-testid={`business-line-${id}`}>
                {route ? (
                  <Link to={pathTo(route)} className="business-line">
                    {body}
                  </Link>
                ) : externalUrl ? (
                  <a href={externalUrl} target="_blank" rel="noopener noreferrer" className="business-line">
                    {body}
                  </a>
                ) : (
                  <div className="business-line business-line--soon">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
