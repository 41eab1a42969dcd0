import type { MappingAlgorithm } from 'antd/es/theme/interface';
import defaultAlgorithm from 'antd/es/theme/themes/default';
import built from './antd-map-token.json';

const BUILT_SEED_JSON = JSON.stringify(built.seed);

/**
 * Ant Design's default algorithm (seed tokens → map tokens: the ten-step palette of each colour,
 * sizes, radii), answered from `antd-map-token.json` when the seed is the app's theme's — the file
 * `npm run antd:token -w @meridian/web` writes from `THEME` — and computed as usual for any other
 * seed (e.g. the reduced-motion theme). Deriving the palettes was the largest part of an island's
 * first `ConfigProvider` render, one task of 15–25 ms on the public pages (docs/performance.md).
 * The seed is compared as JSON, key order included: `ConfigProvider` builds it the same way as the
 * generator (Ant Design's default seed, then the theme's tokens).
 */
export const builtMapTokenAlgorithm: MappingAlgorithm = (seed, mapToken) => {
  if (mapToken === undefined && JSON.stringify(seed) === BUILT_SEED_JSON)
    return { ...(built.map as unknown as ReturnType<MappingAlgorithm>) };
  return defaultAlgorithm(seed);
};
