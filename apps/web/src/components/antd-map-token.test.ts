import { readFileSync } from 'node:fs';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { ANTD_MAP_TOKEN_PATH, mapTokenOfTheme } from '../../scripts/antd-map-token.ts';
import { builtMapTokenAlgorithm } from './antd-map-token.ts';
import { THEME } from './antd-theme.ts';

describe('components/antd-map-token.json (Ant Design map tokens derived at build time)', () => {
  it('is what `npm run antd:token -w @meridian/web` writes for the current theme and Ant Design', () => {
    expect(JSON.parse(readFileSync(ANTD_MAP_TOKEN_PATH, 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(mapTokenOfTheme())),
    );
  });

  it("gives the default algorithm's tokens for the theme's seed, and computes them for another seed", () => {
    const seed = { ...theme.defaultSeed, ...THEME.token };
    expect(builtMapTokenAlgorithm(seed)).toEqual(theme.defaultAlgorithm(seed));
    const reducedMotion = { ...seed, motion: false };
    expect(builtMapTokenAlgorithm(reducedMotion)).toEqual(theme.defaultAlgorithm(reducedMotion));
    const otherPrimary = { ...seed, colorPrimary: '#1677ff' };
    expect(builtMapTokenAlgorithm(otherPrimary).colorPrimaryBg).toBe(
      theme.defaultAlgorithm(otherPrimary).colorPrimaryBg,
    );
  });

  it("is the algorithm of the app's ConfigProvider", async () => {
    const { THEME_WITH_BUILT_TOKENS } = await import('./antd-config.tsx');
    expect(THEME_WITH_BUILT_TOKENS.algorithm).toBe(builtMapTokenAlgorithm);
  });
});
