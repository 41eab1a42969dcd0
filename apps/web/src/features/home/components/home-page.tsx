import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ArrowRightIcon } from '../../../components/icons.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { formatRateBps, useSite } from '../../../lib/get-site.ts';
import { requestOverlayHost } from '../../../stores/overlay-host-store.ts';
import { BusinessLines } from './business-lines.tsx';
import { HeroArt } from './hero-art.tsx';
import './home.css';

/**
 * The four statistic tiles: the first reads 500+ and the third 6+; the others come from
 * the texts, except the yield, which is the highest rate of the funds open now (`GET site`) once it
 * arrives — the text (the top yield, 10.8%) is the first paint and the fallback.
 */
const STAT_TILES = [
  { id: 'clients', value: '500+' },
  { id: 'coverage', valueKey: 'stats.coverage.value' },
  { id: 'products', value: '6+' },
  { id: 'yield', valueKey: 'stats.yield.value' },
] as const;

interface HomePageProps {
  /** The banner carousel section (market feature). */
  banners?: ReactNode;
  /** SLOT: the market table, which arrives with the markets issue. */
  marketTable?: ReactNode;
}

/**
 * The home page: headline and statistics, banners, market table, business lines. The
 * banner and market sections come from the market feature and are composed in by the app.
 */
export function HomePage({ banners, marketTable }: HomePageProps) {
  const { t } = useTranslation('home');
  const userId = useUserId();
  const { topAnnualRateBps } = useSite().stats;
  const tileValue = (tile: (typeof STAT_TILES)[number]): string =>
    'value' in tile
      ? tile.value
      : tile.id === 'yield' && topAnnualRateBps !== null
        ? formatRateBps(topAnnualRateBps)
        : t(tile.valueKey);

  return (
    <div className="home" data-testid="home-page">
      <section className="hero">
        <div className="container hero__inner">
          <div className="hero__copy">
            <p className="eyebrow">{t('hero.eyebrow')}</p>
            <h1 className="hero__title" data-testid="home-headline">
              {t('hero.title')}
            </h1>
            <p className="hero__lead">{t('hero.lead')}</p>
            <div className="hero__actions">
              {userId ? (
                <Link to={pathTo('AccountOverview')} className="btn btn--primary btn--lg">
                  {t('hero.myAccount')}
                </Link>
              ) : (
                <button
                  type="button"
                  className="btn btn--primary btn--lg guest-only"
                  onPointerEnter={requestOverlayHost}
                  onClick={() => openActionModal('register')}
                  data-testid="hero-register"
                >
                  {t('hero.register')}
                </button>
              )}
              <Link to={pathTo('Earn')} className="btn btn--ghost btn--lg">
                {t('hero.explore')} <ArrowRightIcon size={18} />
              </Link>
            </div>
          </div>
          <HeroArt />
        </div>
        <div className="container">
          <ul className="stat-tiles" data-testid="stat-tiles">
            {STAT_TILES.map((tile) => (
              <li key={tile.id} className="stat-tile" data-testid={`stat-tile-${tile.id}`}>
                <strong>{tileValue(tile)}</strong>
                <span>{t(`stats.${tile.id}.label`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {banners}

      {/* SLOT: the market table arrives with the markets issue; it renders nothing until then. */}
      {marketTable}

      <BusinessLines />

      <section className="home-section home-cta">
        <div className="container">
          <div className="home-cta__inner">
            <div>
              <h2>{t('cta.title')}</h2>
              <p>{t('cta.body')}</p>
            </div>
            {!userId && (
              <button
                type="button"
                className="btn btn--primary btn--lg guest-only"
                onPointerEnter={requestOverlayHost}
                onClick={() => openActionModal('register')}
              >
                {t('cta.action')}
              </button>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
