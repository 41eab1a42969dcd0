import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashSources } from './csp.ts';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('inlineScriptHashSources', () => {
  it('lists the SHA-256 of each inline script exactly as written, once, and skips scripts with src', () => {
    const boot = "\n(function () { document.documentElement.setAttribute('lang', '中文'); })();\n";
    const html = `<head><script>${boot}</script><script src="/a.js"></script><script type="module" src="/b.js"></script></head>
      <body><script>${boot}</script><script type="application/json">{"a":1}</script><script></script></body>`;
    expect(inlineScriptHashSources(html)).toEqual([hashOf(boot), hashOf('{"a":1}')]);
  });

  it('gives none for a page without inline scripts', () => {
    expect(inlineScriptHashSources('<!doctype html><script src="/boot.js"></script><div id="root"></div>')).toEqual([]);
  });
});
