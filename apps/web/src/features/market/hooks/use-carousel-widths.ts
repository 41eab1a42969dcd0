import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The carousel viewport's width and one slide's width in px, measured now and on every resize of
 * the viewport; `slideWidthPx` starts at `initialSlideWidthPx` until a slide is measured.
 */
export function useCarouselWidths(
  viewportRef: RefObject<HTMLDivElement | null>,
  slideCount: number,
  initialSlideWidthPx: number,
) {
  const [slideWidthPx, setSlideWidthPx] = useState(initialSlideWidthPx);
  const [viewportWidthPx, setViewportWidthPx] = useState(0);

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
  }, [viewportRef, slideCount]);

  return { slideWidthPx, viewportWidthPx };
}
