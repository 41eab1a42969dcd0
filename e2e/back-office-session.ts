import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Browser, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ROOT } from './helpers.ts';
import { ownServerTest } from './own-server.ts';

/**
 * What the back-office specs share (issue 16): a test on its own server whose first admin
 * (`root@meridian.test`, made with `npm run ops -- operators add`) has the temporary password
 * `prepared`; a browser context per operator or user; the first sign-in at /admin with the
 * authenticator it must set up.
 */

/**
 * Each test on its own server with a first admin, whose temporary password is `prepared`.
 * `label` names the server's data directory; `custodySecret` its custody webhook secret.
 */
export function backOfficeTest(label: string, custodySecret: string) {
  return ownServerTest(label, custodySecret, async (dataDir) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const added = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'ops', '--', 'operators', 'add', '--email', ROOT_ADMIN_EMAIL, '--role', 'admin'],
      { cwd: ROOT, env },
    );
    const password = added.stdout.match(/TEMPORARY_PASSWORD=(\S+)/)?.[1] ?? '';
    if (!password) throw new Error(`no temporary password: ${added.stdout}${added.stderr}`);
    return password;
  });
}

/** The first admin of a `backOfficeTest` server. */
export const ROOT_ADMIN_EMAIL = 'root@meridian.test';

/** The current code of an authenticator set up with `secret` (base32; SHA-1, 6 digits, 30 s). */
export function totp(secret: string): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
}

/** The sign-in page's texts in each language. */
export const SIGN_IN_TEXT = {
  'en-US': {
    email: 'Email',
    password: 'Password',
    code: 'Authenticator code',
    signIn: 'Sign in',
    confirm: 'Confirm and continue',
    dashboard: 'Dashboard',
  },
  'zh-HK': {
    email: '電郵地址',
    password: '密碼',
    code: '驗證器代碼',
    signIn: '登入',
    confirm: '確認並繼續',
    dashboard: '總覽',
  },
} as const;
export type BackOfficeLocale = keyof typeof SIGN_IN_TEXT;

/** A browser context in `locale` with one page on the test's server (1280 × 900 unless `viewport`). */
export async function openPage(
  browser: Browser,
  baseURL: string,
  locale: BackOfficeLocale,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale, viewport });
  await context.addInitScript({
    content: `window.localStorage.setItem('meridian.locale', ${JSON.stringify(locale)});`,
  });
  return context.newPage();
}

/** First sign-in at /admin: password, then the authenticator set up from the secret shown; lands on the dashboard. */
export async function firstSignIn(
  page: Page,
  locale: BackOfficeLocale,
  email: string,
  password: string,
): Promise<void> {
  const text = SIGN_IN_TEXT[locale];
  await page.goto('/admin/login');
  await page.getByLabel(text.email, { exact: true }).fill(email);
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: text.signIn, exact: true }).click();
  const secret = (await page.getByTestId('admin-totp-secret').innerText()).trim();
  await page.getByLabel(text.code, { exact: true }).fill(totp(secret));
  await page.getByRole('button', { name: text.confirm, exact: true }).click();
  await expect(page.getByRole('heading', { name: text.dashboard, exact: true })).toBeVisible();
}
