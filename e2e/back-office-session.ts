import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { MUTATION, ROOT } from './helpers.ts';
import { ownServerTest } from './own-server.ts';

/**
 * What the back-office specs share: a test on its own server whose first admin
 * (`root@meridian.test`, made with `npm run ops -- operators add`) has the temporary password
 * `prepared`; a browser context per operator or user; the first sign-in at /admin with the
 * authenticator it must set up.
 */

/**
 * Each test on its own server with a first admin, whose temporary password is `prepared`.
 * `label` names the server's data directory; `custodySecret` its custody webhook secret.
 */
export function backOfficeTest(label: string, custodySecret: string) {
  return withPagesClosed(ownServerTest(label, custodySecret, addFirstAdmin));
}

/**
 * Add the first admin (`ROOT_ADMIN_EMAIL`) to the server data in `dataDir` with `npm run ops`
 * (before the server starts); answers its temporary password. The `prepare` of `ownServerTest`.
 */
export async function addFirstAdmin(dataDir: string): Promise<string> {
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
}

/** The contexts `openPage` opened for the running test. */
const openedContexts = new Set<BrowserContext>();

/**
 * `test` that closes the contexts `openPage` opened once the test ends, before its own server
 * stops. The worker's browser outlives its tests: left open, a test's pages went on polling and
 * reconnecting their message streams to a stopped server (or to a later test's server on the same
 * port) for the rest of the run, holding CPU and memory.
 */
export function withPagesClosed<T extends ReturnType<typeof ownServerTest>>(test: T) {
  return test.extend<{ pagesClosed: void }>({
    pagesClosed: [
      async ({ ownServer }, use) => {
        void ownServer; // set up after the server, so torn down before it stops
        await use();
        await Promise.all([...openedContexts].map((context) => context.close().catch(() => undefined)));
        openedContexts.clear();
      },
      { auto: true },
    ],
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
  openedContexts.add(context);
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
  // The dashboard's first load took over 15 s at a load average of 20–29 on the 2-core machine.
  await expect(page.getByRole('heading', { name: text.dashboard, exact: true })).toBeVisible({ timeout: 60_000 });
}

/** A 1×1 PNG and a one-page PDF, the documents basic KYC asks for. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** The user submits basic KYC through the API: draft, the four documents, commit. */
export async function submitBasicKyc(page: Page): Promise<void> {
  const request = page.request;
  const proofDate = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const draft = await request.post('/api/user/info', {
    headers: MUTATION,
    data: {
      firstName: 'Tai Man',
      lastName: 'Chan',
      nameChinese: '陳大文',
      dateOfBirth: '1990-05-01',
      nationality: 'HK',
      residence: 'HK',
      idType: 'hkid',
      idNumber: 'A123456(3)',
      address: 'Flat 1, 2 Queen’s Road Central, Hong Kong',
      proofOfAddressDate: proofDate,
    },
  });
  expect((await draft.json()).statusCode).toBe(200);
  const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
  const upload = await request.post('/api/user/identity/document', {
    headers: { 'x-meridian-client': MUTATION['x-meridian-client'] },
    multipart: {
      idFront: file('front.png', 'image/png', PNG),
      idBack: file('back.png', 'image/png', PNG),
      selfie: file('selfie.png', 'image/png', PNG),
      proofOfAddress: file('bill.pdf', 'application/pdf', PDF),
    },
  });
  expect((await upload.json()).statusCode, await upload.text()).toBe(200);
  const commit = await request.post('/api/user/commit', { headers: MUTATION, data: {} });
  expect((await commit.json()).statusCode).toBe(200);
}
