import type { Locator } from '@playwright/test';

/**
 * Computed-style reads for layout assertions. The e2e project compiles without the DOM library, so
 * the browser-side globals these functions use are declared here, as narrowly as they are used.
 */
declare const getComputedStyle: (element: unknown) => {
  lineHeight: string;
  fontSize: string;
  color: string;
  paddingTop: string;
  paddingBottom: string;
  borderTopWidth: string;
  borderBottomWidth: string;
};

/** The height of one line of the element's text, in CSS px (`normal` taken as 1.2 × the font size). */
export async function lineHeightPx(element: Locator): Promise<number> {
  const style = await element.evaluate((node) => {
    const computed = getComputedStyle(node);
    return { lineHeight: computed.lineHeight, fontSize: computed.fontSize };
  });
  return style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.2 : parseFloat(style.lineHeight);
}

/** The element's content height (its box without padding and borders) is one line of its text (less than 1.5 lines). */
export async function isOneLine(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const insetPx = await element.evaluate((node) => {
    const style = getComputedStyle(node);
    return [style.paddingTop, style.paddingBottom, style.borderTopWidth, style.borderBottomWidth].reduce(
      (sum, value) => sum + (parseFloat(value) || 0),
      0,
    );
  });
  return (box?.height ?? Infinity) - insetPx < (await lineHeightPx(element)) * 1.5;
}

/** WCAG 2 contrast ratio of the element's text colour (alpha blended) on a white background. */
export async function contrastOnWhite(element: Locator): Promise<number> {
  const color = await element.evaluate((node) => getComputedStyle(node).color);
  const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const channel = (value: number) => {
    const c = (value * a + 255 * (1 - a)) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}
