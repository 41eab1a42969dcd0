import { expect, type Locator, type Page } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { depositUsdtThroughCustody, readCode, registerAndLogIn, snap } from './helpers.ts';
import { type Locale, PROJECT_OF_LOCALE, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';
import { CODE_RESEND_WAIT_MS } from './server-template.ts';
import { addComplianceOperator, reachLevelTwo } from './investor.ts';

/**
 * The funds end to end on the production build: a user brought to level 2 through
 * the API (basic KYC and the investor profile approved by a compliance operator with `npm run ops --
 * kyc approve`, the AML answers and a tax form) and credited 2,000 USDT through the custody webhook
 * sees the products and the calculator on /product/earn, subscribes 1,000 USDT to the current fund
 * through the security check, and finds it in the fund account and the fund history; subscribes a
 * fixed-term fund from current-fund shares and sees it among the fixed holdings with its maturity
 * date; redeems 200 shares to the wallet as USDT and gets them back. en-US at 1280 px, zh-HK at 390 px.
 */
const FUNDS_CUSTODY_SECRET = 'e2e-funds-custody-secret-0123456789abcdef';

/** Each test on a server of its own with a compliance operator (added on the copy before start). */
const test = ownServerTest('funds', FUNDS_CUSTODY_SECRET, addComplianceOperator);

/** The user's available USDT in the main account. */
async function availableUsdt(page: Page): Promise<string> {
  const answer = await (await page.request.get('/api/wallet/balance')).json();
  const main = (
    answer.content.wallet.accounts as {
      accountType: string;
      assets: { coinCode: string; type: string; amount: string }[];
    }[]
  ).find((account) => account.accountType === 'MainAccount');
  return main?.assets.find((asset) => asset.coinCode === 'USDT' && asset.type === 'available')?.amount ?? '0';
}

/** Time for a page's first data on the shared, loaded 2-core machine (a fresh load fetches its chunks and texts). */
const PAGE_LOAD_MS = 40_000;

/**
 * Submits with `submit` and passes the security check that opens with the emailed code of `event`.
 * Within the resend wait of the last code of that event the server sends no new one (and the last,
 * already used, does not work again), as a person would wait for "resend": so the check is opened
 * only once that time has passed (`codeSentAt`, per test; a few seconds on the e2e servers, see
 * server-template.ts `E2E_CODE_RESEND_AFTER_SECONDS`).
 */
async function submitThroughSecurityCheck(
  page: Page,
  submit: Locator,
  email: string,
  event: string,
  codeSentAt: Map<string, number>,
): Promise<void> {
  const sentAt = codeSentAt.get(event);
  if (sentAt !== undefined) await page.waitForTimeout(Math.max(0, sentAt + CODE_RESEND_WAIT_MS - Date.now()));
  await submit.click();
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  codeSentAt.set(event, Date.now());
  await page.getByTestId('email-code').fill(await readCode(page.request, email, event));
  await page.getByTestId('security-check-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeHidden();
}

/** The redemption's action label in the history. */
const REDEEM_LABEL: Record<Locale, string> = { 'en-US': 'Redeem', 'zh-HK': '贖回' };

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a level-2 investor subscribes 1,000 USDT to the current fund, a fixed-term fund from current shares, and redeems to the wallet (${locale})`, async ({
      page,
      ownServer,
      prepared: opsToken,
    }, testInfo) => {
      test.setTimeout(480_000);
      const email = `funds-${locale.toLowerCase()}-${Date.now()}@meridian.test`;
      const userId = await registerAndLogIn(page, email, locale);
      const codeSentAt = new Map<string, number>();

      // Below level 2 the earn page asks for verification instead of showing the products.
      await page.goto('/product/earn');
      await expect(page.getByTestId('fund-kyc')).toBeVisible({ timeout: PAGE_LOAD_MS });
      await snap(page, testInfo, `${locale}-earn-level0`, 'funds-');

      await reachLevelTwo(page.request, ownServer, opsToken!, userId);
      // Level 2 opens the funds: the asset call answers.
      const asset = await (await page.request.get('/api/fund/v2/asset')).json();
      expect(asset.statusCode, asset.message).toBe(200);
      await depositUsdtThroughCustody(page.request, FUNDS_CUSTODY_SECRET, email, '2000');

      // The products, the tier table of the current fund and the calculator (10,000 at 3.65 % for 30 days: 30.00).
      await page.goto('/product/earn');
      const current = page.getByTestId('fund-product-EXW_CURRENT_PRODUCT');
      await expect(current).toBeVisible({ timeout: PAGE_LOAD_MS });
      await expect(current.getByTestId('fund-rate')).toHaveText('3.65%');
      await expect(current.getByTestId('rate-tiers')).toBeVisible();
      await expect(page.getByTestId('calculator-total')).toContainText('30.00');
      await snap(page, testInfo, `${locale}-earn`, 'funds-');

      // Subscribe 1,000 USDT from the wallet.
      await current.getByTestId('fund-subscribe').click();
      const subscribe = page.getByTestId('subscribe-form');
      await expect(subscribe).toBeVisible({ timeout: PAGE_LOAD_MS });
      await expect(subscribe.getByTestId('fund-available')).toContainText('2,000.00');
      // A refusal of the form's own rules: more than the wallet holds.
      await subscribe.getByTestId('fund-amount').fill('2500');
      await subscribe.getByTestId('fund-submit').click();
      await expect(subscribe.locator('.ant-form-item-explain-error')).toContainText('2,000.00');
      await subscribe.getByTestId('fund-amount').fill('1000');
      await expect(subscribe.getByTestId('fund-preview')).toBeVisible();
      await snap(page, testInfo, `${locale}-subscribe`, 'funds-');
      await submitThroughSecurityCheck(page, subscribe.getByTestId('fund-submit'), email, 'PURCHASE', codeSentAt);
      await expect(page.getByTestId('subscribe-result')).toContainText('1,000.00');
      await snap(page, testInfo, `${locale}-subscribe-done`, 'funds-');
      await page.getByTestId('subscribe-done').click();
      expect(await availableUsdt(page)).toMatch(/^1000(\.0+)?$/);

      // The fund account: 1,000.00 USD of current shares.
      await page.goto('/my/account/fund');
      await expect(page.getByTestId('fund-usable')).toContainText('1,000.00', { timeout: PAGE_LOAD_MS });
      await expect(page.getByTestId('fund-total')).toContainText('1,000.00');
      await expect(page.getByTestId('earnings-chart')).toBeVisible();
      await snap(page, testInfo, `${locale}-account`, 'funds-');

      // The history: the subscription.
      await page.goto('/my/order/fund');
      await expect(page.getByTestId('fund-order-amount').first()).toContainText('1,000.00', { timeout: PAGE_LOAD_MS });
      await snap(page, testInfo, `${locale}-history`, 'funds-');

      // A fixed-term fund from current shares: the first one open for subscription.
      await page.goto('/product/earn');
      const fixed = page
        .locator('[data-testid^="fund-product-FIXED_"]')
        .filter({ has: page.locator('[data-testid="fund-subscribe"]:not([disabled])') })
        .first();
      await expect(fixed).toBeVisible({ timeout: PAGE_LOAD_MS });
      await fixed.getByTestId('fund-subscribe').click();
      const fixedForm = page.getByTestId('subscribe-form');
      await expect(fixedForm.getByTestId('fund-available')).toContainText('1,000.00');
      await fixedForm.getByTestId('fund-amount').fill('300');
      await snap(page, testInfo, `${locale}-subscribe-fixed`, 'funds-');
      await submitThroughSecurityCheck(page, fixedForm.getByTestId('fund-submit'), email, 'PURCHASE', codeSentAt);
      await expect(page.getByTestId('subscribe-result')).toContainText('300.00');
      await page.getByTestId('subscribe-done').click();

      await page.goto('/my/account/fund');
      await expect(page.getByTestId('fixed-principal').first()).toContainText('300.00', { timeout: PAGE_LOAD_MS });
      await expect(page.getByTestId('fixed-maturity').first()).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
      await expect(page.getByTestId('fund-usable')).toContainText('700.00');

      // Redeem 200 shares to the wallet as USDT.
      await page.getByTestId('account-redeem').click();
      const redeem = page.getByTestId('redeem-form');
      await expect(redeem.getByTestId('fund-available')).toContainText('700.00');
      await pickOption(page, redeem.getByTestId('fund-coin'), 'USDT');
      await redeem.getByTestId('fund-amount').fill('200');
      await snap(page, testInfo, `${locale}-redeem`, 'funds-');
      await submitThroughSecurityCheck(page, redeem.getByTestId('fund-submit'), email, 'REDEEM', codeSentAt);
      await expect(page.getByTestId('redeem-result')).toContainText('200.00');
      await page.getByTestId('redeem-done').click();
      await expect(page.getByTestId('fund-usable')).toContainText('500.00');
      await snap(page, testInfo, `${locale}-account-after`, 'funds-');
      expect(await availableUsdt(page)).toMatch(/^1200(\.0+)?$/);

      // The history lists the three orders, newest first.
      await page.goto('/my/order/fund');
      const amounts = page.getByTestId('fund-order-amount');
      await expect(amounts).toHaveCount(3, { timeout: PAGE_LOAD_MS });
      await expect(amounts.nth(0)).toContainText('200.00');
      await expect(
        page.getByTestId(PROJECT_OF_LOCALE[locale] === 'mobile' ? 'fund-order-list' : 'fund-order-table'),
      ).toContainText(REDEEM_LABEL[locale]);
      await snap(page, testInfo, `${locale}-history-after`, 'funds-');
    });
  });
}
