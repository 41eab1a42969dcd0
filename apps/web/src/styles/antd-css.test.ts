import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANTD_CSS_PATH, generateAntdCss, usedAntdComponents } from '../../scripts/antd-css.ts';

describe('styles/antd.css (Ant Design styles generated at build time, issue 20)', () => {
  it('lists every Ant Design component the app imports, and those rendered inside them', () => {
    const components = usedAntdComponents();
    for (const name of ['Button', 'Form', 'Table', 'Pagination', 'Dropdown', 'message'])
      expect(components).toContain(name);
    expect(components).not.toContain('ConfigProvider');
    expect(components.some((name) => name.startsWith('type '))).toBe(false);
  });

  it('matches what `npm run antd:css -w @meridian/web` writes from the theme (run it after changing the theme or Ant Design)', () => {
    const css = generateAntdCss();
    // The brand's primary colour reaches the design tokens; the selectors are plain (`hashed: false`).
    expect(css).toContain('--ant-color-primary:#0f766e');
    expect(css).not.toContain(':where(.css-');
    expect(
      readFileSync(ANTD_CSS_PATH, 'utf8') === css,
      'styles/antd.css is stale: run npm run antd:css -w @meridian/web',
    ).toBe(true);
  }, 60_000);
});
