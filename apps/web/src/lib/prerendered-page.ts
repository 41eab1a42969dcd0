import type { Locale } from '@meridian/contracts/locale';

/**
 * The attribute the build gives the prerendered copies' test ids (`scripts/postbuild.mjs`), so
 * end-to-end tests never find a static copy — there is one per language in the page — but only the
 * page the app has taken over.
 */
export const PRERENDER_TEST_ID_ATTRIBUTE = 'data-prerender-testid';

/**
 * The `identifierPrefix` of `useId` in the prerender of `locale` and in the app that hydrates it:
 * both must produce the same ids.
 */
export function prerenderIdPrefix(locale: Locale): string {
  return `pre-${locale}-`;
}

/**
 * Makes `container` (the app's `#root`) hold exactly what the prerender of `locale` rendered, so
 * that React can hydrate it (docs/performance.md, "Lighthouse: hydrating the prerendered pages"):
 * the copy's children move up into `container` (the nodes themselves: nothing is parsed or
 * repainted), the other language's copy and the boot header go, and the copy's test ids get their
 * own attribute back. Returns false, changing nothing, when `container` has no copy in `locale`.
 */
export function adoptPrerenderedCopy(container: HTMLElement, locale: Locale): boolean {
  const copy = [...container.children].find(
    (child) => child.classList.contains('prerender') && child.getAttribute('data-locale') === locale,
  );
  if (!copy) return false;
  for (const element of copy.querySelectorAll(`[${PRERENDER_TEST_ID_ATTRIBUTE}]`)) {
    element.setAttribute('data-testid', element.getAttribute(PRERENDER_TEST_ID_ATTRIBUTE) ?? '');
    element.removeAttribute(PRERENDER_TEST_ID_ATTRIBUTE);
  }
  container.replaceChildren(...copy.childNodes);
  return true;
}
