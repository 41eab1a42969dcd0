import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANTD_CSS_PATH,
  antdIslands,
  generateAllAntdCss,
  islandAntdComponents,
  ISLAND_CSS_DIR,
  usedAntdComponents,
} from '../../scripts/antd-css.ts';

describe('styles/antd.css and styles/antd/*.css (Ant Design styles generated at build time)', () => {
  it('lists every Ant Design component the app imports, and those rendered inside them', () => {
    const components = usedAntdComponents();
    for (const name of ['Button', 'Form', 'Table', 'Pagination', 'Dropdown', 'message'])
      expect(components).toContain(name);
    expect(components).not.toContain('ConfigProvider');
    expect(components.some((name) => name.startsWith('type '))).toBe(false);
  });

  it("gives each public page's island the components of its modules, lazy parts and inner components included", () => {
    const islands = new Map(antdIslands().map(({ name, entry }) => [name, islandAntdComponents(entry)]));
    expect([...islands.keys()]).toEqual(['earn-products', 'exchange-panel', 'loan-borrow', 'trust-product']);
    // The swap form's selects and their empty lists; the earn table's pagination; the loan's receipt modal.
    expect(islands.get('exchange-panel')).toEqual(expect.arrayContaining(['Select', 'Empty', 'Segmented', 'Button']));
    expect(islands.get('exchange-panel')).not.toContain('Table');
    expect(islands.get('earn-products')).toEqual(expect.arrayContaining(['Table', 'Pagination', 'Dropdown', 'Menu']));
    expect(islands.get('loan-borrow')).toEqual(expect.arrayContaining(['Form', 'Modal', 'Tooltip', 'Row', 'Col']));
    const all = usedAntdComponents();
    for (const components of islands.values()) for (const name of components) expect(all).toContain(name);
  });

  it('pairs each island with its own stylesheet where its page declares it', () => {
    for (const { name, page, styles } of antdIslands())
      expect(styles, `${page}: antdIsland(… ${name}) passes styles/antd/${name}.css?url`).toBe(
        join(ISLAND_CSS_DIR, `${name}.css`),
      );
  });

  it('match what `npm run antd:css -w @meridian/web` writes from the theme (run it after changing the theme, Ant Design or an island)', () => {
    const files = generateAllAntdCss();
    const css = files.get(ANTD_CSS_PATH)!;
    // The brand's primary colour reaches the design tokens; the selectors are plain (`hashed: false`).
    expect(css).toContain('--ant-color-primary:#0f766e');
    expect(css).not.toContain(':where(.css-');
    for (const [path, content] of files)
      expect(readFileSync(path, 'utf8') === content, `${path} is stale: run npm run antd:css -w @meridian/web`).toBe(
        true,
      );
  }, 120_000);
});
