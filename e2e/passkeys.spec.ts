import { randomBytes } from 'node:crypto';
import { expect, test as base } from '@playwright/test';
import { readCode, registerAndLogIn, snap } from './helpers.ts';

/**
 * Passkeys end to end with Chromium's virtual authenticator (the DevTools WebAuthn
 * domain through Playwright's CDP session: CTAP2, internal transport, resident keys, user
 * verification): a fresh user adds a passkey on /my/security through the security check, signs
 * out, signs in with the passkey alone, and removes it through a security check whose mfa factor
 * the passkey gives. A passkey's RP ID must be a domain, so the spec talks to the shared server as
 * `localhost` rather than 127.0.0.1 (the server takes the RP ID and origin from the request when no
 * PUBLIC_URL is set). Desktop, en-US.
 */
const test = base.extend({
  baseURL: async ({ baseURL }, use) => use(baseURL?.replace('127.0.0.1', 'localhost')),
});

test('a passkey is added, signs in, and answers the mfa factor of a security check', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: en-US on the desktop project');
  test.setTimeout(120_000); // three ceremonies, two security checks and a sign-out on a shared 2-core machine
  const email = `passkey-${randomBytes(4).toString('hex')}@example.com`;
  await registerAndLogIn(page, email, 'en-US');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  // Add: a name, the browser's passkey dialog (answered by the virtual authenticator), the security check.
  await page.goto('/my/security');
  const section = page.getByTestId('passkeys-section');
  await expect(section).toBeVisible();
  await section.getByTestId('passkey-add').click();
  await page.getByTestId('passkey-name-input').fill('Work laptop');
  await page.getByTestId('passkey-name-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  await page.getByTestId('email-code').fill(await readCode(page.request, email, 'PASSKEY_ADD'));
  await page.getByTestId('security-check-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeHidden();
  await expect(section.getByTestId('passkey-name')).toHaveText(['Work laptop']);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  await snap(page, testInfo, 'passkeys-security');

  // Sign out, then in with the passkey alone.
  await page.getByTestId('account-menu').hover();
  await page.getByTestId('account-menu').getByRole('menuitem').last().click();
  await expect(page.getByTestId('header-login')).toBeVisible();
  await page.goto('/');
  await page.getByTestId('header-login').click();
  await page.getByTestId('login-passkey').click();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await page.goto('/my/security');
  await expect(section.getByTestId('passkey-item')).toContainText('last used');

  // Remove: the security check asks for the email code and, the mfa factor being the passkey, the passkey.
  await section.getByTestId('passkey-remove').click();
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  await expect(page.getByTestId('mfa-code')).toHaveCount(0);
  await page.getByTestId('email-code').fill(await readCode(page.request, email, 'PASSKEY_REMOVE'));
  await page.getByTestId('security-check-passkey').click();
  await expect(page.getByTestId('security-check-form')).toBeHidden();
  await expect(section.getByTestId('passkey-item')).toHaveCount(0);
});
