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
import { pathTo, type StaticRouteName } from '../../../config/paths.ts';
import { useSite } from '../../../lib/get-site.ts';

interface BusinessLine {
  id: string;
  Icon: ComponentType<{ size?: number }>;
  /** A page of this app. */
  route?: StaticRouteName;
  /** A separate site (the exchange, the mining site); the line is hidden while unset. */
  externalUrl?: string | null;
}

/**
 * The lines in grid order. The exchange opens its separate site when the operator set
 * `SITE_EXCHANGE_URL`, and the in-app swap otherwise; the mining line exists only with `SITE_MINING_URL`.
 */
function businessLines(site: { exchangeUrl: string | null; miningUrl: string | null }): BusinessLine[] {
  const lines: BusinessLine[] = [
    { id: 'earn', Icon: EarnIcon, route: 'Earn' },
    { id: 'trust', Icon: TrustIcon, route: 'Trust' },
    { id: 'loan', Icon: LoanIcon, route: 'Loan' },
    { id: 'card', Icon: CardIcon, route: 'Fiscard' },
    { id: 'usde', Icon: StablecoinIcon, route: 'USDE' },
    site.exchangeUrl
      ? { id: 'exchange', Icon: ExchangeIcon, externalUrl: site.exchangeUrl }
      : { id: 'exchange', Icon: ExchangeIcon, route: 'Exchange' },
  ];
  if (site.miningUrl) lines.push({ id: 'mining', Icon: MiningIcon, externalUrl: site.miningUrl });
  return lines;
}

/** The business-lines grid: each product line with a short pitch and where to go. */
export function BusinessLines() {
  const { t } = useTranslation('home');
  const site = useSite();

  return (
    <section className="home-section" aria-labelledby="home-lines-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-lines-title">{t('lines.title')}</h2>
          <p>{t('lines.subtitle')}</p>
        </div>
        <ul className="business-lines" data-testid="business-lines">
          {businessLines(site).map(({ id, Icon, route, externalUrl }) => {
            const body = (
              <>
                <span className="business-line__icon">
                  <Icon size={26} />
                </span>
                <h3>{t(`lines.${id}.title`)}</h3>
                <p>{t(`lines.${id}.body`)}</p>
                <span className="business-line__more">
                  {externalUrl ? t('lines.visit') : t('lines.more')}
                  {route ? <ArrowRightIcon size={16} /> : <ExternalIcon size={16} />}
                </span>
              </>
            );
            return (
              <li key={id} data-testid={`business-line-${id}`}>
                {route ? (
                  <Link to={pathTo(route)} className="business-line">
                    {body}
                  </Link>
                ) : (
                  <a
                    href={externalUrl ?? undefined}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="business-line"
                  >
                    {body}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
