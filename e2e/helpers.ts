import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';

/**
 * What several specs share: the seeded demo account, the web client's mutation headers, the human
 * check solved as a script would, sign-in through the API, emailed codes read from the dev mailbox,
 * signed custody calls, and the screenshots kept under e2e/artifacts/screenshots/.
 */

/** The repository's root (specs run `npm run …` commands from there). */
export const ROOT = join(import.meta.dirname, '..');
export const SCREENSHOT_DIR = join(ROOT, 'e2e', 'artifacts', 'screenshots');

/** The demo account the seed creates (apps/server/src/seed.ts): basic KYC verified, with money. */
export const DEMO = { email: 'demo@meridian.test', password: 'Meridian-demo-2026' } as const;

/** Headers of a state-changing call from the web client (JSON, and the CSRF header the server requires). */
export const MUTATION = { 'content-type': 'application/json', 'x-meridian-client': 'web' } as const;

/**
 * Whether `snap` saves screenshots: on a developer's machine, for looking at the pages; not in CI
 * (`CI` set), where nobody looks at them and the ~250 full-page captures of a run cost minutes of
 * the budget (docs/testing.md). `E2E_SCREENSHOTS=1` or `0` decides either way.
 */
export const TAKES_SCREENSHOTS = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;

/**
 * Saves a full-page screenshot as `<project>-<prefix><name>.png` and attaches it to the report, when
 * `TAKES_SCREENSHOTS`. Animations run to their end so that opening modals and drawers are captured
 * in place.
 */
export async function snap(page: Page, testInfo: TestInfo, name: string, prefix = ''): Promise<void> {
  if (!TAKES_SCREENSHOTS) return;
  const file = `${testInfo.project.name}-${prefix}${name}.png`;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, file), fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: join(SCREENSHOT_DIR, file), contentType: 'image/png' });
}

/**
 * Goes to `path` inside the running app, as a link would (a history entry and a popstate event,
 * which the router follows), and waits until the root layout has rendered it (`<html data-path>`).
 * A full load per page starts the whole app again (its boot, styles and texts): about a second or
 * more per page on these machines. The router keeps a page whose modal is open (it closes the
 * modal instead), so an open modal is closed first.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  const modal = page.locator('.ant-modal-wrap:visible');
  if ((await modal.count()) > 0) {
    await page.keyboard.press('Escape');
    await expect(modal).toHaveCount(0);
  }
  const to = JSON.stringify(path);
  await page.evaluate(
    `window.history.pushState(null, '', ${to}); window.dispatchEvent(new PopStateEvent('popstate', { state: null }))`,
  );
  await expect(page.locator('html')).toHaveAttribute('data-path', new URL(path, 'http://x').pathname);
}

/** Solves the server's proof-of-work human check (ALTCHA) as the widget would; the `token` field of sign-up and sign-in. */
export async function humanCheckToken(request: APIRequestContext): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const challenge = await (await request.get('/api/user/human-check/challenge')).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * Signs the page's browser context in through the API (its cookies) and makes the app open as that
 * user, in `locale` when given (the localStorage keys of apps/web/src/lib/storage.ts).
 * Fails the test when the server refuses the sign-in.
 */
export async function logInThroughApi(
  page: Page,
  credentials: { email: string; password: string } = DEMO,
  locale?: string,
): Promise<void> {
  const body = await (
    await page.request.post('/api/user/login', {
      headers: MUTATION,
      data: { ...credentials, token: await humanCheckToken(page.request) },
    })
  ).json();
  expect(body.statusCode, body.message).toBe(200);
  await openAsUser(page, String(body.content.accountId), locale);
}

/**
 * Makes the page's app open as `userId`, in `locale` when given (the localStorage keys of
 * apps/web/src/lib/storage.ts), through an init script. The user is written once per tab (a
 * sessionStorage mark per user), so a sign-out in the app holds on the tab's later documents
 * instead of being undone at the next load; the locale is written on every document.
 */
export async function openAsUser(page: Page, userId: string, locale?: string): Promise<void> {
  const mark = JSON.stringify(`e2e.signed-in:${userId}`);
  const lines = [
    `if (!window.sessionStorage.getItem(${mark})) {`,
    `  window.sessionStorage.setItem(${mark}, '1');`,
    `  window.localStorage.setItem('meridian.userId', ${JSON.stringify(userId)});`,
    `}`,
  ];
  if (locale) lines.push(`window.localStorage.setItem('meridian.locale', ${JSON.stringify(locale)});`);
  await page.addInitScript({ content: lines.join('\n') });
}

