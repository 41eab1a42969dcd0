import { readFileSync } from 'node:fs';
import { FastColor } from '@ant-design/fast-color';
import { describe, expect, it } from 'vitest';
import { COLOUR_TOKENS_CSS_PATH, generateColourTokensCss } from '../../scripts/colour-tokens-css.ts';
import { ANTD_CSS_PATH } from '../../scripts/antd-css.ts';
import { THEME } from '../components/antd-theme.ts';
import {
  ALL_COLOURS,
  type AnyColourToken,
  COLOURS,
  CONTRAST_PAIRS,
  type ContrastPair,
  DECORATIVE_COLOURS,
  MIN_CONTRAST_RATIO,
} from './colour-tokens.ts';

/**
 * WCAG 2.1's contrast ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter colour's relative
 * luminance (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio and #dfn-relative-luminance; the
 * luminance is `@ant-design/fast-color`'s `getLuminance`, that formula). A translucent background
 * is first laid over `backdrop`, and a translucent foreground over the result, as the browser
 * paints them.
 */
function contrastRatio(foreground: string, background: string, backdrop = '#ffffff'): number {
  const under = new FastColor(background).onBackground(backdrop);
  const over = new FastColor(foreground).onBackground(under);
  const [lighter, darker] = [over.getLuminance(), under.getLuminance()].sort((a, b) => b - a);
  return (lighter! + 0.05) / (darker! + 0.05);
}

const isOpaque = (value: string) => new FastColor(value).a === 1;
const sameColour = (a: string, b: string) => new FastColor(a).toRgbString() === new FastColor(b).toRgbString();

/** What a pair measures, or the reason it cannot be measured. */
function measure(pair: ContrastPair): number {
  const background = ALL_COLOURS[pair.background];
  if (!isOpaque(background) && pair.backdrop === undefined)
    throw new Error(`${pair.background} is translucent: the pair must name the backdrop it is drawn over`);
  const backdrop = pair.backdrop === undefined ? '#ffffff' : ALL_COLOURS[pair.backdrop];
  if (!isOpaque(backdrop)) throw new Error(`backdrop ${pair.backdrop} must be opaque`);
  return contrastRatio(ALL_COLOURS[pair.foreground], background, backdrop);
}

const describePair = (pair: ContrastPair) =>
  `${pair.foreground} on ${pair.background}${pair.backdrop ? ` over ${pair.backdrop}` : ''} (${pair.kind})`;

describe('the contrast checker', () => {
  it('gives the ratios of WCAG 2.1: 21:1 for black on white, 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#5b6474', '#5b6474')).toBe(1);
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 fails.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it("rejects the market's former up colour: green 600 #16a34a on white is 3.3:1, under 4.5:1 for text", () => {
    const ratio = contrastRatio('#16a34a', '#ffffff');
    expect(ratio).toBeCloseTo(3.3, 1);
    expect(ratio).toBeLessThan(MIN_CONTRAST_RATIO.text);
    // At 24 px (large text) or as a line it would pass 3:1; as body text it does not.
    expect(ratio).toBeGreaterThanOrEqual(MIN_CONTRAST_RATIO['non-text']);
  });

  it('lays translucent colours over what is under them: white at 50 % on black reads as mid grey', () => {
    expect(contrastRatio('rgb(255 255 255 / 50%)', '#000000')).toBeCloseTo(contrastRatio('#808080', '#000000'), 1);
    expect(contrastRatio('#ffffff', 'rgb(0 0 0 / 50%)', '#ffffff')).toBeCloseTo(contrastRatio('#ffffff', '#808080'), 1);
  });
});

