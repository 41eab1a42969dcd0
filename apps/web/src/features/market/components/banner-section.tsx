import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useBanners } from '../api/get-banners.ts';

const BannerCarousel = lazy(() =>
  import('./banner-carousel.tsx').then((module) => ({ default: module.BannerCarousel })),
);

/** Placeholder slides of the carousel's exact size, so the page does not move when it arrives. */
function BannerSkeleton() {
  return (
    <div className="banner-skeleton" aria-hidden="true">
      <span />
      <span />
      <span />
    </div>
  );
}

/**
 * The banner area of the home page: the cached list shows at once, the carousel's code loads on
 * its own, and nothing is shown when there are no banners.
 */
export function BannerSection() {
  const { t } = useTranslation('home');
  const { data: banners, isPending } = useBanners();

  if (!isPending && (!banners || banners.length === 0)) return null;

  return (
    <section className="home-section home-banners" aria-labelledby="home-banners-title">
      <div className="container">
        <div className="section-head">
          <h2 id="home-banners-title">{t('banners.title')}</h2>
          <p>{t('banners.subtitle')}</p>
        </div>
        {banners && banners.length > 0 ? (
          <Suspense fallback={<BannerSkeleton />}>
            <BannerCarousel banners={banners} />
          </Suspense>
        ) : (
          <BannerSkeleton />
        )}
      </div>
    </section>
  );
}
