import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { LOCALES, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';
import { REAL_CODE_RESEND_ENV } from './server-template.ts';
import { DEMO, depositWithCli, logInThroughApi, readCode, snap } from './helpers.ts';

/**
 * An on-chain (OUTER) withdrawal end to end on the production build: USDT credited through
 * `npm run deposit` (the signed custody webhook), the balance shown, a withdrawal to a TRC20 address
 * through the security-check modal with the email code from the dev mailbox, the withdraw history
 * showing it waiting, the history filters (coin, status) — inline on desktop, in the modal on
 * mobile — a cancel, the record cancelled and the balance restored; at 1280 and 390 px, en-US and
 * zh-HK.
 *
 * Withdrawals need basic KYC and no KYC flow exists yet; the seeded demo account is verified. So
 * that no two tests (nor wallet.spec.ts) share the demo account's money or its email-code countdown,
 * every test starts its own server of the production build on its own in-memory database.
 */
const SECRET = 'e2e-withdraw-custody-secret-0123456789abcdef';
/** A valid TRON address owned by no Meridian user: the withdrawal is OUTER and waits for an operator. */
const OUTER_ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

/**
 * Each test on a server of its own (a copy of the run's template), stopped after it, with the
 * real 59 s between two codes: a retry within it keeps the first code (below).
 */
const test = ownServerTest('withdraw', SECRET, undefined, REAL_CODE_RESEND_ENV);

const TEXT = {
  'en-US': { all: 'All', waiting: 'Waiting', cancelled: 'Cancelled', outer: 'On chain' },
  'zh-HK': { all: '全部', waiting: '等待中', cancelled: '已取消', outer: '鏈上' },
} as const;

/** Apply the history filters: inline on desktop, through the Filter modal on mobile. */
async function filterHistory(page: Page, isMobile: boolean, filters: { coin: string; status?: string }): Promise<void> {
  let scope: Page | Locator = page;
  if (isMobile) {
    await page.getByTestId('filter-open').click();
    scope = page.getByRole('dialog').filter({ has: page.getByTestId('filter-submit') });
    await expect(scope).toBeVisible();
    await scope.getByTestId('filter-reset').click();
  } else {
    await page.getByTestId('filter-reset').click();
  }
  await pickOption(page, scope.getByTestId('filter-coin'), filters.coin);
  if (filters.status) await pickOption(page, scope.getByTestId('filter-status'), filters.status);
  await scope.getByTestId('filter-submit').click();
  if (isMobile) await expect(page.getByTestId('filter-submit')).toBeHidden();
}

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a deposit, an on-chain withdrawal through the security check, the filtered history, a cancel (${locale})`, async ({
      page,
      baseURL,
    }, testInfo) => {
      test.setTimeout(180_000); // starting the test's own server (migrations, seed, price backfill) is part of it
      const text = TEXT[locale];
      const isMobile = testInfo.project.name === 'mobile';
      await depositWithCli(baseURL!, SECRET, DEMO.email, '250');
      await logInThroughApi(page, DEMO, locale);

      // The balance of the deposit.
      await page.goto('/my/account/main');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      // The seed's 10,000 USDT of the demo account and the deposit.
      await expect(page.getByTestId('available-USDT')).toHaveText('10,250.00');
      await expect(page.getByTestId('frozen-USDT')).toHaveText('0.00');

      // The withdrawal form: TRC20, an outside address, 40 USDT plus the 1 USDT fee.
      await page.goto('/account/wallet/withdraw/USDT');
      await pickOption(page, page.getByTestId('network-select'), 'TRC20');
      await page.getByTestId('withdraw-address').fill(OUTER_ADDRESS);
      await page.getByTestId('withdraw-amount').fill('40');
      await expect(page.getByTestId('withdraw-fee')).toHaveText('1.00 USDT');
      await expect(page.getByTestId('withdraw-form')).toContainText('10,250');
      await snap(page, testInfo, `${locale}-form`, 'withdraw-');

      // The security check: the email code is sent when the modal shows.
      await page.getByTestId('withdraw-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, DEMO.email, 'WITHDRAW'));
      await snap(page, testInfo, `${locale}-security-check`, 'withdraw-');
      await page.getByTestId('security-check-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeHidden();
      await expect(page.getByTestId('withdraw-result')).toBeVisible();

      // Amount plus fee are frozen while it waits.
      await page.goto('/my/account/main');
      await expect(page.getByTestId('available-USDT')).toHaveText('10,209.00');
      await expect(page.getByTestId('frozen-USDT')).toHaveText('41.00');

      // The withdraw history: waiting, on chain.
      await page.goto('/my/order/wallet/withdraw');
      const records = page.getByTestId(isMobile ? 'record-list' : 'record-table');
      const amounts = records.getByTestId('record-amount');
      const tags = records.getByTestId('status-tag');
      const amountText = isMobile ? '40.00 USDT' : '40.00';
      await expect(amounts).toHaveText([amountText]);
      await expect(tags).toHaveText([text.waiting]);
      await expect(records).toContainText(text.outer);
      if (!isMobile) await expect(records).toContainText(OUTER_ADDRESS.slice(0, 8));

      // Filters: another coin shows nothing; the coin and "waiting" show it.
      await filterHistory(page, isMobile, { coin: 'BTC' });
      await expect(records.locator(isMobile ? '.ant-list-empty-text' : '.ant-table-placeholder')).toBeVisible();
      await expect(amounts).toHaveCount(0);
      await filterHistory(page, isMobile, { coin: 'USDT', status: text.waiting });
      await expect(amounts).toHaveText([amountText]);
      await expect(tags).toHaveText([text.waiting]);
      await snap(page, testInfo, `${locale}-history-waiting`, 'withdraw-');

      // Cancel: the filtered "waiting" list empties; "cancelled" shows it.
      await records.getByTestId('record-cancel').click();
      await expect(amounts).toHaveCount(0);
      await filterHistory(page, isMobile, { coin: 'USDT', status: text.cancelled });
      await expect(amounts).toHaveText([amountText]);
      await expect(tags).toHaveText([text.cancelled]);
      await expect(records.getByTestId('record-cancel')).toHaveCount(0);
      await filterHistory(page, isMobile, { coin: text.all });
      await expect(tags).toHaveText([text.cancelled]);
      await snap(page, testInfo, `${locale}-history-cancelled`, 'withdraw-');

      // The funds are back.
      await page.goto('/my/account/main');
      await expect(page.getByTestId('available-USDT')).toHaveText('10,250.00');
      await expect(page.getByTestId('frozen-USDT')).toHaveText('0.00');
    });
  });
}

/** The messages (WITHDRAW codes) the dev mailbox holds for `email`. */
async function withdrawCodeCount(request: APIRequestContext, email: string): Promise<number> {
  const messages: { tag: string | null }[] = (
    await (await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()
  ).content;
  return messages.filter((item) => item.tag === 'WITHDRAW').length;
}

// Each test starts its own server before its body runs: give the start room on a busy machine.
test.describe.configure({ timeout: 180_000 });

const CHECK_TEXT = {
  'en-US': { stillValid: 'still valid', waiting: 'Waiting', title: 'Withdrawal submitted' },
  'zh-HK': { stillValid: '仍然有效', waiting: '等待中', title: '提幣已提交' },
} as const;

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`the page refuses a bad address before asking for a code; a retry within 59 s keeps the first code; the result card (${locale})`, async ({
      page,
    }, testInfo) => {
      const text = CHECK_TEXT[locale];
      await logInThroughApi(page, DEMO, locale);

      // The demo account starts with money: nothing to deposit first.
      await page.goto('/my/account/main');
      await expect(page.getByTestId('available-USDT')).toHaveText('10,000.00', { timeout: 20_000 }); // the first page of a cold server
      await expect(page.getByTestId('wallet-empty')).toHaveCount(0);

      // `not-an-address`: refused on the address field by the dry run, no dialog, no code sent.
      await page.goto('/account/wallet/withdraw/USDT');
      await pickOption(page, page.getByTestId('network-select'), 'TRC20');
      await page.getByTestId('withdraw-address').fill('not-an-address');
      await page.getByTestId('withdraw-amount').fill('40');
      await page.getByTestId('withdraw-submit').click();
      const addressItem = page.locator('.ant-form-item').filter({ has: page.getByTestId('withdraw-address') });
      await expect(addressItem.locator('.ant-form-item-explain-error')).toHaveText(/TRC20/);
      await expect(page.getByTestId('security-check-modal')).toHaveCount(0);
      await snap(page, testInfo, `${locale}-refused-address`, 'withdraw-');
      expect(await withdrawCodeCount(page.request, DEMO.email)).toBe(0);

      // A good address: the dry run passes, the dialog opens and the code is sent.
      await page.getByTestId('withdraw-address').fill(OUTER_ADDRESS);
      await expect(addressItem.locator('.ant-form-item-explain-error')).toHaveCount(0);
      await page.getByTestId('withdraw-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      const code = await readCode(page.request, DEMO.email, 'WITHDRAW');

      // Closed and retried a few seconds later: the server refuses a new code (429); the dialog shows
      // the real remaining time and that the first code is still valid.
      await page.locator('.ant-modal-close').click();
      await expect(page.getByTestId('security-check-form')).toBeHidden();
      await page.waitForTimeout(3_000);
      await page.getByTestId('withdraw-submit').click();
      await expect(page.getByTestId('email-code-note')).toContainText(text.stillValid);
      const seconds = Number((await page.getByTestId('send-code').textContent())?.match(/\d+/)?.[0]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(57);
      expect(await withdrawCodeCount(page.request, DEMO.email)).toBe(1);
      await snap(page, testInfo, `${locale}-code-still-valid`, 'withdraw-');

      // The first code works; the result card replaces the form.
      await page.getByTestId('email-code').fill(code);
      await page.getByTestId('security-check-submit').click();
      const result = page.getByTestId('withdraw-result');
      await expect(result).toContainText(text.title);
      await expect(result.locator('.ant-result-icon')).toBeInViewport({ ratio: 1 });
      await expect(result.getByTestId('withdraw-result-amount')).toHaveText('40.00 USDT');
      await expect(result.getByTestId('withdraw-result-fee')).toHaveText('1.00 USDT');
      await expect(result.getByTestId('withdraw-result-network')).toHaveText('TRC20');
      await expect(result.getByTestId('withdraw-result-address')).toContainText(OUTER_ADDRESS);
      await expect(result.getByTestId('status-tag')).toHaveText(text.waiting);
      expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(
        0,
      );
      await snap(page, testInfo, `${locale}-result`, 'withdraw-');
      await result.getByTestId('withdraw-history-link').click();
      await expect(page).toHaveURL(/\/my\/order\/wallet\/withdraw$/);
      await expect(
        page.getByTestId(testInfo.project.name === 'mobile' ? 'record-list' : 'record-table').getByTestId('status-tag'),
      ).toHaveText([text.waiting]);
    });
  });
}
