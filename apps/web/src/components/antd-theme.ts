import type { ThemeConfig } from 'antd';
import { COLOURS, DECORATIVE_COLOURS } from '../styles/colour-tokens.ts';

/**
 * Ant Design's theme: its colours are the app's colour tokens (`styles/colour-tokens.ts`), the same
 * values the plain-CSS shell reads as `--colour-*` variables, each checked for contrast against the
 * surfaces it is drawn on (docs/accessibility.md "Colour tokens").
 *
 * Ant Design's styles are generated from it at build time, not in the browser (Lighthouse's total
 * blocking time: generating and inserting them on an island's first mount was the page's longest
 * work): `npm run antd:css -w @meridian/web` writes `styles/antd.css` from this theme and the
 * components the app imports (`scripts/antd-css.ts`), `prepareAntd` loads that file, and
 * `zeroRuntime` keeps Ant Design from generating styles at runtime. After changing the theme, a
 * colour token or Ant Design's version, run that command (a unit test fails until the file
 * matches). `hashed: false` gives the file plain `.ant-*` selectors; the design tokens stay CSS
 * variables (`cssVar`).
 *
 * The status colours' washes and borders are set, not derived: from a dark seed (success #237804)
 * Ant Design derives a grey wash (#adb8a5) on which its own text is 2.7:1.
 */
export const THEME: ThemeConfig = {
  zeroRuntime: true,
  hashed: false,
  cssVar: { key: 'meridian' },
  token: {
    colorPrimary: COLOURS.primary,
    colorPrimaryBg: COLOURS.primarySubtle,
    colorPrimaryBgHover: COLOURS.primarySubtleHover,
    colorInfo: COLOURS.info,
    colorInfoBg: COLOURS.infoBackground,
    colorInfoBorder: DECORATIVE_COLOURS.infoBorder,
    colorLink: COLOURS.link,
    colorTextBase: COLOURS.text,
    colorTextTertiary: COLOURS.textTertiary,
    colorTextDescription: COLOURS.textTertiary,
    colorTextQuaternary: COLOURS.textPlaceholder,
    colorTextPlaceholder: COLOURS.textPlaceholder,
    colorTextDisabled: COLOURS.textPlaceholder,
    colorBgContainer: COLOURS.surface,
    colorBgContainerDisabled: COLOURS.controlDisabledBackground,
    colorBorder: COLOURS.controlBorder,
    colorSuccess: COLOURS.success,
    colorSuccessBg: COLOURS.successBackground,
    colorSuccessBorder: DECORATIVE_COLOURS.successBorder,
    colorWarning: COLOURS.warning,
    colorWarningBg: COLOURS.warningBackground,
    colorWarningBorder: DECORATIVE_COLOURS.warningBorder,
    colorError: COLOURS.error,
    colorErrorBg: COLOURS.errorBackground,
    colorErrorBorder: DECORATIVE_COLOURS.errorBorder,
    borderRadius: 10,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang HK', 'Noto Sans CJK TC', 'Microsoft JhengHei', sans-serif",
  },
  components: {
    Menu: {
      itemBorderRadius: 8,
      subMenuItemBorderRadius: 8,
      itemSelectedBg: COLOURS.primarySubtle,
      itemSelectedColor: COLOURS.primary,
    },
    Modal: { titleFontSize: 18 },
  },
};
