import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { logInThroughApi, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';

/**
 * Account statement on the production build, on the shared server: the demo account
 * opens /my/account/statement, generates this month's statement (its seeded balances are this
 * month's movements), sees the accounts and their movements, and downloads the CSV. en-US at
 * 1280 px, zh-HK at 390 px.
 */
const TEXT: Record<Locale, { generate: string; deposit: string; section: string }> = {
  'en-US': { generate: 'Generate statement', deposit: 'Demo funds', section: 'Main account' },
  'zh-HK': { generate: '生成結單', deposit: '示範資金', section: '主帳戶' },
};

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`account statement (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`the demo account generates this month's statement, sees its movements and downloads the CSV (${locale})`, async ({
      page,
    }, testInfo) => {
      const text = TEXT[locale];
      await logInThroughApi(page, undefined, locale);
      await page.goto('/my/account/statement');
      // One generation per user at a time: the other project's run may hold the demo account's slot.
      await expect(async () => {
        await page.getByRole('button', { name: text.generate }).click();
        await expect(page.getByTestId('statement-result')).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.getByTestId('statement-accounts')).toContainText(text.section);
      await expect(page.getByTestId('statement-movements').first()).toContainText(text.deposit);
      await snap(page, testInfo, `${locale}-result`, 'statement-');

      const downloading = page.waitForEvent('download');
      await page.getByTestId('statement-download-csv').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^meridian-statement-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
      const file = testInfo.outputPath('statement.csv');
      await download.saveAs(file);
      const csv = readFileSync(file, 'utf8');
      expect(csv.split('\n')[0]).toBe(
        'Section,Account,Asset,Owner,Row,Date (UTC),Entry,Type,Reference,Amount,Fee,Balance,USD value',
      );
      expect(csv).toContain(',MOVEMENT,');
      expect(csv).toContain('DEMO_FUNDING');
    });
  });
}
