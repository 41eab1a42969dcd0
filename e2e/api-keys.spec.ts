import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { postApi, readCode, registerAndLogIn, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';

/**
 * Developer API keys and the freeze link on the production build, with a new user on the
 * shared server (the demo account is untouched): the user binds the authenticator (API), creates a
 * key on `/my/security/api-keys` through the security check (email code + authenticator), sees the
 * secret once, calls the API with a signed request, deletes the key; then opens the freeze link of
 * the "new API key" mail — opening it freezes nothing — and freezes the account with one press.
 * en-US at 1280 px, zh-HK at 390 px.
 */
const TEXT: Record<Locale, { title: string; frozen: string; deleteOk: string }> = {
  'en-US': { title: 'API keys', frozen: 'Your account is frozen', deleteOk: 'Delete' },
  'zh-HK': { title: 'API 金鑰', frozen: '你的帳戶已凍結', deleteOk: '刪除' },
};

function totp(secret: string, offsetSteps = 0): string {
  const generator = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return generator.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`API keys (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`creates a key behind the authenticator, signs a call with it, deletes it; the mail's freeze link freezes (${locale})`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      const text = TEXT[locale];
      const email = `apikey-${locale.toLowerCase()}-${Date.now()}@meridian.test`;
      await registerAndLogIn(page, email, locale);
      const key = (await (await page.request.get('/api/user/config/mfa/key')).json()).content as { secret: string };
      expect((await postApi(page.request, 'user/captcha', { event: 'MFA_ADD' })).statusCode).toBe(200);
      const bound = await postApi(page.request, 'user/config/mfa/key', {
        mfaCode: totp(key.secret),
        emailCaptcha: await readCode(page.request, email, 'MFA_ADD'),
      });
      expect(bound.statusCode, bound.message).toBe(200);

      await page.goto('/my/security/api-keys');
      await expect(page.getByTestId('api-keys-page')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('heading', { name: text.title }).first()).toBeVisible();
      await page.getByTestId('api-key-label').fill('e2e bot');
      await page.getByTestId('api-key-scope-trade').check();
      await page.getByTestId('api-key-ips').fill('127.0.0.1, ::1');
      await page.getByTestId('api-key-create').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, email, 'API_KEY_CREATE'));
      await page.getByTestId('mfa-code').fill(totp(key.secret, 1));
      await page.getByTestId('security-check-submit').click();

      // The secret, once.
      const created = page.getByTestId('api-key-created');
      await expect(created).toBeVisible();
      const apiKey = (await page.getByTestId('api-key-created-id').innerText()).trim();
      const secret = (await page.getByTestId('api-key-created-secret').innerText()).trim();
      expect(apiKey).toMatch(/^mk_[\w-]{24}$/);
      expect(secret).toMatch(/^[\w-]{43}$/);
      await snap(page, testInfo, `${locale}-created`, 'api-keys-');
      await page.getByTestId('api-key-created-done').click();
      const item = page.getByTestId('api-key-item');
      await expect(item).toHaveCount(1);
      await expect(item).toContainText('e2e bot');
      await expect(item).toContainText('127.0.0.1, ::1');

      // The key works: a signed read from this machine (in its allowlist), without the session cookie.
      const timestamp = String(Date.now());
      const signature = createHmac('sha256', secret).update(`${timestamp}GET/api/account/balance`).digest('hex');
      const balance = await page.request.fetch('/api/account/balance', {
        headers: { 'X-MERIDIAN-APIKEY': apiKey, 'X-MERIDIAN-TIMESTAMP': timestamp, 'X-MERIDIAN-SIGNATURE': signature },
      });
      expect((await balance.json()).statusCode).toBe(200);
      await page.reload();
      await expect(item).toHaveCount(1);
      await snap(page, testInfo, `${locale}-listed`, 'api-keys-');

      await item.getByTestId('api-key-delete').click();
      await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
      await expect(page.getByTestId('api-key-item')).toHaveCount(0);

      // The "new API key" mail carries a freeze link; opening the page changes nothing, the button freezes.
      let link: string | undefined;
      await expect
        .poll(async () => {
          const mails: { body: string }[] = (
            await (await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()
          ).content;
          link = mails.map((mail) => /\/freeze\/[\w-]{43}/.exec(mail.body)?.[0]).find(Boolean);
          return link;
        })
        .toBeTruthy();
      await page.goto(link!);
      await expect(page.getByTestId('freeze-confirm')).toBeVisible({ timeout: 30_000 });
      expect((await (await page.request.get('/api/user/self')).json()).statusCode).toBe(200);
      await snap(page, testInfo, `${locale}-freeze`, 'api-keys-');
      await page.getByTestId('freeze-confirm').click();
      await expect(page.getByTestId('freeze-done')).toContainText(text.frozen);
      await snap(page, testInfo, `${locale}-frozen`, 'api-keys-');
      expect((await (await page.request.get('/api/user/self')).json()).statusCode).toBe(101);
    });
  });
}
