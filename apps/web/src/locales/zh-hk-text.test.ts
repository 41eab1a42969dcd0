import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { localeTexts, sourceTexts } from './zh-hk-sources.ts';
import { checkZhHkTexts, simplifiedCharacters, untranslatedEnglish } from './zh-hk-text.ts';

/**
 * Every zh-HK text is Hong Kong Traditional Chinese (docs/zh-hk-glossary.md): no
 * Simplified-only character and no untranslated English outside brand names and codes, in the web
 * locale files and in the `'zh-HK'` texts of the contracts (codes, validation, …) and the server
 * (mails, notices, messages).
 */
const LOCALES_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = join(LOCALES_DIR, '..', '..', '..', '..');

/**
 * API values that validation messages name as the caller must send them (the KYC step names and
 * document fields, the device id's prefix): codes, not words to translate.
 */
const API_VALUES = new Set([
  'basic',
  'investor',
  'aml',
  'qualified',
  'residence',
  'idFront',
  'idBack',
  'selfie',
  'proofOfAddress',
  'pro-web',
]);

describe('zh-HK texts', () => {
  it('the check finds Simplified characters and English words, and passes brand names and codes', () => {
    expect(simplifiedCharacters('提现到你的账户')).toEqual(['现', '账']);
    expect(simplifiedCharacters('提幣到你的帳戶，了解後台批核')).toEqual([]);
    expect(untranslatedEnglish('請輸入 amount')).toEqual(['amount']);
    expect(untranslatedEnglish('以 USDT（TRC20）充值 {{amount}}，<1>Meridian</1> 3-D Secure W-8BEN')).toEqual([]);
    expect(untranslatedEnglish('請選擇範圍：24h、7d、30d 或 1y；WebP 檔案')).toEqual([]);
    expect(untranslatedEnglish('24h 內 hello')).toEqual(['hello']);
  });

  it('the web locale files are Hong Kong Traditional Chinese', () => {
    const findings = checkZhHkTexts(localeTexts(LOCALES_DIR));
    expect(findings.map((f) => `${f.where} ${[...f.simplified, ...f.english].join(' ')}: ${f.text}`)).toEqual([]);
  });

  it("the contracts' and the server's zh-HK texts are Hong Kong Traditional Chinese", () => {
    const entries = [...sourceTexts(REPO_ROOT, ['packages/contracts/src', 'apps/server/src'])];
    expect(entries.length).toBeGreaterThan(300);
    const findings = checkZhHkTexts(entries, API_VALUES);
    expect(findings.map((f) => `${f.where} ${[...f.simplified, ...f.english].join(' ')}: ${f.text}`)).toEqual([]);
  });
});
