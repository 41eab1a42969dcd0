/**
 * The web app's colours: the one place a colour is written (docs/accessibility.md "Colour tokens").
 *
 * - `COLOURS` are the semantic tokens: each names a role (body text, the market's "up", the LTV's
 *   margin-call band), never a hue. Stylesheets read them as CSS variables, `--colour-<kebab name>`
 *   (`marketUp` → `--colour-market-up`), from `styles/colour-tokens.css`, which
 *   `npm run colours:css -w @meridian/web` writes from this file (a unit test fails until it is
 *   fresh); Ant Design's theme (`components/antd-theme.ts`) and the charts read them from here.
 * - `DECORATIVE_COLOURS` carry no meaning (gradients' stops, glows, hover washes, skeletons): no
 *   text or control depends on them, so they have no contrast requirement of their own; they are
 *   emitted the same way and may still be the background of a checked pair.
 * - `SHADOWS` are whole box-shadow values, emitted as `--shadow-<kebab name>`.
 * - `CONTRAST_PAIRS` lists every foreground drawn on every background it is drawn on; the unit test
 *   beside this file computes each pair's WCAG 2.1 contrast ratio and fails under 4.5:1 for text,
 *   3:1 for large text and for non-text (icons, control boundaries, chart marks, focus rings).
 *
 * Values are `#rrggbb`, or `rgb(r g b / a%)` for a translucent colour, which is checked over the
 * opaque backdrop its pair names.
 */

/** The named shades the tokens are built from; a shade used by several roles is written once here. */
const PALETTE = {
  white: '#ffffff',
  navy950: '#060d1f',
  navy900: '#0b1630',
  navy800: '#12214a',
  navy700: '#1c2f63',
  teal50: '#e6f6f4',
  teal300: '#5eead4',
  teal400: '#2dd4bf',
  teal500: '#14b8a6',
  teal600: '#0d9488',
  // Teal 700, not 600, for text and for white on it: white on teal 600 is 3.7:1, under 4.5:1.
  teal700: '#0f766e',
  ink: '#0f172a',
  inkSoft: '#334155',
  slate: '#5b6b86',
  grey: '#5b6474',
  border: '#e3e8f0',
  page: '#f4f7fb',
  // Green 700, red 600, yellow 700 and orange 700: the darkest shade each needs for 4.5:1 on white
  // (green 600 #16a34a gave 3.3:1, yellow 600 #ca8a04 2.9:1, orange 600 #ea580c 3.6:1).
  green700: '#15803d',
  red600: '#dc2626',
  yellow700: '#a16207',
  orange700: '#c2410c',
} as const;

/** A colour as tokens write it: `#rrggbb`, or `rgb(r g b / a%)` when it is translucent. */
export type ColourValue = `#${string}` | `rgb(${string})`;

