import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { readCode } from './helpers.ts';
import { CODE_RESEND_WAIT_MS } from './server-template.ts';

/**
 * Identity end to end against the production build with NODE_ENV=test, so the dev
 * mailbox answers: register with the code read from the outbox, log in, turn on the login email
 * code, log out and in with it, bind Google Authenticator (the code is computed here from the shown
 * secret with the same RFC 6238 library as the server), log out and in with both factors, and
 * delete the account through the security-check modal — in en-US and in zh-HK.
 */

const PASSWORD = 'Sturdy-Passphrase-2026';

/** The client waits out the server's resend wait (a few seconds on the e2e servers) of the code sent at `sentAtMs`. */
async function waitForResend(sentAtMs: number): Promise<void> {
  const waitMs = sentAtMs + CODE_RESEND_WAIT_MS - Date.now();
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}

const TOTP_PERIOD_MS = 30_000;
/** Time an authenticator code needs from being typed to the server's check, with room on a loaded machine. */
const TOTP_MARGIN_MS = 10_000;

/** The authenticator code of time step `step` (RFC 6238, the server's parameters). */
function totpAt(secret: string, step: number): string {
  const generator = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return generator.generate({ timestamp: step * TOTP_PERIOD_MS });
}

/**
 * The step of the next authenticator code to type, without waiting for the clock: the server accepts
 * a step within ±1 of its own and each step once, newer than the last accepted (`lastStep`). So take
 * the oldest such step — the previous one when nothing was used yet, which leaves the current and the
 * next for the later checks. A previous step is accepted only until the current one ends: with less
 * than `TOTP_MARGIN_MS` left, wait for the next step first (at most that long).
 */
async function nextTotpStep(lastStep: number | null): Promise<number> {
  const pick = (now: number) => {
    const current = Math.floor(now / TOTP_PERIOD_MS);
    return { current, step: lastStep === null ? current - 1 : Math.max(current - 1, lastStep + 1) };
  };
  const now = Date.now();
  const msLeft = TOTP_PERIOD_MS - (now % TOTP_PERIOD_MS);
  if (pick(now).step >= pick(now).current || msLeft >= TOTP_MARGIN_MS) return pick(now).step;
  await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
  return pick(Date.now()).step;
}

async function waitForHumanCheck(page: Page, submitTestId: string): Promise<void> {
  await expect(page.getByTestId(submitTestId)).toBeEnabled({ timeout: 20_000 });
}

/** Fill and send the open Login flow (after the human check has passed). */
async function submitLogin(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await waitForHumanCheck(page, 'login-submit');
  await page.getByTestId('login-submit').click();
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.getByTestId('header-login').click();
  await expect(page.getByTestId('login-flow')).toBeVisible();
  await submitLogin(page, email);
}

async function logOut(page: Page): Promise<void> {
  await page.getByTestId('account-menu').hover();
  await page.getByTestId('account-menu').getByRole('menuitem').last().click();
  await expect(page.getByTestId('header-login')).toBeVisible();
}