/** A call's envelope as the specs read it. */
export interface ApiAnswer {
  statusCode: number;
  message: string;
  content: Record<string, unknown> | null;
}

/** POST `data` to `/api/<path>` with the web client's mutation headers; answers the envelope. */
export async function postApi(request: APIRequestContext, path: string, data: object): Promise<ApiAnswer> {
  return (await request.post(`/api/${path}`, { headers: MUTATION, data })).json();
}

/** The password of users the specs register. */
export const E2E_PASSWORD = 'Sturdy-Passphrase-2026';

/**
 * Register `email` through the API (Mail → Verify → Password, the code read from the dev mailbox),
 * log the page's context in and open the app in `locale`.
 * @returns the new user's id.
 */
export async function registerAndLogIn(page: Page, email: string, locale: string): Promise<string> {
  const request = page.request;
  const mail = await postApi(request, 'user/register', { email, token: await humanCheckToken(request) });
  expect(mail.statusCode, mail.message).toBe(200);
  const ticket = String(mail.content?.ticket);
  expect((await postApi(request, 'user/captcha', { event: 'EMAIL_REGISTER', email, ticket })).statusCode).toBe(200);
  const emailCaptcha = await readCode(request, email, 'EMAIL_REGISTER');
  const done = await postApi(request, 'user/register', {
    email,
    ticket,
    emailCaptcha,
    password: E2E_PASSWORD,
    confirm: E2E_PASSWORD,
  });
  expect(done.statusCode, done.message).toBe(200);
  const login = await postApi(request, 'user/login', {
    email,
    password: E2E_PASSWORD,
    token: await humanCheckToken(request),
  });
  expect(login.statusCode, login.message).toBe(200);
  const userId = String(login.content?.accountId);
  await openAsUser(page, userId, locale);
  return userId;
}

/** Mails already read by `readCode`, per server (host) and id: each read waits for a new mail. */
const readMailKeys = new Set<string>();

/**
 * The 6-digit code of the newest mail to `email` for `event` (e.g. 'EMAIL_REGISTER') that no earlier
 * call returned, waiting for it to arrive in the dev mailbox (`GET /api/dev/mailbox`, outside production).
 */
export async function readCode(request: APIRequestContext, email: string, event: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
      const host = new URL(response.url()).host;
      const mails: { id: number; subject: string; tag: string | null }[] = (await response.json()).content;
      const mail = mails.find((item) => item.tag === event && !readMailKeys.has(`${host}#${item.id}`));
      code = mail?.subject.match(/\d{6}/)?.[0];
      if (mail && code) readMailKeys.add(`${host}#${mail.id}`);
      return code;
    })
    .toBeTruthy();
  return code!;
}

/**
 * A custody call signed with `secret` as the custody provider (and `npm run deposit`) sends it:
 * `x-custody-signature: sha256=<HMAC-SHA256 of the raw body>`. Returns the answer's envelope.
 */
export async function signedCustodyPost(request: APIRequestContext, secret: string, url: string, body: object) {
  const raw = JSON.stringify(body);
  const signature = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  return (await (
    await request.post(url, {
      headers: { 'content-type': 'application/json', 'x-custody-signature': signature },
      data: raw,
    })
  ).json()) as { statusCode: number; content: { address: string } };
}

/**
 * Credits `amount` (a decimal string) of USDT on TRC20 to the account of `email` as the custody
 * provider reports a confirmed deposit: the address look-up, then the signed webhook.
 */
export async function depositUsdtThroughCustody(
  request: APIRequestContext,
  secret: string,
  email: string,
  amount: string,
): Promise<void> {
  const lookup = await signedCustodyPost(request, secret, '/api/custody/address-lookup', {
    email,
    coin: 'USDT',
    network: 'TRC20',
  });
  expect(lookup.statusCode).toBe(200);
  const deposit = await signedCustodyPost(request, secret, '/api/custody/webhook', {
    deliveryId: randomUUID(),
    sentAt: new Date().toISOString(),
    event: {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address: lookup.content.address,
      txHash: `e2e-${randomUUID()}`,
      outputIndex: 0,
      amount,
      confirmations: 100,
    },
  });
  expect(deposit.statusCode).toBe(200);
}

