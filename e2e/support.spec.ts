import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { backOfficeTest, openPage } from './back-office-session.ts';
import { readCode, registerAndLogIn, snap } from './helpers.ts';

/**
 * Account deletion as a request to customer service (docs/back-office.md "Support requests": each
 * answered with a status and a reply), end to end on the production build: a user asks to delete
 * the account with a reason (after the security check) and sees it pending; an admin signs in to
 * the back office, opens Support requests, replies (In progress) and then rejects it with a reply;
 * the user sees the status and the reply on the deletion page. Screenshots of both pages at 1280
 * and 390 px in en-US and zh-HK.
 */
const CUSTODY_SECRET = 'e2e-support-custody-secret-0123456789abcd';

// Its own server with a first admin, `root@meridian.test`, whose temporary password is `prepared`.
const test = backOfficeTest('support', CUSTODY_SECRET);
// One run covers both languages and both widths (the screenshots switch them); the desktop project runs it.
test.skip(({ isMobile }) => isMobile, 'runs once, on the desktop project');

type Locale = 'en-US' | 'zh-HK';

/**
 * Screenshots of `path` at 1280 and 390 px in both languages, named `<prefix><locale>-<width>`
 * (`?locale=` selects the language: the contexts' init scripts store en-US at every load).
 */
async function snapBoth(page: Page, testInfo: Parameters<typeof snap>[1], path: string, prefix: string, ready: string) {
  for (const locale of ['en-US', 'zh-HK'] as Locale[]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${path}?locale=${locale}`);
      await expect(page.getByTestId(ready).first()).toBeVisible({ timeout: 45_000 });
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await snap(page, testInfo, `${locale}-${width}`, prefix);
    }
  }
}

test('a user asks to delete the account; support replies and rejects; the user reads the reply', async ({
  browser,
  ownServer,
  prepared: rootPassword,
}, testInfo) => {
  test.setTimeout(240_000);

  // The user asks for deletion with a reason, after the security check (an email code).
  const user = await openPage(browser, ownServer, 'en-US');
  const email = `delete-me-${Date.now()}@meridian.test`;
  await registerAndLogIn(user, email, 'en-US');
  await user.goto('/my/security/account/delete');
  await user.getByTestId('deletion-reason').fill('I am moving to another provider');
  await user.getByTestId('delete-understood').click();
  await user.getByTestId('delete-submit').click();
  await expect(user.getByTestId('security-check-form')).toBeVisible();
  await user.getByTestId('email-code').fill(await readCode(user.request, email, 'ACCOUNT_CANCEL'));
  await user.getByTestId('security-check-submit').click();
  await expect(user.getByTestId('deletion-status')).toHaveText('Pending', { timeout: 30_000 });
  await expect(user.getByTestId('delete-submit')).toHaveCount(0);

  // The admin signs in (password, then an authenticator) and opens Support requests.
  const admin = await openPage(browser, ownServer, 'en-US');
  await admin.goto('/admin/login');
  await admin.getByLabel('Email', { exact: true }).fill('root@meridian.test');
  await admin.getByLabel('Password', { exact: true }).fill(String(rootPassword));
  await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
  const secret = (await admin.getByTestId('admin-totp-secret').innerText()).trim();
  const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
  await admin.getByLabel('Authenticator code', { exact: true }).fill(code);
  await admin.getByRole('button', { name: 'Confirm and continue', exact: true }).click();
  await admin.getByRole('menuitem', { name: 'Support requests', exact: true }).click();
  const row = admin.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();

  // Reply first (In progress), then reject with the reply the user reads.
  await row.getByRole('button', { name: 'Reply', exact: true }).click();
  await admin.getByRole('dialog').getByRole('textbox').fill('We are checking your account');
  await admin.getByRole('dialog').getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(row.getByText('In progress', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Reject', exact: true }).click();
  await admin.getByRole('dialog').getByRole('textbox').fill('Please call us to confirm your identity first');
  await admin.getByRole('dialog').getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(row.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Reply', exact: true })).toHaveCount(0);

  // The user sees the status and the reply, and may send a new request.
  // (A reload on a loaded machine can take longer than the default 15 s.)
  await user.reload();
  await expect(user.getByTestId('deletion-status')).toHaveText('Rejected', { timeout: 45_000 });
  await expect(user.getByTestId('deletion-reply')).toHaveText('Please call us to confirm your identity first');
  await expect(user.getByTestId('delete-submit')).toBeVisible();

  // The card limit requests are the support page's second tab.
  await admin.getByRole('tab', { name: 'Card limit requests', exact: true }).click();
  await expect(admin.getByRole('tabpanel')).toBeVisible();
  await admin.getByRole('tab', { name: 'Account deletion', exact: true }).click();

  await snapBoth(user, testInfo, '/my/security/account/delete', 'support-delete-account-', 'deletion-request');
  await snapBoth(admin, testInfo, '/admin/support', 'support-admin-', 'support-page');
});