/** Register through the action modal (Mail → Verify → Password); the Login flow opens after. */
async function register(page: Page, request: APIRequestContext, email: string): Promise<void> {
  await page.getByTestId('header-register').click();
  await expect(page.getByTestId('register-flow')).toBeVisible();
  await page.getByTestId('flow-email').fill(email);
  await waitForHumanCheck(page, 'flow-submit');
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('register-flow')).toHaveAttribute('data-step', 'verify');
  await expect(page.getByTestId('flow-back')).toBeVisible();
  await page.getByTestId('send-code').click();
  await expect(page.getByTestId('send-code')).toBeDisabled();
  await page.getByTestId('email-code').fill(await readCode(request, email, 'EMAIL_REGISTER'));
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('register-flow')).toHaveAttribute('data-step', 'password');
  await page.getByTestId('flow-password').fill(PASSWORD);
  await page.getByTestId('flow-confirm').fill(PASSWORD);
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('login-flow')).toBeVisible();
  // The sign-in form says the account exists and has its address filled in.
  await expect(page.getByTestId('login-notice')).toContainText(email);
  await expect(page.getByTestId('login-email')).toHaveValue(email);
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`register, log in with an email code and an authenticator, ask to delete the account (${locale})`, async ({
    page,
    request,
  }, testInfo) => {
    test.skip(
      testInfo.project.name !== 'desktop',
      'the header login buttons are in the drawer on mobile; one viewport suffices here',
    );
    test.setTimeout(180_000);
    const email = `e2e-${locale.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
    await page.goto(`/?locale=${locale}`);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);

    // Register: Mail → Verify → Password, then the Login flow opens, saying the account was created.
    await register(page, request, email);
    await expect(page.getByTestId('login-notice')).toContainText(locale === 'zh-HK' ? '你的帳戶' : 'Your account');
    await expect(page.getByTestId('login-notice')).toContainText(locale === 'zh-HK' ? '已建立' : 'has been created');

    // Log in: no factor needed yet; the modal closes and the account menu appears.
    await submitLogin(page, email);
    await expect(page.getByTestId('account-menu')).toBeVisible();
    await expect(page.getByTestId('action-modal')).toBeHidden();
    // Identity status 0: the persistent KYC notification asks for verification.
    await expect(page.getByTestId('kyc-verify')).toBeVisible();
    await page.locator('.ant-notification-notice-close').click();

    // Turn on the email code for login.
    await page.goto('/my/security');
    await page.getByTestId('switch-login-email').click();
    await page.getByTestId('send-code').click();
    await page.getByTestId('email-code').fill(await readCode(request, email, 'CONFIG_SWITCH'));
    await page.getByTestId('switch-confirm').click();
    await expect(page.getByTestId('switch-login-email')).toHaveAttribute('aria-checked', 'true');

    // Log out, and in again with the email code.
    await logOut(page);
    await logIn(page, email);
    await expect(page.getByTestId('login-flow')).toHaveAttribute('data-step', 'verify');
    await expect(page.getByTestId('mfa-code')).toHaveCount(0);
    const loginCodeSentAtMs = Date.now();
    await page.getByTestId('send-code').click();
    await page.getByTestId('email-code').fill(await readCode(request, email, 'LOGIN_CHECK'));
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('account-menu')).toBeVisible();

    // Bind Google Authenticator with a code computed from the shown secret.
    await page.goto('/my/security/google-authenticator');
    const secret = (await page.getByTestId('mfa-secret').innerText()).trim();
    await expect(page.getByTestId('mfa-qr')).toBeVisible();
    await page.getByTestId('send-code').click();
    await page.getByTestId('email-code').fill(await readCode(request, email, 'MFA_ADD'));
    // Typed last, just before the check: the previous step, accepted only until the current one ends.
    const bindStep = await nextTotpStep(null);
    await page.getByTestId('mfa-code').fill(totpAt(secret, bindStep));
    await page.getByTestId('mfa-bind').click();
    await expect(page.getByTestId('recovery-codes')).toBeVisible();
    expect((await page.getByTestId('recovery-codes').innerText()).trim().split('\n')).toHaveLength(10);

    // Log out, and in with both the email code and the authenticator (the next time step).
    await logOut(page);
    await logIn(page, email);
    await expect(page.getByTestId('login-flow')).toHaveAttribute('data-step', 'verify');
    await waitForResend(loginCodeSentAtMs);
    await page.getByTestId('send-code').click();
    await page.getByTestId('email-code').fill(await readCode(request, email, 'LOGIN_CHECK'));
    // A time step is accepted once: a step after the one used to bind.
    const loginStep = await nextTotpStep(bindStep);
    await page.getByTestId('mfa-code').fill(totpAt(secret, loginStep));
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('account-menu')).toBeVisible();

    // Ask customer service to delete the account: the security-check modal asks for the
    // trade factors (email code, authenticator); the request then shows as pending on the page.
    await page.goto('/my/security/account/delete');
    await page.getByTestId('deletion-reason').fill('I no longer need the account');
    await page.getByTestId('delete-understood').click();
    await page.getByTestId('delete-submit').click();
    await expect(page.getByTestId('security-check-form')).toBeVisible();
    await page.getByTestId('email-code').fill(await readCode(request, email, 'ACCOUNT_CANCEL'));
    // A step after the login's (one step ahead is inside the ±1 window).
    await page.getByTestId('mfa-code').fill(totpAt(secret, await nextTotpStep(loginStep)));
    await page.getByTestId('security-check-submit').click();
    await expect(page.getByTestId('deletion-status')).toBeVisible();
    await expect(page.getByTestId('delete-submit')).toHaveCount(0);
  });
}

test('recover a forgotten password, then log in with the new one (en-US)', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the header login buttons are in the drawer on mobile');
  test.setTimeout(90_000);
  const email = `e2e-recover-${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/?locale=en-US');
  await register(page, request, email);
  await page.getByTestId('to-recover').click();
  await expect(page.getByTestId('recover-flow')).toHaveAttribute('data-step', 'mail');
  await page.getByTestId('flow-email').fill(email);
  await waitForHumanCheck(page, 'flow-submit');
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('recover-flow')).toHaveAttribute('data-step', 'verify');
  await page.getByTestId('send-code').click();
  await page.getByTestId('email-code').fill(await readCode(request, email, 'FORGET_PASSWORD'));
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('recover-flow')).toHaveAttribute('data-step', 'password');
  // A common password is refused by the server, naming the field.
  await page.getByTestId('flow-password').fill('password123');
  await page.getByTestId('flow-confirm').fill('password123');
  await page.getByTestId('flow-submit').click();
  await expect(page.getByText('This password is too common, please choose another')).toBeVisible();
  const newPassword = 'Another-Sturdy-Phrase-9';
  await page.getByTestId('flow-password').fill(newPassword);
  await page.getByTestId('flow-confirm').fill(newPassword);
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('login-flow')).toBeVisible();
  await expect(page.getByTestId('login-notice')).toContainText('Your password has been reset');
  await expect(page.getByTestId('login-email')).toHaveValue(email);
  await submitLogin(page, email, newPassword);
  await expect(page.getByTestId('account-menu')).toBeVisible();
});