describe('colour tokens (styles/colour-tokens.ts)', () => {
  it('are written as #rrggbb or rgb(r g b / a%), in lower case', () => {
    for (const [name, value] of Object.entries(ALL_COLOURS))
      expect(value, name).toMatch(/^(#[0-9a-f]{6}|rgb\(\d{1,3} \d{1,3} \d{1,3} \/ \d{1,3}%\))$/);
  });

  it('have one name each across the semantic and the decorative sets', () => {
    const shared = Object.keys(COLOURS).filter((name) => name in DECORATIVE_COLOURS);
    expect(shared).toEqual([]);
  });

  it('each semantic token is checked in at least one pair (a colour with no pair belongs with the decorative ones)', () => {
    const paired = new Set<AnyColourToken>(CONTRAST_PAIRS.flatMap((pair) => [pair.foreground, pair.background]));
    expect(Object.keys(COLOURS).filter((name) => !paired.has(name as AnyColourToken))).toEqual([]);
  });

  it('each pair is declared once', () => {
    const keys = CONTRAST_PAIRS.map(describePair);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it.each(CONTRAST_PAIRS.map((pair) => [describePair(pair), pair] as const))('%s meets WCAG 2.1 AA', (_name, pair) => {
    const ratio = measure(pair);
    expect(
      ratio,
      `${describePair(pair)}: ${ratio.toFixed(2)}:1, needs ${MIN_CONTRAST_RATIO[pair.kind]}:1`,
    ).toBeGreaterThanOrEqual(MIN_CONTRAST_RATIO[pair.kind]);
  });
});

describe('one source for the colours', () => {
  it('styles/colour-tokens.css is what `npm run colours:css -w @meridian/web` writes from the tokens (run it after changing them)', () => {
    expect(
      readFileSync(COLOUR_TOKENS_CSS_PATH, 'utf8') === generateColourTokensCss(),
      `${COLOUR_TOKENS_CSS_PATH} is stale: run npm run colours:css -w @meridian/web`,
    ).toBe(true);
  });

  /** The design tokens of Ant Design's generated stylesheet (`.meridian{--ant-…}`), by name. */
  function antdVariables(): Map<string, string> {
    const css = readFileSync(ANTD_CSS_PATH, 'utf8');
    const root = /\.meridian\{(--ant-[^}]*)\}/.exec(css);
    if (!root) throw new Error(`${ANTD_CSS_PATH} has no .meridian{--ant-…} rule`);
    return new Map(
      root[1]!.split(';').flatMap((declaration) => {
        const colon = declaration.indexOf(':');
        return colon > 0 ? [[declaration.slice(0, colon), declaration.slice(colon + 1)] as const] : [];
      }),
    );
  }

  it("Ant Design's theme and its generated stylesheet hold the tokens' values (run npm run antd:css -w @meridian/web after changing them)", () => {
    const variables = antdVariables();
    const expected: Record<string, string> = {
      '--ant-color-primary': COLOURS.primary,
      '--ant-color-link': COLOURS.link,
      '--ant-color-primary-bg': COLOURS.primarySubtle,
      '--ant-color-text-base': COLOURS.text,
      '--ant-color-text-tertiary': COLOURS.textTertiary,
      '--ant-color-text-description': COLOURS.textTertiary,
      '--ant-color-text-quaternary': COLOURS.textPlaceholder,
      '--ant-color-text-placeholder': COLOURS.textPlaceholder,
      '--ant-color-text-disabled': COLOURS.textPlaceholder,
      '--ant-color-bg-container': COLOURS.surface,
      '--ant-color-bg-container-disabled': COLOURS.controlDisabledBackground,
      '--ant-color-border': COLOURS.controlBorder,
      '--ant-color-success': COLOURS.success,
      '--ant-color-success-bg': COLOURS.successBackground,
      '--ant-color-warning': COLOURS.warning,
      '--ant-color-warning-bg': COLOURS.warningBackground,
      '--ant-color-error': COLOURS.error,
      '--ant-color-error-bg': COLOURS.errorBackground,
      '--ant-color-info': COLOURS.info,
      '--ant-color-info-bg': COLOURS.infoBackground,
    };
    for (const [name, value] of Object.entries(expected)) {
      const actual = variables.get(name);
      expect(actual, name).toBeDefined();
      expect(sameColour(actual!, value), `${name}: ${actual} in the stylesheet, ${value} in the tokens`).toBe(true);
    }
    expect(THEME.token?.colorPrimary).toBe(COLOURS.primary);
    expect(THEME.components?.Menu?.itemSelectedBg).toBe(COLOURS.primarySubtle);
  });

  it("the preset tags' tokens are a dark shade of Ant Design's palette (9 or 10) on its shade 1", () => {
    const variables = antdVariables();
    const hues = Object.keys(COLOURS)
      .filter((name) => /^tag\w+Text$/.test(name))
      .map((name) => name.slice('tag'.length, -'Text'.length));
    expect(hues).toHaveLength(11);
    for (const hue of hues) {
      const palette = hue.toLowerCase();
      const text = COLOURS[`tag${hue}Text` as keyof typeof COLOURS];
      const background = COLOURS[`tag${hue}Background` as keyof typeof COLOURS];
      const darkShades = [variables.get(`--ant-${palette}-9`)!, variables.get(`--ant-${palette}-10`)!];
      expect(
        darkShades.some((shade) => sameColour(shade, text)),
        `${palette}: ${text} is not shade 9 or 10`,
      ).toBe(true);
      expect(sameColour(variables.get(`--ant-${palette}-1`)!, background), `${palette} 1`).toBe(true);
    }
  });
});
