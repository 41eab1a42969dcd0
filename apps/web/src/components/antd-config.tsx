import { ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { type ReactNode, useEffect, useMemo } from 'react';
import { watchTableScrollAreas } from '../lib/focusable-scroll.ts';
import { matchLocale } from '../lib/locale.ts';
import { usePrefersReducedMotion } from '../lib/reduced-motion.ts';
import { useIsMobile } from '../lib/viewport.ts';
import antdCssUrl from '../styles/antd.css?url';
import { builtMapTokenAlgorithm } from './antd-map-token.ts';
import { THEME } from './antd-theme.ts';

let antdLocale: AntdLocale | undefined;
let textsLoading: Promise<void> | undefined;
/** The loads of Ant Design's stylesheets by URL (a failed one is dropped, so the next call tries again). */
const stylesLoading = new Map<string, Promise<void>>();

/**
 * The URL of one of Ant Design's generated stylesheets (`npm run antd:css -w @meridian/web`): the
 * full file `styles/antd.css` (every component the app uses), or an island's `styles/antd/<island>.css`
 * (the components that island renders, for the public pages; imported with `?url`).
 */
export type AntdStylesUrl = string;

/** The full file's URL: what `prepareAntd` loads unless told otherwise. */
export const FULL_ANTD_STYLES: AntdStylesUrl = antdCssUrl;

/**
 * Adds one of Ant Design's generated stylesheets (see `antd-theme.ts`) to the head and resolves once
 * it is loaded (at once when it is there already; a load under way is waited for).
 *
 * Where: before the app's own styles, so that the app's rules win over Ant Design's at equal
 * specificity (as when Ant Design inserted its styles at the head's start itself) — first in the
 * head, or right after Ant Design's stylesheets already there. Which: an island's file only while no
 * other of Ant Design's stylesheets is in the page; otherwise the full file. The full file holds
 * every island's rules in the same order, so once it follows an island's file, every rule's last
 * copy is the full file's and the cascade is exactly the full file's; two islands' files together
 * could order some rules differently, so that never happens.
 * @throws Error when the file cannot be loaded; the link is removed, so the next call tries again
 *   (the caller's island shows its error).
 */
function loadAntdStyles(requested: AntdStylesUrl): Promise<void> {
  const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[data-antd-styles]')];
  // Any other file already there (another island's, or the full one) means the full file.
  const url = links.some((link) => link.dataset.antdStyles !== requested) ? FULL_ANTD_STYLES : requested;
  const existing = links.find((link) => link.dataset.antdStyles === url);
  if (existing?.sheet) return Promise.resolve();
  const loading = stylesLoading.get(url);
  if (loading && existing) return loading;
  const link = document.createElement('link');
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        link.remove();
        stylesLoading.delete(url);
        reject(new Error(`Ant Design's styles did not load (${url})`));
      },
      { once: true },
    );
  });
  link.rel = 'stylesheet';
  link.href = url;
  link.dataset.antdStyles = url;
  const last = links.at(-1);
  if (last) last.after(link);
  else document.head.prepend(link);
  stylesLoading.set(url, loaded);
  return loaded;
}

/** Loads Ant Design's and dayjs's texts for the active language (only that language's files). */
async function loadAntdTexts(): Promise<void> {
  if (matchLocale(i18next.language) === 'zh-HK') {
    const [zhHK] = await Promise.all([import('antd/es/locale/zh_HK'), import('dayjs/locale/zh-hk')]);
    antdLocale = zhHK.default;
    dayjs.locale('zh-hk');
  } else {
    antdLocale = (await import('antd/es/locale/en_US')).default;
    dayjs.locale('en');
  }
}

/**
 * Loads Ant Design's styles (`loadAntdStyles`: the full file, or `styles` — an island's own file)
 * and its and dayjs's texts for the active language (`loadAntdTexts`), in parallel, before the
 * first antd component renders; changing language reloads the page. A failed load is tried again
 * on the next call.
 */
export function prepareAntd(styles: AntdStylesUrl = FULL_ANTD_STYLES): Promise<void> {
  textsLoading ??= loadAntdTexts().catch((error: unknown) => {
    textsLoading = undefined;
    throw error;
  });
  return Promise.all([loadAntdStyles(styles), textsLoading]).then(() => undefined);
}

/**
 * `THEME` with its map tokens read from the build (`builtMapTokenAlgorithm`) instead of derived in
 * the browser on the first render; the same tokens.
 */
export const THEME_WITH_BUILT_TOKENS: ThemeConfig = { ...THEME, algorithm: builtMapTokenAlgorithm };

/** The brand theme with Ant Design's animations off, for users who ask for reduced motion. */
const REDUCED_MOTION_THEME: ThemeConfig = { ...THEME_WITH_BUILT_TOKENS, token: { ...THEME.token, motion: false } };

/**
 * Ant Design configuration: brand theme, the active language, and button size middle on mobile and
 * large otherwise. In zh-HK a two-character button keeps its word whole: Ant Design's
 * default put a space inside it ("充 值", "取 消"). With the system's "reduce
 * motion" setting on, modals, drawers and menus open without animation. Tables' scroll areas are
 * made focusable so that a keyboard scrolls them (`watchTableScrollAreas`).
 */
export function AntdConfig({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const prefersReducedMotion = usePrefersReducedMotion();
  const button = useMemo(() => ({ autoInsertSpace: matchLocale(i18next.language) !== 'zh-HK' }), []);
  useEffect(() => watchTableScrollAreas(document.body), []);
  return (
    <ConfigProvider
      locale={antdLocale}
      theme={prefersReducedMotion ? REDUCED_MOTION_THEME : THEME_WITH_BUILT_TOKENS}
      componentSize={isMobile ? 'middle' : 'large'}
      button={button}
    >
      {children}
    </ConfigProvider>
  );
}
