import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Traditional Chinese texts use Hong Kong usage throughout: 帳 (帳戶, 轉帳,
 * 到帳), never the variant 賬, which made the same account read 主帳戶 on one page and 主賬戶 on another.
 */
const ZH_HK_DIR = join(dirname(fileURLToPath(import.meta.url)), 'zh-HK');

describe('zh-HK locale files', () => {
  it.each(readdirSync(ZH_HK_DIR).filter((file) => file.endsWith('.json')))('%s writes 帳, never 賬', (file) => {
    const text = readFileSync(join(ZH_HK_DIR, file), 'utf8');
    const lines = text.split('\n').filter((line) => line.includes('賬'));
    expect(lines).toEqual([]);
  });
});