/** The semantic colour tokens (see the module's comment). */
export const COLOURS = {
  // Surfaces. `page` is the background behind the cards; `surfaceNote` the tinted note boxes.
  surface: PALETTE.white,
  page: PALETTE.page,
  surfaceHover: PALETTE.page,
  surfaceNote: '#eef2f8',
  // The dark surfaces: header and heroes (navy 900), footer (950), banners and raised dark cards.
  surfaceInverse: PALETTE.navy900,
  surfaceInverseDeep: PALETTE.navy950,
  surfaceInverseRaised: PALETTE.navy800,
  surfaceInverseBright: PALETTE.navy700,
  /** The site header: navy 900 at 96 %, over whatever scrolls beneath it. */
  headerBackground: 'rgb(11 22 48 / 96%)',

  // Text on light surfaces.
  text: PALETTE.ink,
  textSoft: PALETTE.inkSoft,
  textSecondary: PALETTE.slate,
  /** Ant Design's tertiary and description texts, breadcrumbs, labels of figures. */
  textTertiary: PALETTE.grey,
  /**
   * Placeholders, empty states and quiet controls that stay enabled (Ant Design's quaternary,
   * placeholder and disabled texts): 4.5:1 on white, the page and a disabled field's wash.
   */
  textPlaceholder: '#6a717f',

  // Text on dark surfaces.
  onDark: PALETTE.white,
  textOnDarkSecondary: 'rgb(255 255 255 / 72%)',
  textOnDarkTertiary: 'rgb(255 255 255 / 50%)',
  headerText: 'rgb(255 255 255 / 78%)',
  headerChipText: 'rgb(255 255 255 / 88%)',
  accentOnDark: PALETTE.teal300,
  highlightOnDark: PALETTE.teal400,

  // Brand, links and controls.
  primary: PALETTE.teal700,
  link: PALETTE.teal700,
  /** Text and icons on a solid colour (a primary button, the unread badge). */
  onSolid: PALETTE.white,
  /** Selected rows, icon tiles, badges: teal 700 text on it is 4.9:1. */
  primarySubtle: PALETTE.teal50,
  /** A selected option under the pointer (body text on it). */
  primarySubtleHover: '#ccece8',
  /** Selected and current states, progress: a non-text colour (3.7:1 on white). */
  accent: PALETTE.teal600,
  /** The shell's call-to-action button (teal on the dark heroes) and its label. */
  ctaBackground: PALETTE.teal500,
  ctaBackgroundHover: PALETTE.teal400,
  ctaText: PALETTE.navy950,
  focusRing: PALETTE.teal600,
  focusRingOnDark: PALETTE.teal400,
  /** Boundaries of inputs, selects, checkboxes and default buttons (Ant Design's colorBorder). */
  controlBorder: '#8e8e8e',
  /** A disabled field's wash (Ant Design's colorBgContainerDisabled). */
  controlDisabledBackground: 'rgb(15 23 42 / 4%)',
  /** The banner carousel's dots for the slides not shown. */
  carouselDot: '#7790b3',
  /** The header's download QR code (dark modules on white, for scanners). */
  qrCode: PALETTE.navy900,

  // Status: Ant Design's success, warning, error and info, as text and icons and as alert and tag
  // backgrounds. Darkened from Ant Design's defaults to 4.5:1 on white and on their own wash.
  success: '#237804',
  successBackground: '#f6ffed',
  warning: '#a36200',
  warningBackground: '#fffbe6',
  error: '#cf1322',
  errorBackground: '#fff2f0',
  info: PALETTE.teal700,
  infoBackground: PALETTE.teal50,
  /** Unread notices: the dot (non-text) and the count's text. */
  unreadDot: '#f43f5e',
  unreadText: '#e11d48',

  // The market's price change (text and sparklines).
  marketUp: PALETTE.green700,
  marketDown: PALETTE.red600,
  marketFlat: PALETTE.slate,

  // A loan's LTV bands (loans/lib/ltv.ts: safe, watch, margin call, liquidation): the figure, the
  // gauge's fill and marks, the price chart's lines.
  ltvSafe: PALETTE.green700,
  ltvWatch: PALETTE.yellow700,
  ltvMarginCall: PALETTE.orange700,
  ltvLiquidation: PALETTE.red600,
  ltvInitialMark: '#1f2937',
  // The gauge's track: each band's wash.
  ltvTrackSafe: '#dcfce7',
  ltvTrackWatch: '#fef3c7',
  ltvTrackMarginCall: '#ffedd5',
  ltvTrackLiquidation: '#fee2e2',

  // Charts: BTC's price line; the fund's earnings bars (current and fixed interest, stacked).
  chartPrice: PALETTE.navy700,
  chartCurrentInterest: PALETTE.teal600,
  chartFixedInterest: PALETTE.navy700,

  // Card faces (cards/components/cards.css): white text on each brand's gradient.
  cardFaceVisaStart: '#0f2a44',
  cardFaceVisaEnd: PALETTE.teal700,
  cardFaceMastercardStart: '#1f1f2e',
  cardFaceMastercardEnd: '#8a3b12',
  cardFaceLabel: 'rgb(255 255 255 / 90%)',
  cardFaceBadge: 'rgb(6 13 31 / 30%)',
  cardFaceSelected: '#c58008',

  // Ant Design's preset tags write their palette's shade 7 on its shade 1 (3.4:1 for green and cyan):
  // the text takes shade 9 (10 for gold and lime); the backgrounds are Ant Design's, listed here to
  // check the pairs.
  tagGreenText: '#135200',
  tagGreenBackground: '#f6ffed',
  tagCyanText: '#00474f',
  tagCyanBackground: '#e6fffb',
  tagBlueText: '#002c8c',
  tagBlueBackground: '#e6f4ff',
  tagGeekblueText: '#061178',
  tagGeekblueBackground: '#f0f5ff',
  tagGoldText: '#613400',
  tagGoldBackground: '#fffbe6',
  tagOrangeText: '#873800',
  tagOrangeBackground: '#fff7e6',
  tagRedText: '#820014',
  tagRedBackground: '#fff1f0',
  tagVolcanoText: '#871400',
  tagVolcanoBackground: '#fff2e8',
  tagMagentaText: '#780650',
  tagMagentaBackground: '#fff0f6',
  tagPurpleText: '#22075e',
  tagPurpleBackground: '#f9f0ff',
  tagLimeText: '#254000',
  tagLimeBackground: '#fcffe6',
} as const satisfies Record<string, ColourValue>;

