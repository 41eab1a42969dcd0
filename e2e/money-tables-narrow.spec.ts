import { expect, test } from '@playwright/test';
import { layoutProblems, logInThroughApi, navigateInApp, sidewaysOverflowPx, snap } from './helpers.ts';
import { LOCALES } from './locale-runs.ts';

/**
 * The pages of money at a phone's width (390 px), in both languages (docs/accessibility.md "Tables
 * of money on a phone"; docs/decisions/0012-responsive-money-tables.md): the demo account opens each
 * page with a table of money — balances, records, holdings and orders, loans, statements, proof of
 * liabilities — and nothing scrolls sideways, and every figure, tag and action is inside the
 * viewport and clear of its neighbours (`layoutProblems`). Screenshots:
 * `mobile-money-tables-<locale>-<page>.png` under e2e/artifacts/screenshots/.
 */
const PAGES = [
  ['account-overview', '/my/account/overview', 'account-overview'],
  ['main-account', '/my/account/main', 'main-total-usd'],
  ['fund-account', '/my/account/fund', null],
  ['card-account', '/my/account/fiscard', null],
  ['statement', '/my/account/statement', null],
  ['deposit-history', '/my/order/wallet/deposit', null],
  ['withdraw-history', '/my/order/wallet/withdraw', null],
  ['swap-history', '/my/order/swap', null],
  ['fund-history', '/my/order/fund', null],
  ['loan-history', '/my/order/loan/history', null],
  ['loans', '/loan', null],
  ['trust', '/product/trust', null],
  ['liabilities', '/proof-of-liabilities', 'liabilities-verdict-pass'],
] as const;

test.skip(({ isMobile }) => !isMobile, 'a phone-width check: the mobile project (390 px)');

for (const locale of LOCALES) {
  test(`tables of money at 390 px: no sideways scrolling, every figure and action on screen and clear (${locale})`, async ({
    page,
  }, testInfo) => {
    // 13 pages on the loaded 2-core machine.
    test.setTimeout(300_000);
    await logInThroughApi(page, undefined, locale);
    await page.goto('/my/account/main');
    await expect(page.getByTestId('main-total-usd')).toBeVisible({ timeout: 40_000 });
    for (const [name, path, readyTestId] of PAGES) {
      await navigateInApp(page, path);
      if (readyTestId) await expect(page.getByTestId(readyTestId)).toBeVisible({ timeout: 40_000 });
      await page.waitForLoadState('networkidle');
      // No skeleton or spinner left: the page shows its data.
      await expect(page.locator('main .ant-skeleton, main .ant-spin-spinning')).toHaveCount(0, { timeout: 30_000 });
      await snap(page, testInfo, name, `money-tables-${locale}-`);
      // Soft: every page is measured and captured even when one fails.
      expect.soft(await sidewaysOverflowPx(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      expect.soft(await layoutProblems(page), `${path}: figures or actions off screen or overlapping`).toEqual([]);
    }
  });
}