/**
 * Credits `amount` USDT on TRC20 to `email` with `npm run deposit` against `baseUrl`: the command
 * an operator runs, sending the custody webhook signed with `secret`.
 */
export async function depositWithCli(baseUrl: string, secret: string, email: string, amount: string): Promise<void> {
  const args = ['run', '--silent', 'deposit', '--', '--email', email, '--coin', 'USDT', '--network', 'TRC20'];
  await promisify(execFile)('npm', [...args, '--amount', amount, '--url', baseUrl], {
    cwd: ROOT,
    env: { ...process.env, CUSTODY_WEBHOOK_SECRET: secret, DATABASE_URL: 'memory://' },
  });
}

/** What overflows the window sideways: the page's own width beyond the viewport, in px (0 or less: nothing). */
export async function sidewaysOverflowPx(page: Page): Promise<number> {
  return page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  ) as Promise<number>;
}

/**
 * The browser-side check of `layoutProblems` (a string: the e2e project compiles without the DOM
 * library). Inside `root` it measures every visible line of text (a Range's client rects, so a
 * number cut off inside a scrolled or clipped table cell counts as off screen), every button, link
 * styled as a button, tag and input; each must lie within the viewport's width, and no two of them
 * that are not nested may overlap by more than 2 px each way — nor may a button, tag or input come
 * within 2 px of a neighbour on its line (a tag drawn against a figure).
 */
const LAYOUT_PROBLEMS_SCRIPT = `(rootSelector) => {
  const root = document.querySelector(rootSelector);
  if (!root) return ['no element ' + rootSelector];
  const width = document.documentElement.clientWidth;
  const isShown = (element) => {
    if (element.closest('[aria-hidden="true"], .ant-table-measure-row, .ant-select-selection-search, .ant-tooltip, .ant-popover')) return false;
    // Chromium's own answer: not display:none, not in a closed <details>, not hidden or transparent.
    return element.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true });
  };
  const boxes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!text || !node.parentElement || !isShown(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects())
      if (rect.width > 0 && rect.height > 0) boxes.push({ rect, owner: node.parentElement, what: JSON.stringify(text.slice(0, 40)) });
  }
  for (const element of root.querySelectorAll('button, .ant-btn, .ant-tag, input:not([type=hidden]):not([type=file]), [role=switch]')) {
    if (!isShown(element)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0) boxes.push({ rect, owner: element, isControl: true, what: element.tagName.toLowerCase() + ' ' + JSON.stringify((element.textContent || '').trim().slice(0, 40)) });
  }
  const problems = [];
  for (const box of boxes)
    if (box.rect.left < -0.5 || box.rect.right > width + 0.5)
      problems.push(box.what + ' is off screen (x ' + Math.round(box.rect.left) + '–' + Math.round(box.rect.right) + ' of ' + width + ')');
  const nested = (a, b) => a.owner === b.owner || a.owner.contains(b.owner) || b.owner.contains(a.owner);
  for (let i = 0; i < boxes.length; i += 1)
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i], b = boxes[j];
      if (nested(a, b)) continue;
      const overlapX = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const overlapY = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      // Texts may abut (two spans of one line); a button or tag needs 2 px of room from its neighbours.
      const minGapX = a.isControl || b.isControl ? -2 : 2;
      if (overlapX > minGapX && overlapY > 2) problems.push(a.what + (overlapX > 0 ? ' overlaps ' : ' touches ') + b.what);
    }
  return [...new Set(problems)].slice(0, 20);
}`;

/**
 * What is wrong with the layout inside `rootSelector` (default the app's `main`): texts, buttons,
 * tags and inputs off screen sideways or overlapping a neighbour, as readable lines (none: empty).
 * With `sidewaysOverflowPx`, the check of a page at a phone's width (docs/accessibility.md).
 */
export async function layoutProblems(page: Page, rootSelector = 'main'): Promise<string[]> {
  return page.evaluate(`(${LAYOUT_PROBLEMS_SCRIPT})(${JSON.stringify(rootSelector)})`) as Promise<string[]>;
}