/** Colours that carry no meaning (see the module's comment). */
export const DECORATIVE_COLOURS = {
  /** Dividers and card outlines: the card's shadow and the text inside mark it out. */
  border: PALETTE.border,
  borderOnDark: 'rgb(255 255 255 / 8%)',
  /** Outlines of the header's chips and of the ghost button on the heroes; their labels name them. */
  chipBorderOnDark: 'rgb(255 255 255 / 14%)',
  buttonBorderOnDark: 'rgb(255 255 255 / 24%)',
  chipBorderOnDarkHover: 'rgb(94 234 212 / 55%)',
  /** Tiles and hovers on the dark surfaces. */
  fillOnDark: 'rgb(255 255 255 / 6%)',
  fillOnDarkHover: 'rgb(255 255 255 / 8%)',
  /** The home page's first business line: the icon's tile on navy. */
  primarySubtleOnDark: 'rgb(45 212 191 / 16%)',
  /** Hover and nested-list washes on light surfaces; the mask behind a sheet. */
  fillHover: 'rgb(0 0 0 / 6%)',
  fillSubtle: 'rgb(0 0 0 / 2%)',
  mask: 'rgb(0 0 0 / 45%)',
  /** A business line's border under the pointer. */
  accentBorderHover: 'rgb(13 148 136 / 45%)',
  /** Borders of Ant Design's alerts (the icon and the wash carry the kind). */
  successBorder: '#b7eb8f',
  warningBorder: '#ffe58f',
  errorBorder: '#ffccc7',
  infoBorder: '#a3d9d2',
  /** The heroes' glows (radial gradients over navy). */
  heroGlow: 'rgb(20 184 166 / 22%)',
  heroGlowDeep: 'rgb(30 58 138 / 45%)',
  ctaGlow: 'rgb(45 212 191 / 30%)',
  /** Loading placeholders' shimmer. */
  skeleton: '#e8edf4',
  skeletonHighlight: '#f3f6fa',
} as const satisfies Record<string, ColourValue>;

/** Box shadows (see the module's comment). */
export const SHADOWS = {
  card: '0 1px 2px rgb(15 23 42 / 4%), 0 8px 24px -12px rgb(15 23 42 / 12%)',
  popover: '0 18px 48px -12px rgb(6 13 31 / 35%), 0 0 0 1px rgb(15 23 42 / 6%)',
  /** A business line under the pointer: the card's shadow with a teal glow. */
  cardAccentHover: '0 2px 4px rgb(15 23 42 / 4%), 0 18px 40px -18px rgb(13 148 136 / 45%)',
  bannerHover: '0 12px 32px -12px rgb(11 22 48 / 45%)',
  sheet: '6px 0 16px rgb(0 0 0 / 8%)',
  dropdown: '0 8px 16px rgb(0 0 0 / 12%)',
  cardFace: '0 8px 22px rgb(15 42 68 / 22%)',
} as const;

export type ColourToken = keyof typeof COLOURS;
export type DecorativeColourToken = keyof typeof DECORATIVE_COLOURS;
export type AnyColourToken = ColourToken | DecorativeColourToken;

