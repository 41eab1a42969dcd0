import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rejectedVariants, ZH_HK_GLOSSARY } from './zh-hk-glossary.ts';
import { hanSourceLines, localeTexts } from './zh-hk-sources.ts';

/**
 * One zh-HK term per concept (docs/zh-hk-glossary.md): no zh-HK text of the web, the contracts or
 * the server uses a variant the glossary rejects, and the doc lists every term and variant.
 */
const LOCALES_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = join(LOCALES_DIR, '..', '..', '..', '..');

/** The glossary's own sources name the rejected variants on purpose. */
const GLOSSARY_SOURCES = ['apps/web/src/locales/zh-hk-glossary.ts', 'apps/web/src/locales/zh-hk-text.ts'];

const findingsOf = (entries: Iterable<[string, string]>) =>
  [...entries].flatMap(([where, text]) =>
    rejectedVariants(text).map((finding) => `${where}: ${finding.variant} → ${finding.term}: ${text.trim()}`),
  );

describe('zh-HK glossary', () => {
  it('finds a rejected variant and passes the chosen term and the allowed phrases', () => {
    expect(rejectedVariants('立即申購')).toEqual([{ term: '認購', variant: '申購' }]);
    expect(rejectedVariants('為期 {{days}} 天')).toEqual([{ term: '日', variant: 'N 天' }]);
    expect(rejectedVariants('最低提幣金額不低於 {{limit}}')).toEqual([{ term: '最少', variant: '最低…不低於' }]);
    expect(rejectedVariants('在 App 或網站確認')).toEqual([{ term: '應用程式', variant: 'App' }]);
    expect(rejectedVariants('立即認購，為期 30 日，並非銀行存款，亦不受存款保障')).toEqual([]);
    expect(rejectedVariants('存款紀錄')).toEqual([{ term: '充值', variant: '存款' }]);
    expect(rejectedVariants('手機號碼')).toEqual([]);
  });

  it('the web locale files keep to the glossary', () => {
    expect(findingsOf(localeTexts(LOCALES_DIR))).toEqual([]);
  });

  it("the contracts' and the server's Chinese texts keep to the glossary", () => {
    const lines = [...hanSourceLines(REPO_ROOT, ['packages/contracts/src', 'apps/server/src', 'apps/web/src'])].filter(
      ([where]) => !GLOSSARY_SOURCES.some((source) => where.startsWith(`${source}:`)),
    );
    expect(lines.length).toBeGreaterThan(300);
    expect(findingsOf(lines)).toEqual([]);
  });

  it('the doc lists every term and every rejected variant', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'zh-hk-glossary.md'), 'utf8');
    const missing = ZH_HK_GLOSSARY.flatMap((term) => [
      term.zhHk,
      ...term.rejected.map((variant) => variant.label),
    ]).filter((word) => !doc.includes(word));
    expect(missing).toEqual([]);
  });
});
