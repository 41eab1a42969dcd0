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
import { THEME } from './antd-theme.ts';

let antdLocale: AntdLocale | undefined;
let preparing: Promise<void> | undefined;

/**
 * Adds Ant Design's generated styles (`styles/antd.css`, see `antd-theme.ts`) as the head's first
 * stylesheet and resolves once they are loaded (at once when they are there already; a load under
 * way is waited for). First, so that the app's own rules win over Ant Design's at equal
 * specificity, as they did when Ant Design inserted its styles at the head's start itself.
 * @throws Error when the file cannot be loaded; the link is removed, so the next call tries again
 *   (the caller's island shows its error).
 */
function loadAntdStyles(): Promise<void> {
  const existing = document.head.querySelector<HTMLLinkElement>('link[data-antd-styles]');
  if (existing?.sheet) return Promise.resolve();
  const link = existing ?? document.createElement('link');
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        link.remove();
        reject(new Error(`Ant Design's styles did not load (${antdCssUrl})`));
      },
      { once: true },
    );
  });
  if (!existing) {
    link.rel = 'stylesheet';
    link.href = antdCssUrl;
    link.dataset.antdStyles = '';
    document.head.prepend(link);
  }
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
 * Loads Ant Design's styles (`loadAntdStyles`) and its and dayjs's texts for the active language
 * (`loadAntdTexts`), in parallel, before the first antd component renders; changing language
 * reloads the page. A failed load is tried again on the next call.
 */
export function prepareAntd(): Promise<void> {
  preparing ??= Promise.all([loadAntdStyles(), loadAntdTexts()]).then(
    () => undefined,
    (error: unknown) => {
      preparing = undefined;
      throw error;
    },
  );
  return preparing;
}

/** The brand theme with Ant Design's animations off, for users who ask for reduced motion. */
const REDUCED_MOTION_THEME: ThemeConfig = { ...THEME, token: { ...THEME.token, motion: false } };

/**
 * Ant Design configuration: brand theme, the active language, and button size middle on mobile and
 * large otherwise (spec §9). In zh-HK a two-character button keeps its word whole: Ant Design's
 * default put a space inside it ("充 值", "取 消"; issue 14 item 15). With the system's "reduce
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
      theme={prefersReducedMotion ? REDUCED_MOTION_THEME : THEME}
      componentSize={isMobile ? 'middle' : 'large'}
      button={button}
    >
      {children}
    </ConfigProvider>
  );
}
