// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { adoptPrerenderedCopy, PRERENDER_TEST_ID_ATTRIBUTE } from './prerendered-page.ts';

/** `#root` as `scripts/postbuild.mjs` writes it: the boot header and one copy per language. */
function prerenderedRoot(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML =
    '<div class="boot-header" aria-hidden="true"></div>' +
    `<div class="prerender" data-locale="en-US" lang="en-US"><div class="app-shell"><h1 ${PRERENDER_TEST_ID_ATTRIBUTE}="title">Hello</h1></div></div>` +
    `<div class="prerender" data-locale="zh-HK" lang="zh-HK"><div class="app-shell"><h1 ${PRERENDER_TEST_ID_ATTRIBUTE}="title">你好</h1></div></div>`;
  return root;
}

describe('adoptPrerenderedCopy', () => {
  it('leaves only the copy of the language, its own nodes, with their test ids', () => {
    const root = prerenderedRoot();
    const heading = root.querySelector('.prerender[data-locale="zh-HK"] h1');
    expect(adoptPrerenderedCopy(root, 'zh-HK')).toBe(true);
    expect(root.innerHTML).toBe('<div class="app-shell"><h1 data-testid="title">你好</h1></div>');
    expect(root.querySelector('h1')).toBe(heading);
  });

  it('changes nothing when there is no copy in the language', () => {
    const root = prerenderedRoot();
    root.querySelector('.prerender[data-locale="zh-HK"]')?.remove();
    const before = root.innerHTML;
    expect(adoptPrerenderedCopy(root, 'zh-HK')).toBe(false);
    expect(root.innerHTML).toBe(before);
  });
});
