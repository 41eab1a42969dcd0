/**
 * Locales the product speaks (en-US default, zh-HK).
 * The `User-Lang` request header carries one of these; anything else falls back to the default.
 */
export const LOCALES = ['en-US', 'zh-HK'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

/** Whether a header or query value names a supported locale. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Narrow an arbitrary header or query value to a supported locale, falling back to en-US. */
export function toLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** A text in every supported locale. */
export type LocalizedText = Record<Locale, string>;

/**
 * Fill `{name}` placeholders of a template. Unknown placeholders are left as written so a missing
 * parameter is visible rather than silently blank.
 */
export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
