import type { Banner } from '@meridian/contracts/banner';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCarouselLoop } from '../hooks/use-carousel-loop.ts';
import { useCarouselWidths } from '../hooks/use-carousel-widths.ts';
import { usePrefersReducedMotion } from '../../../lib/reduced-motion.ts';
import { usePageHidden } from '../hooks/use-page-hidden.ts';
import { BannerCarouselControls } from './banner-carousel-controls.tsx';
import { BannerLink } from './banner-link.tsx';
import './banner-carousel.css';

/** Carousel settings: autoplay 5000 ms, looped, 16 px gap, slides 385 px (100% on extra small), pause on hover. */
export const CAROUSEL_AUTOPLAY_MS = 5000;
export const CAROUSEL_GAP_PX = 16;
export const CAROUSEL_SLIDE_WIDTH_PX = 385;

/**
 * The home banner carousel: 385 px slides 16 px apart (full width below 576 px), autoplay
 * every 5 s, looping without a visible rewind, paused while hovered or focused and while the tab
 * is hidden, and never autoplaying under the system's reduced-motion setting. Looping renders the
 * list more than once; the copies are hidden from assistive tech.
 */
export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const { t } = useTranslation('home');
  const count = banners.length;
  const viewportRef = useRef<HTMLDivElement>(null);
  const { slideWidthPx, viewportWidthPx } = useCarouselWidths(viewportRef, count, CAROUSEL_SLIDE_WIDTH_PX);
  const [isHovered, setHovered] = useState(false);
  const [isFocused, setFocused] = useState(false);
  const isPageHidden = usePageHidden();
  // No autoplay for users who ask for reduced motion: the slides stay put until they scroll them.
  const prefersReducedMotion = usePrefersReducedMotion();
  const isPaused = isHovered || isFocused || isPageHidden || prefersReducedMotion;
  const loop = useCarouselLoop(count, CAROUSEL_AUTOPLAY_MS, isPaused);

  const stepPx = slideWidthPx + CAROUSEL_GAP_PX;
  const visibleCount = Math.max(1, Math.ceil(viewportWidthPx / stepPx));
  // Enough copies that the window never runs past the end before it jumps back.
  const copies = count > 1 ? Math.max(2, Math.ceil(visibleCount / count) + 1) : 1;
  const slides = Array.from({ length: copies }, (_, copy) =>
    banners.map((banner, index) => ({ banner, copy, index })),
  ).flat();

  if (count === 0) return null;

  return (
    <div
      className="banner-carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={t('banners.label')}
      data-testid="banner-carousel"
      data-paused={isPaused}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="banner-carousel__viewport" ref={viewportRef}>
        <div
          className={`banner-carousel__track${loop.isAnimated ? ' is-animated' : ''}`}
          style={{ transform: `translate3d(${-loop.position * stepPx}px, 0, 0)`, gap: `${CAROUSEL_GAP_PX}px` }}
          onTransitionEnd={loop.onTransitionEnd}
        >
          {slides.map(({ banner, copy, index }) => {
            const isClone = copy > 0;
            return (
              <div
                key={`${copy}-${banner.bannerId}`}
                className="banner-slide"
                role="group"
                aria-roledescription="slide"
                aria-label={t('banners.slide', { index: index + 1, count })}
                aria-hidden={isClone || undefined}
                data-testid={isClone ? undefined : 'banner-slide'}
              >
                <BannerLink banner={banner} isClone={isClone}>
                  <img
                    src={banner.bannerImg}
                    alt={isClone ? '' : banner.title}
                    width={CAROUSEL_SLIDE_WIDTH_PX}
                    height={200}
                    loading={copy === 0 && index < 3 ? 'eager' : 'lazy'}
                    decoding="async"
                    draggable={false}
                  />
                </BannerLink>
              </div>
            );
          })}
        </div>
      </div>
      {count > 1 && (
        <BannerCarouselControls
          banners={banners}
          activeIndex={loop.position % count}
          onPrevious={loop.previous}
          onNext={loop.next}
          onGoTo={loop.goTo}
        />
      )}
    </div>
  );
}
