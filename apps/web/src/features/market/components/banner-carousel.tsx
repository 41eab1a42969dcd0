import type { Banner } from '@meridian/contracts/banner';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons.tsx';
import './banner-carousel.css';

/** Carousel settings of spec §9. */
export const CAROUSEL_AUTOPLAY_MS = 5000;
export const CAROUSEL_GAP_PX = 16;
export const CAROUSEL_SLIDE_WIDTH_PX = 385;

function BannerLink({ banner, isClone, children }: { banner: Banner; isClone: boolean; children: ReactNode }) {
  const common = { className: 'banner-slide__link', tabIndex: isClone ? -1 : undefined, 'aria-label': banner.title };
  if (!banner.webLink) return <span className="banner-slide__link">{children}</span>;
  if (banner.isBlank) {
    return (
      <a href={banner.webLink} target="_blank" rel="noopener noreferrer" {...common}>
        {children}
      </a>
    );
  }
  if (banner.webLink.startsWith('/')) {
    return (
      <Link to={banner.webLink} {...common}>
        {children}
      </Link>
    );
  }
  return (
    <a href={banner.webLink} {...common}>
      {children}
    </a>
  );
}

/**
 * The home banner carousel (spec §9): 385 px slides 16 px apart (full width below 576 px), autoplay
 * every 5 s, looping without a visible rewind, paused while hovered or focused and while the tab
 * is hidden. Looping renders the list more than once; the copies are hidden from assistive tech.
 */
export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const { t } = useTranslation('home');
  const count = banners.length;
  const viewportRef = useRef<HTMLDivElement>(null);
  const [slideWidthPx, setSlideWidthPx] = useState(CAROUSEL_SLIDE_WIDTH_PX);
  const [viewportWidthPx, setViewportWidthPx] = useState(0);
  const [position, setPosition] = useState(0);
  const [isAnimated, setAnimated] = useState(true);
  const [isHovered, setHovered] = useState(false);
  const [isFocused, setFocused] = useState(false);
  const [isPageHidden, setPageHidden] = useState(false);

  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const measure = () => {
      const slide = viewport.querySelector<HTMLElement>('.banner-slide');
      setViewportWidthPx(viewport.clientWidth);
      if (slide) setSlideWidthPx(slide.getBoundingClientRect().width);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(viewport);
    return () => observer.disconnect();
  }, [count]);

  useEffect(() => {
    const onVisibility = () => setPageHidden(document.hidden);
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  const stepPx = slideWidthPx + CAROUSEL_GAP_PX;
  const visibleCount = Math.max(1, Math.ceil(viewportWidthPx / stepPx));
  // Enough copies that the window never runs past the end before it jumps back.
  const copies = count > 1 ? Math.max(2, Math.ceil(visibleCount / count) + 1) : 1;
  const slides = Array.from({ length: copies }, (_, copy) => banners.map((banner, index) => ({ banner, copy, index }))).flat();

  const next = useCallback(() => {
    setAnimated(true);
    setPosition((current) => current + 1);
  }, []);

  const previous = () => {
    if (position > 0) {
      setAnimated(true);
      setPosition(position - 1);
      return;
    }
    // At the start: jump unseen to the same slide in the next copy, then animate one step back.
    setAnimated(false);
    setPosition(count);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        setAnimated(true);
        setPosition(count - 1);
      }),
    );
  };

  const onTransitionEnd = () => {
    if (position < count) return;
    setAnimated(false);
    setPosition(position - count);
  };

  useEffect(() => {
    if (isAnimated) return;
    const handle = requestAnimationFrame(() => requestAnimationFrame(() => setAnimated(true)));
    return () => cancelAnimationFrame(handle);
  }, [isAnimated]);

  const isPaused = isHovered || isFocused || isPageHidden;
  useEffect(() => {
    if (count < 2 || isPaused) return;
    const timer = setInterval(next, CAROUSEL_AUTOPLAY_MS);
    return () => clearInterval(timer);
  }, [count, isPaused, next]);

  if (count === 0) return null;
  const active = position % count;

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
          className={`banner-carousel__track${isAnimated ? ' is-animated' : ''}`}
          style={{ transform: `translate3d(${-position * stepPx}px, 0, 0)`, gap: `${CAROUSEL_GAP_PX}px` }}
          onTransitionEnd={onTransitionEnd}
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
        <div className="banner-carousel__controls">
          <button type="button" className="banner-carousel__arrow" onClick={previous} aria-label={t('banners.previous')}>
            <ChevronLeftIcon size={18} />
          </button>
          <div className="banner-carousel__dots">
            {banners.map((banner, index) => (
              <button
                key={banner.bannerId}
                type="button"
                className={`banner-carousel__dot${index === active ? ' is-active' : ''}`}
                aria-label={t('banners.goTo', { index: index + 1 })}
                aria-current={index === active || undefined}
                onClick={() => {
                  setAnimated(true);
                  setPosition(index);
                }}
              />
            ))}
          </div>
          <button type="button" className="banner-carousel__arrow" onClick={next} aria-label={t('banners.next')}>
            <ChevronRightIcon size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
