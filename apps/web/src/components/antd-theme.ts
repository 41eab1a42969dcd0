import type { ThemeConfig } from 'antd';

/**
 * Ant Design's theme: the brand palette shared with the plain-CSS shell (`styles/tokens.css`).
 *
 * Ant Design's styles are generated from it at build time, not in the browser (issue 20, Lighthouse's
 * total blocking time: generating and inserting them on an island's first mount was the page's
 * longest work): `npm run antd:css -w @meridian/web` writes `styles/antd.css` from this theme and the
 * components the app imports (`scripts/antd-css.ts`), `prepareAntd` loads that file, and
 * `zeroRuntime` keeps Ant Design from generating styles at runtime. After changing the theme or
 * Ant Design's version, run that command (a unit test fails until the file matches). `hashed: false`
 * gives the file plain `.ant-*` selectors; the design tokens stay CSS variables (`cssVar`).
 */
export const THEME: ThemeConfig = {
  zeroRuntime: true,
  hashed: false,
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