/** Every colour token, meaningful and decorative, by name. */
export const ALL_COLOURS: Readonly<Record<AnyColourToken, ColourValue>> = /* @__PURE__ */ Object.freeze({
  ...COLOURS,
  ...DECORATIVE_COLOURS,
});

/**
 * What a pair's foreground is, and so its minimum contrast ratio (WCAG 2.1): `text` 4.5:1
 * (SC 1.4.3), `large-text` 3:1 (SC 1.4.3: 24 px, or 18.66 px bold, and larger), `non-text` 3:1
 * (SC 1.4.11: icons and marks that carry meaning, control boundaries, chart lines, focus rings).
 */
export type ContrastKind = 'text' | 'large-text' | 'non-text';

export const MIN_CONTRAST_RATIO: Readonly<Record<ContrastKind, number>> = {
  text: 4.5,
  'large-text': 3,
  'non-text': 3,
};

/** A foreground drawn on a background. A translucent background is checked over `backdrop`. */
export interface ContrastPair {
  foreground: AnyColourToken;
  background: AnyColourToken;
  /** The opaque colour under a translucent background (required when the background is translucent). */
  backdrop?: AnyColourToken;
  kind: ContrastKind;
  /** Where the pair is drawn, when the names do not say it. */
  where?: string;
}

const on = (
  foreground: AnyColourToken,
  backgrounds: readonly AnyColourToken[],
  kind: ContrastKind,
  where?: string,
): ContrastPair[] => backgrounds.map((background) => ({ foreground, background, kind, where }));

/** The light surfaces that body text is drawn on. */
const LIGHT_SURFACES = ['surface', 'page', 'surfaceHover'] as const satisfies readonly ColourToken[];
/** The opaque dark surfaces. */
const DARK_SURFACES = [
  'surfaceInverse',
  'surfaceInverseDeep',
  'surfaceInverseRaised',
  'surfaceInverseBright',
] as const satisfies readonly ColourToken[];

const TAG_HUES = [
  'Green',
  'Cyan',
  'Blue',
  'Geekblue',
  'Gold',
  'Orange',
  'Red',
  'Volcano',
  'Magenta',
  'Purple',
  'Lime',
] as const;

/**
 * Every foreground on every background it is drawn on (checked by `colour-tokens.test.ts`). Built by
 * a call marked pure, so that the app's bundles, which read only the colours, leave the list out.
 */
export const CONTRAST_PAIRS: readonly ContrastPair[] = /* @__PURE__ */ contrastPairs();

/** Every area's pairs, joined in the order of the areas. */
function contrastPairs(): ContrastPair[] {
  return [
    ...lightSurfacePairs(),
    ...darkSurfacePairs(),
    ...focusAndControlPairs(),
    ...statusPairs(),
    ...marketPairs(),
    ...ltvPairs(),
    ...chartPairs(),
    ...cardFacePairs(),
    ...tagPairs(),
  ];
}

/** The contrast pairs of text, links and solid buttons on the light surfaces (part of {@link CONTRAST_PAIRS}). */
function lightSurfacePairs(): ContrastPair[] {
  return [
    // Body text and links on the light surfaces and the tinted ones.
    ...on('text', [...LIGHT_SURFACES, 'surfaceNote', 'primarySubtle', 'primarySubtleHover', 'errorBackground'], 'text'),
    ...on('textSoft', LIGHT_SURFACES, 'text'),
    ...on('textSecondary', [...LIGHT_SURFACES, 'surfaceNote', 'primarySubtle'], 'text'),
    ...on('textTertiary', LIGHT_SURFACES, 'text'),
    ...on('textPlaceholder', LIGHT_SURFACES, 'text'),
    { foreground: 'textPlaceholder', background: 'controlDisabledBackground', backdrop: 'surface', kind: 'text' },
    ...on('link', [...LIGHT_SURFACES, 'surfaceNote'], 'text'),
    ...on('primary', [...LIGHT_SURFACES, 'primarySubtle'], 'text', 'selected menu items, tabs'),
    { foreground: 'onSolid', background: 'primary', kind: 'text', where: 'primary buttons' },
    { foreground: 'onSolid', background: 'error', kind: 'text', where: 'the unread badge, danger buttons' },
    {
      foreground: 'onSolid',
      background: 'accent',
      kind: 'non-text',
      where: "the footer's social icons under the pointer",
    },
  ];
}

