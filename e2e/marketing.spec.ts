import { expect, test } from '@playwright/test';
import { LOCALES, runOnLocaleProject } from './locale-runs.ts';

/**
 * Marketing and legal content (docs/marketing.md): every marketing page has real text in
 * both languages — none says "coming soon" — the About page marks the operator's legal details
 * while they are unset, and /download shows the install steps of the Progressive Web App.
 * One tab visits the pages on the shared server (a guest; nothing is spent).
 */
const PAGES = [
  '/',
  '/about',
  '/usde',
  '/product/earn',
  '/product/trust',
  '/product/fiscard',
  '/product/fiscard/physical',
  '/loan',
  '/download',
  '/legal/privacy',
  '/legal/aml-kyc',
];
const NOT_READY = /coming soon|being prepared|lorem ipsum|to be completed|即將推出|敬請期待|準備中|待營運方填寫/i;
const SETTING_NAME = /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/;

for (const locale of LOCALES) {
  test.describe(locale, () => {
    runOnLocaleProject(test, locale);

    test('every marketing page has real content and the install steps show', async ({ page }) => {
      test.setTimeout(20_000 * PAGES.length);
      await page.goto(`/?locale=${locale}`);
      for (const path of PAGES) {
        await page.goto(path);
        await expect(page.getByTestId(path === '/' ? 'home-headline' : 'page-title')).toBeVisible();
        // The e2e server configures no legal details: /about shows marked demonstration values.
        if (path === '/about') {
          await expect(page.getByTestId('legal-demo')).toHaveCount(3);
          await expect(page.getByTestId('legal-demo-note')).toBeVisible();
        }
        if (path === '/download') await expect(page.getByTestId('install-ios').locator('li')).toHaveCount(4);
        if (path.startsWith('/product/') && path.split('/').length === 3 && path !== '/product/fiscard')
          await expect(page.locator('[data-testid^="faq-"]')).toBeVisible();
        const text = await page.locator('body').innerText();
        expect(text, path).not.toMatch(NOT_READY);
        // A public page never names a server setting (SITE_LEGAL_ENTITY, …).
        expect(text, path).not.toMatch(SETTING_NAME);
      }
    });
  });
}
