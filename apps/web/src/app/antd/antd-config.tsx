import { ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { type ReactNode, useMemo } from 'react';
import { matchLocale } from '../../lib/locale.ts';
import { usePrefersReducedMotion } from '../../lib/reduced-motion.ts';
import { useIsMobile } from '../../lib/viewport.ts';

/** Brand palette shared with the plain-CSS shell (`styles/tokens.css`). */
export const THEME: ThemeConfig = {
  cssVar: { key: 'meridian' },
  token: {
    colorPrimary: '#0d9488',
    colorInfo: '#0d9488',
    colorLink: '#0f766e',
    colorTextBase: '#0f172a',
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
 * motion" setting on, modals, drawers and menus open without animation.
 */
export function AntdConfig({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const prefersReducedMotion = usePrefersReducedMotion();
  const button = useMemo(() => ({ autoInsertSpace: matchLocale(i18next.language) !== 'zh-HK' }), []);
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
