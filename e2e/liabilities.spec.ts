import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { logInThroughApi, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';

/**
 * Proof of liabilities on the production build: the demo account (seeded before the
 * server's scheduler first ran the daily snapshot job, so it is in today's tree) opens
 * `/proof-of-liabilities`, sees the published root and totals and — without doing anything — its
 * inclusion proof verified in the browser (Web Crypto): "Verified", with the leaf, the path, the
 * published root and its date explained. It saves the proof file, opens it (pass) and a copy with a
 * shrunk balance (fail). en-US at 1280 px, zh-HK at 390 px.
 */
const TEXT: Record<Locale, { title: string; pass: string; fail: string }> = {
  'en-US': { title: 'Proof of liabilities', pass: 'Verified: your balances are included', fail: 'Fail:' },
  'zh-HK': { title: '負債證明', pass: '已核實：你的結餘已包含在', fail: '不通過' },
};

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`proof of liabilities (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`a user downloads their proof and checks it in the page; a tampered copy fails (${locale})`, async ({
      page,
    }, testInfo) => {
      const text = TEXT[locale];
      await logInThroughApi(page, undefined, locale);
      // The daily job runs at the server's first scheduler tick; reload until its root is published.
      await expect(async () => {
        await page.goto('/proof-of-liabilities');
        await expect(page.getByTestId('liabilities-root')).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 40_000 });
      await expect(page.getByRole('heading', { name: text.title }).first()).toBeVisible();
      const rootHash = (await page.getByTestId('liabilities-root').innerText()).trim();
      expect(rootHash).toMatch(/^[0-9a-f]{64}$/);
      await expect(page.getByTestId('liabilities-totals')).toContainText('USDT');
      // Verified as the page opens: the leaf, the path, the published root and its date.
      const verdict = page.getByTestId('liabilities-verdict-pass');
      await expect(verdict).toContainText(text.pass);
      await expect(verdict).toContainText(rootHash);
      await expect(page.getByTestId('liabilities-verified-steps').locator('li')).toHaveCount(4);
      // The page no longer asks a customer to run a script from the repository.
      await expect(page.getByText('verify-liabilities-proof.mjs')).toHaveCount(0);
      await snap(page, testInfo, `${locale}-pass`, 'liabilities-');

      const downloading = page.waitForEvent('download');
      await page.getByTestId('liabilities-download').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^meridian-liabilities-proof-\d{4}-\d{2}-\d{2}\.json$/);

      const file = testInfo.outputPath('proof.json');
      await download.saveAs(file);
      const proof = JSON.parse(readFileSync(file, 'utf8')) as { root: { hash: string }; balances: string[] };
      expect(proof.root.hash).toBe(rootHash);
      await page.locator('input[type=file]').setInputFiles(file);
      await expect(page.getByTestId('liabilities-verdict-pass')).toBeVisible();

      const tampered = testInfo.outputPath('tampered.json');
      const richest = proof.balances.findIndex((balance) => balance !== '0');
      writeFileSync(
        tampered,
        JSON.stringify({ ...proof, balances: proof.balances.map((b, at) => (at === richest ? '1' : b)) }),
      );
      await page.locator('input[type=file]').setInputFiles(tampered);
      await expect(page.getByTestId('liabilities-verdict-fail')).toContainText(text.fail);
      await snap(page, testInfo, `${locale}-fail`, 'liabilities-');
    });
  });
}
