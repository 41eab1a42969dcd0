import type { Banner } from '@meridian/contracts/banner';
import { useTranslation } from 'react-i18next';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons.tsx';

export interface BannerCarouselControlsProps {
  banners: Banner[];
  /** Index of the banner shown first. */
  activeIndex: number;
  onPrevious: () => void;
  onNext: () => void;
  onGoTo: (index: number) => void;
}

/** The carousel's previous and next arrows and one dot per banner. */
export function BannerCarouselControls({
  banners,
  activeIndex,
  onPrevious,
  onNext,
  onGoTo,
}: BannerCarouselControlsProps) {
  const { t } = useTranslation('home');
  return (
    <div className="banner-carousel__controls">
      <button type="button" className="banner-carousel__arrow" onClick={onPrevious} aria-label={t('banners.previous')}>
        <ChevronLeftIcon size={18} />
      </button>
      <div className="banner-carousel__dots">
        {banners.map((banner, index) => (
          <button
            key={banner.bannerId}
            type="button"
            className={`banner-carousel__dot${index === activeIndex ? ' is-active' : ''}`}
            aria-label={t('banners.goTo', { index: index + 1 })}
            aria-current={index === activeIndex || undefined}
            onClick={() => onGoTo(index)}
          />
        ))}
      </div>
      <button type="button" className="banner-carousel__arrow" onClick={onNext} aria-label={t('banners.next')}>
        <ChevronRightIcon size={18} />
      </button>
    </div>
  );
}
