import { expect } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { LOCALES, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';
import { isOneLine } from './page-style.ts';
import { DEMO, depositUsdtThroughCustody, logInThroughApi, snap } from './helpers.ts';

/**
 * Swap and flash exchange end to end on the production build: USDT credited through the
 * signed custody webhook; on /exchange the available balance, the amount rules, a quote with its
 * countdown, its expiry ('This quote has expired, please get a new quote'), a refresh, a swap, the
 * balance updated; a flash exchange; then /my/order/swap lists both — at 1280 and 390 px, in en-US
 * and zh-HK.
 *
 * Executing a swap needs basic identity verification, and no KYC flow exists yet; the seeded demo
 * account is verified. So that this spec neither shares the demo account's money with
 * wallet.spec.ts nor with itself, every test starts its own server of the production build on its
 * own in-memory database (a few seconds), where the demo account starts empty.
 */
const SECRET = 'e2e-exchange-custody-secret-0123456789abcdef';

/** Each test on a server of its own (a copy of the run's template), stopped after it. */
const test = ownServerTest('exchange', SECRET);

const TEXT = {
  'en-US': {
    available: (amount: string) => `Available: ${amount} USDT`,
    exceeds: 'Do not exceed the available balance',
    minimum: 'Minimum order amount 10.00 USDT',
    expiresIn: /Quote expires in \d+ seconds?/,
    expired: 'This quote has expired, please get a new quote',
    done: 'Exchange complete',
    message: 'Exchange completed',
    flash: 'Flash',
  },
  'zh-HK': {
    available: (amount: string) => `可用：${amount} USDT`,
    exceeds: '不可超過可用餘額',
    minimum: '最小下單金額 10.00 USDT',
    expiresIn: /報價將於 \d+ 秒後失效/,
    expired: '報價已過期，請重新取得報價',
    done: '兌換成功',
    message: '兌換已完成',
    flash: '閃兌',
  },
} as const;

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a quote, its countdown and expiry, a refresh, a swap, a flash exchange and the history (${locale})`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(180_000); // starting the test's own server is part of it
      const text = TEXT[locale];
      await depositUsdtThroughCustody(page.request, SECRET, DEMO.email, '250');
      await logInThroughApi(page, DEMO, locale);
      await page.clock.install();
      await page.goto('/exchange');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);

      // The default pair and the from-coin's available balance.
      const panel = page.getByTestId('exchange-panel');
      await expect(panel.getByTestId('exchange-from-coin')).toContainText('USDT');
      await expect(panel.getByTestId('exchange-to-coin')).toContainText('USDE');
      await expect(panel.getByTestId('exchange-available')).toContainText(text.available('10,250.00'));

      // Amount rules: the balance (checked here), then the minimum order amount (the server's, in the user's language).
      await panel.getByTestId('exchange-from-amount').fill('10300');
      await panel.getByTestId('quote-get').click();
      await expect(panel.getByTestId('exchange-amount-error')).toHaveText(text.exceeds);
      await panel.getByTestId('exchange-from-amount').fill('5');
      await panel.getByTestId('quote-get').click();
      await expect(panel.getByTestId('exchange-amount-error')).toHaveText(text.minimum);

      // A quote with its countdown; the amount received fills the other side.
      await panel.getByTestId('exchange-from-amount').fill('100');
      await panel.getByTestId('quote-get').click();
      await expect(panel.getByTestId('quote-receive')).toHaveText('99.90 USDE');
      await expect(panel.getByTestId('exchange-to-amount')).toHaveValue('99.900000');
      await expect(panel.getByTestId('quote-countdown')).toHaveText(text.expiresIn);
      await snap(page, testInfo, `quote-${locale}`, 'exchange-');

      // It expires: the quote-expired message (`text.expired`), and it cannot be confirmed.
      await page.clock.fastForward(11_000);
      await expect(panel.getByTestId('quote-expired')).toHaveText(text.expired);
      await expect(panel.getByTestId('quote-confirm')).toBeDisabled();
      await snap(page, testInfo, `expired-${locale}`, 'exchange-');

      // A refresh gives a new quote with a new countdown; confirming it swaps.
      await panel.getByTestId('quote-refresh').click();
      await expect(panel.getByTestId('quote-countdown')).toHaveText(text.expiresIn);
      // Scrolled down to Confirm and past it, as on a phone.
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
      await panel.getByTestId('quote-confirm').click();
      const result = page.getByTestId('exchange-result');
      await expect(result).toContainText(text.done);
      // Scrolled into view: the result is shorter than the form, and a phone stayed where Confirm was.
      await expect(result.locator('.ant-result-icon')).toBeInViewport({ ratio: 1 });
      await expect(result).toContainText('100.00 USDT');
      await expect(result).toContainText('99.90 USDE');
      // Its message arrives at once, in the language the user is using (not the one they signed in with).
      await expect(page.locator('.push-toast .ant-notification-notice-title').first()).toHaveText(text.message);
      await snap(page, testInfo, `result-${locale}`, 'exchange-');

      // The balance is updated.
      await result.getByTestId('exchange-again').click();
      await expect(panel.getByTestId('exchange-available')).toContainText(text.available('10,150.00'));

      // A flash exchange at the live rate with the default 0.5% slippage.
      await panel.getByTestId('mode-flash').click();
      await expect(panel.getByTestId('exchange-slippage')).toHaveValue('0.5');
      await panel.getByTestId('exchange-from-amount').fill('50');
      await panel.getByTestId('flash-rate').click();
      await expect(panel.getByTestId('quote-receive')).toHaveText('49.95 USDE');
      await expect(panel.getByTestId('quote-minimum')).toHaveText('49.70 USDE'); // 49.95 × 99.5% = 49.70025, shown rounded down
      await snap(page, testInfo, `flash-${locale}`, 'exchange-');
      await panel.getByTestId('flash-submit').click();
      await expect(result).toContainText('50.00 USDT');
      await expect(result).toContainText('49.95 USDE');
      await result.getByTestId('exchange-again').click();
      await expect(panel.getByTestId('exchange-available')).toContainText(text.available('10,100.00'));

      // The history: newest first, both kinds; the coin filter (desktop inline, mobile in a modal).
      await page.goto('/my/order/swap');
      const isMobile = testInfo.project.name === 'mobile';
      const rows = page.getByTestId(isMobile ? 'swap-list' : 'swap-table');
      // The history page's first load under a loaded machine: its chunks took up to 16 s to arrive.
      await expect(rows.getByTestId('swap-paid')).toHaveText(['50.00 USDT', '100.00 USDT'], { timeout: 30_000 });
      await expect(rows.getByTestId('swap-received')).toHaveText(['49.95 USDE', '99.90 USDE']);
      await expect(rows).toContainText(text.flash);
      await snap(page, testInfo, `history-${locale}`, 'exchange-');
      if (isMobile) await page.getByTestId('swap-filter-open').click();
      await pickOption(page, page.getByTestId('swap-filter-coin'), 'BTC');
      if (isMobile) await snap(page, testInfo, `history-filter-${locale}`, 'exchange-');
      await page.getByTestId('swap-filter-submit').click();
      await expect(rows.getByTestId('swap-paid')).toHaveCount(0);
      if (isMobile) await page.getByTestId('swap-filter-open').click();
      await page.getByTestId('swap-filter-reset').click();
      if (isMobile) await page.getByTestId('swap-filter-submit').click();
      await expect(rows.getByTestId('swap-paid')).toHaveCount(2);
    });
  });
}

test('a guest is asked to log in to exchange', async ({ page }, testInfo) => {
  test.setTimeout(120_000); // starting the test's own server is part of it
  await page.goto('/exchange');
  await expect(page.getByTestId('exchange-login-submit')).toHaveText('Please login to exchange');
  await snap(page, testInfo, 'guest', 'exchange-');
  await page.getByTestId('exchange-login-submit').click();
  await expect(page.getByTestId('action-modal')).toHaveAttribute('data-flow', 'login');
});

/**
 * Rates and dates (docs/money-format.md) on the swap and the swap history: a USDT → BTC quote shows its rate with
 * 6 significant digits and the inverse rate (it read `1 USDT = 0.000055110975226 BTC` and pushed the
 * zh-HK label onto two lines at 390 px); a swap shows one confirmation — the result card and the
 * message-centre toast, no generic "Success" toast beside them; a history date stays on one line.
 */
test.describe('rate, confirmation and history dates', () => {
  // Starting the test's own server counts against the timeout too, before the test body runs.
  test.describe.configure({ timeout: 180_000 });
  for (const locale of LOCALES) {
    test.describe(() => {
      runOnLocaleProject(test, locale);
      test(`a readable rate and its inverse, one confirmation after a swap, one-line history dates (${locale})`, async ({
        page,
      }, testInfo) => {
        test.setTimeout(180_000); // starting the test's own server is part of it
        await depositUsdtThroughCustody(page.request, SECRET, DEMO.email, '250');
        await logInThroughApi(page, DEMO, locale);
        await page.goto('/exchange');
        const panel = page.getByTestId('exchange-panel');
        await pickOption(page, panel.getByTestId('exchange-to-coin'), 'BTC');
        await panel.getByTestId('exchange-from-amount').fill('100');
        await panel.getByTestId('quote-get').click();

        await expect(panel.getByTestId('quote-rate')).toHaveText(/^1 USDT = 0\.0*[1-9]\d{0,5} BTC$/);
        await expect(panel.getByTestId('quote-rate-inverse')).toHaveText(/^1 BTC = [1-9]\d{0,2}(,\d{3})*\.\d{2} USDT$/);
        // The label beside the rate keeps to one line (its height is one line's).
        const label = panel.getByTestId('exchange-quote').locator('dt').first();
        expect(await isOneLine(label), 'the rate label fits one line').toBe(true);
        await snap(page, testInfo, `rate-btc-${locale}`, 'exchange-');

        await panel.getByTestId('quote-confirm').click();
        await expect(page.getByTestId('exchange-result')).toBeVisible();
        await expect(page.locator('.push-toast .ant-notification-notice-title').first()).toBeVisible();
        // The api client's generic success toast would have shown with the answer; give it a moment.
        await page.waitForTimeout(1_000);
        await expect(page.locator('.ant-message-notice-success')).toHaveCount(0);

        await page.goto('/my/order/swap');
        const time = page.getByTestId('swap-time').first();
        await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
        expect(await isOneLine(time), 'the date and time fit one line').toBe(true);
        await expect(page.locator('.swap-history__rate').first()).toHaveText(/^1 USDT = 0\.0*[1-9]\d{0,5} BTC$/);
        await snap(page, testInfo, `history-dates-${locale}`, 'exchange-');
      });
    });
  }
});