test('change the email: code to the new address, security check, then sign in with the new address (zh-HK)', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the header login buttons are in the drawer on mobile');
  test.setTimeout(120_000);
  const suffix = randomBytes(4).toString('hex');
  const email = `e2e-old-${suffix}@example.com`;
  const newEmail = `e2e-renamed-${suffix}@example.com`;
  // The masked form the security page shows (contracts maskEmail: first two, last two of the local part).
  const newEmailMasked = `e2${'*'.repeat(16)}${suffix.slice(-2)}@example.com`;
  await page.goto('/?locale=zh-HK');
  await register(page, request, email);
  await submitLogin(page, email);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await page.locator('.ant-notification-notice-close').click();

  await page.goto('/my/security');
  // Bad input is refused in the user's language before anything is sent.
  await page.getByTestId('change-email-input').fill('not-an-email');
  await page.getByTestId('change-email-send-code').click();
  await expect(page.getByTestId('change-email').locator('.ant-form-item-explain-error')).toBeVisible();
  await expect(page.getByTestId('change-email-send-code')).toBeEnabled();

  await page.getByTestId('change-email-input').fill(newEmail);
  await page.getByTestId('change-email-send-code').click();
  await expect(page.getByTestId('change-email-send-code')).toBeDisabled();
  await page.getByTestId('change-email-code').fill(await readCode(request, newEmail, 'EMAIL_CHANGE'));
  await page.getByTestId('change-email-submit').click();

  // The security check sends an EMAIL_CHANGE code to the current address.
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  await page.getByTestId('email-code').fill(await readCode(request, email, 'EMAIL_CHANGE'));
  await page.getByTestId('security-check-submit').click();
  await expect(page.getByTestId('change-email').getByRole('alert')).toContainText(newEmail);
  await expect(page.getByTestId('binding-email')).toContainText(newEmailMasked);

  // The old address no longer signs in; the new one does.
  await logOut(page);
  const old = await request.post('/api/user/login', {
    headers: { 'content-type': 'application/json', 'x-meridian-client': 'web' },
    data: { email, password: PASSWORD, token: 'x' },
  });
  expect((await old.json()).statusCode).not.toBe(200);
  await logIn(page, newEmail);
  await expect(page.getByTestId('account-menu')).toBeVisible();
});
