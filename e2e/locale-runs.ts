/** The languages every user-facing flow is driven in (spec: en-US and zh-HK). */
export const LOCALES = ['en-US', 'zh-HK'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The project (width) each language's run of a long flow uses: en-US at the desktop width
 * (1280 px), zh-HK at the phone width (390 px). Together they cover both languages and both
 * layouts; running every flow in all four combinations doubled the e2e time for no new path.
 */
export const PROJECT_OF_LOCALE: Record<Locale, 'desktop' | 'mobile'> = { 'en-US': 'desktop', 'zh-HK': 'mobile' };

/**
 * Declares, inside a `test.describe` of one locale's tests, that they run on that locale's project
 * only (`PROJECT_OF_LOCALE`; the mobile project is the one with `isMobile`). Declared rather than
 * called in the test body, so that a skipped run starts no fixtures (a spec's own server).
 */
export function runOnLocaleProject(
  test: { skip(condition: (fixtures: { isMobile: boolean }) => boolean, description: string): void },
  locale: Locale,
): void {
  const project = PROJECT_OF_LOCALE[locale];
  test.skip(({ isMobile }) => isMobile !== (project === 'mobile'), `${locale} runs on the ${project} project`);
}