/** The contrast pairs of the dark surfaces (part of {@link CONTRAST_PAIRS}). */
function darkSurfacePairs(): ContrastPair[] {
  return [
    // The dark surfaces: header, heroes, footer, banners.
    ...on('onDark', DARK_SURFACES, 'text'),
    ...on('textOnDarkSecondary', DARK_SURFACES, 'text'),
    {
      foreground: 'textOnDarkTertiary',
      background: 'surfaceInverseDeep',
      kind: 'text',
      where: "the footer's legal lines",
    },
    { foreground: 'headerText', background: 'headerBackground', backdrop: 'surface', kind: 'text' },
    { foreground: 'headerChipText', background: 'headerBackground', backdrop: 'surface', kind: 'text' },
    { foreground: 'onDark', background: 'headerBackground', backdrop: 'surface', kind: 'text' },
    { foreground: 'onDark', background: 'heroGlow', backdrop: 'surfaceInverse', kind: 'text', where: "a hero's glow" },
    {
      foreground: 'textOnDarkSecondary',
      background: 'heroGlow',
      backdrop: 'surfaceInverse',
      kind: 'text',
      where: "a hero's lead under its glow",
    },
    {
      foreground: 'textOnDarkSecondary',
      background: 'ctaGlow',
      backdrop: 'surfaceInverseRaised',
      kind: 'text',
      where: 'the sign-up band under its glow',
    },
    {
      foreground: 'textOnDarkSecondary',
      background: 'fillOnDark',
      backdrop: 'surfaceInverse',
      kind: 'text',
      where: "the hero's figures' tiles",
    },
    ...on('accentOnDark', DARK_SURFACES, 'text'),
    { foreground: 'accentOnDark', background: 'fillOnDark', backdrop: 'surfaceInverse', kind: 'text' },
    {
      foreground: 'accentOnDark',
      background: 'primarySubtleOnDark',
      backdrop: 'surfaceInverseBright',
      kind: 'non-text',
      where: "the first business line's icon",
    },
    ...on('highlightOnDark', ['surfaceInverse', 'surfaceInverseRaised'], 'text', 'eyebrows; the active menu underline'),
    { foreground: 'highlightOnDark', background: 'headerBackground', backdrop: 'surface', kind: 'non-text' },
    ...on('ctaText', ['ctaBackground', 'ctaBackgroundHover'], 'text'),
    ...on('ctaBackground', ['surfaceInverse', 'surfaceInverseDeep'], 'non-text', 'the call-to-action button on navy'),
  ];
}

/** The contrast pairs of focus rings and controls (part of {@link CONTRAST_PAIRS}). */
function focusAndControlPairs(): ContrastPair[] {
  return [
    // Focus rings and controls.
    ...on('focusRing', [...LIGHT_SURFACES, 'surfaceInverse'], 'non-text'),
    { foreground: 'focusRing', background: 'headerBackground', backdrop: 'surface', kind: 'non-text' },
    ...on('focusRingOnDark', DARK_SURFACES, 'non-text'),
    ...on('controlBorder', [...LIGHT_SURFACES], 'non-text'),
    ...on('accent', [...LIGHT_SURFACES, 'border'], 'non-text', 'selected borders, the active dot, the progress ring'),
    ...on('carouselDot', ['surface', 'page'], 'non-text'),
    { foreground: 'qrCode', background: 'surface', kind: 'non-text' },
  ];
}

/** The contrast pairs of status texts and icons, unread marks (part of {@link CONTRAST_PAIRS}). */
function statusPairs(): ContrastPair[] {
  return [
    // Status texts and icons on the surfaces and on their own wash (alerts, tags).
    ...on('success', [...LIGHT_SURFACES, 'successBackground'], 'text'),
    ...on('warning', [...LIGHT_SURFACES, 'warningBackground'], 'text'),
    ...on('error', [...LIGHT_SURFACES, 'errorBackground'], 'text'),
    ...on('info', [...LIGHT_SURFACES, 'infoBackground'], 'text'),
    ...on('unreadText', ['surface'], 'text', "the notice panel's unread count"),
    ...on('unreadDot', [...LIGHT_SURFACES, 'surfaceInverse'], 'non-text'),
    { foreground: 'unreadDot', background: 'headerBackground', backdrop: 'surface', kind: 'non-text' },
  ];
}

