import { expect, test } from '@playwright/test';
import { DEMO, logInThroughApi, postApi, registerAndLogIn } from './helpers.ts';
import { LOCALES, runOnLocaleProject } from './locale-runs.ts';

/**
 * One verification level (docs/decisions/0011-verification-level.md): the seeded demo account is
 * verified through the real submit and approval paths, so `/identity` shows the level every gate
 * reads and each step as done; a page whose step is not open yet says what comes first and links
 * it, as the server refuses the submission.
 */
const TEXT = {
  'en-US': { level: '2 · Investor', needsBasic: 'Complete basic identity verification first' },
  'zh-HK': { level: '你的等級：2 · 投資者', needsBasic: '請先完成基本身份認證' },
} as const;

test.describe.configure({ timeout: 90_000 });

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);

    test(`the demo account's /identity shows level 2 with every step done (${locale})`, async ({ page }) => {
      await logInThroughApi(page, DEMO, locale);
      await page.goto('/identity');
      const overview = page.getByTestId('identity-page');
      await expect(overview).toHaveAttribute('data-level', '2', { timeout: 20_000 });
      await expect(page.getByTestId('identity-level')).toContainText(TEXT[locale].level);
      for (const step of ['basic', 'investor', 'aml', 'tax'])
        await expect(page.getByTestId(`identity-step-${step}`)).toHaveAttribute('data-state', 'done');
      await expect(page.getByTestId('identity-step-qualified')).toHaveAttribute('data-state', 'todo');

      // The basic step is verified, not a blank form; the qualified step is open.
      await page.goto('/identity/basic');
      await expect(page.getByTestId('kyc-verified')).toBeVisible({ timeout: 20_000 });
      await page.goto('/identity/qualified');
      await expect(page.getByTestId('kyc-qualified-form')).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('kyc-needs-level')).toHaveCount(0);
    });

    test(`/identity/qualified is closed to a user without investor verification (${locale})`, async ({ page }) => {
      const email = `level-${locale.toLowerCase()}-${Date.now()}@meridian.test`;
      await registerAndLogIn(page, email, locale);
      await page.goto('/identity');
      await expect(page.getByTestId('identity-page')).toHaveAttribute('data-level', '0', { timeout: 20_000 });
      await expect(page.getByTestId('identity-step-qualified')).toHaveAttribute('data-state', 'locked');

      await page.goto('/identity/qualified');
      const needs = page.getByTestId('kyc-needs-level');
      await expect(needs).toBeVisible({ timeout: 20_000 });
      await expect(needs).toContainText(TEXT[locale].needsBasic);
      await needs.getByTestId('kyc-needs-link').click();
      await expect(page).toHaveURL(/\/identity\/basic/);

      // The server refuses the application the same way, naming the step that comes first.
      const refused = await postApi(page.request, 'investor/qualify', {
        type: 'individual',
        portfolioHkd: '9000000',
        isDeclared: true,
      });
      expect(refused.statusCode).toBe(143);
      expect(refused.content?.route).toBe('/identity/basic');
    });
  });
}
