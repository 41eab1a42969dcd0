import { ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { type ReactNode, useEffect, useMemo } from 'react';
import { watchTableScrollAreas } from '../lib/focusable-scroll.ts';
import { matchLocale } from '../lib/locale.ts';
import { usePrefersReducedMotion } from '../lib/reduced-motion.ts';
import { useIsMobile } from '../lib/viewport.ts';

/** Brand palette shared with the plain-CSS shell (`styles/tokens.css`). */
export const THEME: ThemeConfig = {
  cssVar: { key: 'meridian' },
  token: {
    // Teal 700, not 600: white on #0d9488 measured 3.7:1, under WCAG AA's 4.5:1 for button labels
    // and links (issue 20, axe color-contrast); #0f766e gives 5.5:1.
    colorPrimary: '#0f766e',
    colorInfo: '#0f766e',
    colorLink: '#0f766e',
    colorTextBase: '#0f172a',
    // Secondary texts (descriptions' labels, breadcrumbs, result subtitles) at 4.5:1 or more on
    // white and on the page's #f4f7fb: Ant Design's 45 % ink gave 2.9:1.
    colorTextTertiary: '#5b6474',
    colorTextDescription: '#5b6474',
    // Placeholders and empty-table texts (Ant Design's 25 % ink: 1.7:1) and the status colours as
    // text (success 2.3:1, warning 1.9:1, error 3.3:1) darkened to 4.5:1 or more on white.
    colorTextQuaternary: '#6b7280',
    colorTextPlaceholder: '#6b7280',
    colorSuccess: '#237804',
    colorWarning: '#ad6800',
    colorError: '#cf1322',
    borderRadius: 10,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang HK', 'Noto Sans CJK TC', 'Microsoft JhengHei', sans-serif",
  },
  components: {
    Menu: { itemBorderRadius: 8, subMenuItemBorderRadius: 8, itemSelectedBg: '#e6f6f4', itemSelectedColor: '#0f766e' },
    Modal: { titleFontSize: 18 },
  },
};

let antdLocale: AntdLocale | undefined;
let preparing: Promise<void> | undefined;

/**
 * Loads Ant Design's and dayjs's texts for the active language before the first antd component
 * renders. Only the active language's file is downloaded; changing language reloads the page.
 */
export function prepareAntd(): Promise<void> {
  preparing ??= (async () => {
    if (matchLocale(i18next.language) === 'zh-HK') {
      const [zhHK] = await Promise.all([import('antd/es/locale/zh_HK'), import('dayjs/locale/zh-hk')]);
      antdLocale = zhHK.default;
      dayjs.locale('zh-hk');
    } else {
      antdLocale = (await import('antd/es/locale/en_US')).default;
      dayjs.locale('en');
    }
  })();
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