/** The contrast pairs of the market's change (part of {@link CONTRAST_PAIRS}). */
function marketPairs(): ContrastPair[] {
  return [
    // The market's change: text in the table's white card, and the sparklines.
    ...on('marketUp', ['surface'], 'text'),
    ...on('marketDown', ['surface'], 'text'),
    ...on('marketFlat', ['surface'], 'text'),
  ];
}

/** The contrast pairs of the LTV figure, zone and gauge (part of {@link CONTRAST_PAIRS}). */
function ltvPairs(): ContrastPair[] {
  return [
    // The LTV figure and zone (text on the loan card and the calculator, both white), which are also
    // the colours of the price chart's lines and labels and of the gauge's marks and legend dots (the
    // marks stand 3 px out of the track, on the card); the gauge's fill against the band it ends in.
    ...on('ltvSafe', ['surface'], 'text'),
    ...on('ltvWatch', ['surface'], 'text'),
    ...on('ltvMarginCall', ['surface'], 'text'),
    ...on('ltvLiquidation', ['surface'], 'text'),
    ...on('ltvInitialMark', ['surface'], 'non-text'),
    { foreground: 'ltvSafe', background: 'ltvTrackSafe', kind: 'non-text' },
    { foreground: 'ltvWatch', background: 'ltvTrackWatch', kind: 'non-text' },
    { foreground: 'ltvMarginCall', background: 'ltvTrackMarginCall', kind: 'non-text' },
    { foreground: 'ltvLiquidation', background: 'ltvTrackLiquidation', kind: 'non-text' },
  ];
}

/** The contrast pairs of charts (part of {@link CONTRAST_PAIRS}). */
function chartPairs(): ContrastPair[] {
  return [
    // Charts on white.
    ...on('chartPrice', ['surface'], 'non-text'),
    ...on('chartCurrentInterest', ['surface', 'chartFixedInterest'], 'non-text', 'stacked on the fixed bar'),
    ...on('chartFixedInterest', ['surface'], 'non-text'),
  ];
}

/** The contrast pairs of card faces (part of {@link CONTRAST_PAIRS}). */
function cardFacePairs(): ContrastPair[] {
  return [
    // Card faces: white text at both ends of each gradient; the selected card's border.
    ...on(
      'onDark',
      ['cardFaceVisaStart', 'cardFaceVisaEnd', 'cardFaceMastercardStart', 'cardFaceMastercardEnd'],
      'text',
    ),
    ...on(
      'cardFaceLabel',
      ['cardFaceVisaStart', 'cardFaceVisaEnd', 'cardFaceMastercardStart', 'cardFaceMastercardEnd'],
      'text',
    ),
    { foreground: 'onDark', background: 'cardFaceBadge', backdrop: 'cardFaceVisaEnd', kind: 'text' },
    { foreground: 'onDark', background: 'cardFaceBadge', backdrop: 'cardFaceMastercardEnd', kind: 'text' },
    ...on('cardFaceSelected', ['surface', 'page'], 'non-text'),
  ];
}

/** The contrast pairs of Ant Design's preset tags (part of {@link CONTRAST_PAIRS}). */
function tagPairs(): ContrastPair[] {
  return [
    // Ant Design's preset tags.
    ...TAG_HUES.map((hue): ContrastPair => ({
      foreground: `tag${hue}Text`,
      background: `tag${hue}Background`,
      kind: 'text',
    })),
  ];
}

/** `marketUp` → `market-up`: a token's CSS variable is `--colour-<this>`. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The CSS variable of a colour token, for a stylesheet or an inline style: `var(--colour-market-up)`. */
export function colourVar(token: AnyColourToken): string {
  return `var(--colour-${kebabCase(token)})`;
}
