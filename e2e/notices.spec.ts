import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page, type Route } from '@playwright/test';
import { LOCALES, runOnLocaleProject, type Locale } from './locale-runs.ts';
import { depositWithCli, readCode, TAKES_SCREENSHOTS } from './helpers.ts';

/**
 * Message centre end to end (web half) against the production build. Sign-in is the real
 * registration and login in the action modal.
 *
 * - A real deposit: `npm run deposit` sends the signed custody webhook, the server credits it and
 *   notifies the user; the open tab shows the toast 100 px from the top, the bell's unread dot and
 *   count rise, the Messages menu badge follows, reading the message clears the count.
 * - The full scenario (long texts cut at 50 characters, three messages, the bell's preview, read
 *   one, read all, the toast closing after 5 s) and list-mode paging need messages the server has
 *   no event for, so `/api/notice/*` is answered there by an in-test stand-in that keeps the
 *   server's rules (notices.service.ts) and pushes on the server-sent-events stream.
 * - Web Push: with the permission granted, the subscription reaches the real server, and the
 *   service worker shows a push only when no tab of the site is open.
 *
 * In en-US and zh-HK, at 1280 px (desktop) and 390 px (mobile); screenshots in artifacts/screenshots.
 */

const PASSWORD = 'Sturdy-Passphrase-2026';
const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'artifacts', 'screenshots');
const ELLIPSIS = '…';

async function shoot(page: Page, name: string): Promise<void> {
  if (!TAKES_SCREENSHOTS) return;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `notices-${name}.png`), animations: 'allow' });
}

// ------------------------------------------------------------------ sign-in (the identity UI)

/**
 * Register and log in through the action modal, as a person does. The header's buttons live in the
 * drawer on phones, so this happens at desktop width and the page returns to its own width after.
 */
async function registerAndLogIn(page: Page, request: APIRequestContext): Promise<string> {
  const email = `notices-${randomBytes(5).toString('hex')}@example.com`;
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('header-register').click();
  await page.getByTestId('flow-email').fill(email);
  await expect(page.getByTestId('flow-submit')).toBeEnabled({ timeout: 20_000 });
  await page.getByTestId('flow-submit').click();
  await page.getByTestId('send-code').click();
  await page.getByTestId('email-code').fill(await readCode(request, email, 'EMAIL_REGISTER'));
  await page.getByTestId('flow-submit').click();
  await page.getByTestId('flow-password').fill(PASSWORD);
  await page.getByTestId('flow-confirm').fill(PASSWORD);
  await page.getByTestId('flow-submit').click();
  await expect(page.getByTestId('login-flow')).toBeVisible();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await expect(page.getByTestId('login-submit')).toBeEnabled({ timeout: 20_000 });
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  if (viewport) await page.setViewportSize(viewport);
  return email;
}

// ------------------------------------------------------------------ the notices stand-in

interface StubMessage {
  id: string;
  category: 'DEPOSIT' | 'SECURITY';
  status: 'unread' | 'read';
  title: string;
  body: string;
  link: string | null;
  createTime: string;
}

const PAGE_SIZE_MAX = 100;

/**
 * `/api/notice/*` answered in the browser with the server's rules (notices.service.ts). The stream
 * is answered one response at a time: each carries the events since the last one and ends, and the
 * browser reconnects after `retry` as it does after any dropped stream.
 */
class NoticeStandIn {
  private readonly messages: StubMessage[] = [];
  private readonly waitingEvents: string[] = [];
  readonly readCalls: string[] = [];

  get unreadCount(): number {
    return this.messages.filter((item) => item.status === 'unread').length;
  }

  /** Older messages that exist before the page opens, newest first. */
  seed(count: number): void {
    const now = Date.now();
    for (let index = 0; index < count; index += 1) {
      this.messages.push(
        message(
          `Seeded message ${index + 1}`,
          `Body of seeded message ${index + 1}`,
          'read',
          new Date(now - (index + 1) * 86_400_000),
        ),
      );
    }
  }

  deliver(item: StubMessage): void {
    this.messages.unshift(item);
    this.waitingEvents.push(
      `event: message\ndata: ${JSON.stringify({ message: item, unreadCount: this.unreadCount })}\n\n`,
    );
  }

  async install(page: Page): Promise<void> {
    const ok = (route: Route, content: unknown) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 200, content, message: 'Success' }),
      });
    await page.route('**/api/notice/message/list?**', (route) => {
      const url = new URL(route.request().url());
      const pageID = Number(url.searchParams.get('pageID') ?? 1);
      const pageSize = Math.min(Number(url.searchParams.get('pageSize') ?? 10), PAGE_SIZE_MAX);
      const totalCount = this.messages.length;
      return ok(route, {
        list: this.messages.slice((pageID - 1) * pageSize, pageID * pageSize),
        unreadCount: this.unreadCount,
        pageID,
        pageSize,
        totalPage: Math.ceil(totalCount / pageSize),
        totalCount,
      });
    });
    await page.route(/\/api\/notice\/message\/([^/]+)\/read$/, (route) => {
      const id = /\/message\/([^/]+)\/read$/.exec(route.request().url())?.[1] ?? '';
      this.readCalls.push(id);
      const item = this.messages.find((candidate) => candidate.id === id);
      if (!item)
        return route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: 404, content: null, message: 'Not found' }),
        });
      item.status = 'read';
      return ok(route, { unreadCount: this.unreadCount });
    });
    await page.route('**/api/notice/message/readAll', (route) => {
      for (const item of this.messages) item.status = 'read';
      return ok(route, { unreadCount: 0 });
    });
    // The stream's address carries the tab's language (`?lang=`).
    await page.route('**/api/notice/stream?*', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: `retry: 1000\n\n${this.waitingEvents.splice(0).join('')}`,
      }),
    );
  }
}

function message(
  title: string,
  body: string,
  status: StubMessage['status'] = 'unread',
  createdAt = new Date(),
): StubMessage {
  return {
    id: randomUUID(),
    category: 'DEPOSIT',
    status,
    title,
    body,
    link: '/my/order/wallet/deposit',
    createTime: createdAt.toISOString(),
  };
}

const TEXTS: Record<Locale, { title: string; body: string; empty: RegExp; readAll: RegExp }> = {
  'en-US': {
    title: 'Deposit credited: 250 USDT on TRC20 to your main account wallet today',
    body: 'Your deposit of 250 USDT (TRC20) has been credited to your main account after 20 confirmations. Transaction demo-1.',
    empty: /No messages yet/,
    readAll: /Mark all as read/,
  },
  'zh-HK': {
    title:
      '存款已入帳：250 USDT（TRC20）已存入你的主帳戶錢包，請查閱你的資產總覽及存款紀錄以了解詳情，謝謝你使用我們的服務',
    body: '你的 250 USDT（TRC20）存款已於 20 次確認後存入主帳戶。交易編號 demo-1。如有任何疑問，請聯絡我們的客戶服務團隊，我們會盡快回覆你。',
    empty: /暫時沒有訊息/,
    readAll: /全部標為已讀/,
  },
};

/** The first 50 characters plus an ellipsis, counted as the app counts them. */
function cut(text: string): string {
  const characters = Array.from(text);
  return characters.length > 50 ? `${characters.slice(0, 50).join('')}${ELLIPSIS}` : text;
}

/** The bell a person sees at this width: among the header actions on wide screens, beside the menu button on phones. */
function bell(page: Page, isMobile: boolean) {
  return page.getByTestId(isMobile ? 'notification-bell-compact' : 'notification-bell');
}

/**
 * A new account also gets the persistent identity-verification notification (80 px from
 * the top, no auto-close); a person closes it to reach what is under it.
 */
async function closeOtherNotifications(page: Page): Promise<void> {
  const close = page.locator('.ant-notification-notice:not(.push-toast) .ant-notification-notice-close');
  for (let index = await close.count(); index > 0; index -= 1) await close.first().click();
  await expect(close).toHaveCount(0);
}

/**
 * The toast sits 100 px from the top — or, while the identity-verification notice (80 px
 * from the top) is open, 16 px below it, so that the two never overlap.
 */
async function expectToastPlaced(page: Page, toast: Locator): Promise<void> {
  await expect
    .poll(async () => {
      const toastTopPx = Math.round((await toast.boundingBox())?.y ?? 0);
      const kyc = page.locator('.kyc-notice');
      const kycBox = (await kyc.count()) > 0 ? await kyc.boundingBox() : null;
      const expectedTopPx = kycBox ? Math.max(100, Math.ceil(kycBox.y + kycBox.height) + 16) : 100;
      return toastTopPx - expectedTopPx;
    })
    .toBe(0);
}

// ------------------------------------------------------------------ the scenario

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a message arrives: toast, bell count, read one, read all (${locale})`, async ({
      page,
      request,
    }, testInfo) => {
      test.setTimeout(120_000);
      const isMobile = testInfo.project.name === 'mobile';
      const shot = (step: string) => shoot(page, `${testInfo.project.name}-${locale}-${step}`);
      const texts = TEXTS[locale];
      const logs: string[] = [];
      page.on('console', (entry) => logs.push(entry.text()));
      const notices = new NoticeStandIn();
      await notices.install(page);

      await page.goto(`/?locale=${locale}`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await registerAndLogIn(page, request);

      // After self-load: the browser refuses notifications (no prompt in tests), which is only logged.
      await expect.poll(() => logs).toContain('Unable to get permission to notify.');

      // Signed in, no messages: the bell has no dot, the page shows its empty state.
      await expect(bell(page, isMobile)).toBeVisible();
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '0');
      await page.goto('/messages');
      await expect(page.getByTestId('messages-empty')).toContainText(texts.empty);
      await shot('1-empty');

      // A deposit message arrives on the stream.
      const first = message(texts.title, texts.body);
      notices.deliver(first);
      const toast = page.locator('.push-toast');
      await expect(toast).toBeVisible();
      const toastShownAtMs = Date.now();
      await expect(toast.locator('.ant-notification-notice-title')).toHaveText(cut(texts.title));
      await expect(toast.locator('.ant-notification-notice-description')).toHaveText(cut(texts.body));
      await expectToastPlaced(page, toast);
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '1');
      await expect(bell(page, isMobile).getByTestId('notification-bell-dot')).toBeVisible();
      await expect(page.getByTestId('message-row')).toHaveCount(1);
      await expect(page.getByTestId('message-row').first()).toHaveAttribute('data-status', 'unread');
      if (!isMobile) await expect(page.getByTestId('messages-unread-badge')).toHaveText('1');
      await shot('2-toast');

      // The toast closes by itself after 5 s.
      await expect(toast).toBeHidden({ timeout: 8_000 });
      expect(Date.now() - toastShownAtMs).toBeGreaterThan(4_000);

      // Two more: the count rises to 3.
      notices.deliver(message(`${texts.title} (2)`, `${texts.body} 2`));
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '2');
      notices.deliver(message(`${texts.title} (3)`, `${texts.body} 3`));
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '3');
      await expect(page.getByTestId('message-row')).toHaveCount(3);

      // Once the toasts have closed, and the account's other notices too (as a person would close them),
      // nothing covers the page.
      await expect(page.locator('.push-toast')).toHaveCount(0, { timeout: 8_000 });
      await closeOtherNotifications(page);

      if (!isMobile) {
        // The bell's preview: the 3 most recent, bodies cut at 50 characters, today's time as HH:mm:ss.
        await bell(page, isMobile).hover();
        const panel = page.getByTestId('notification-panel');
        await expect(panel).toBeVisible();
        await expect(panel.getByTestId('notification-preview-item')).toHaveCount(3);
        await expect(panel.getByTestId('notification-preview-item').last()).toContainText(cut(texts.body));
        await expect(panel.locator('time').first()).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
        await shot('3-bell-preview');
        await page.mouse.move(10, 400);
      }

      // Open the oldest: its whole text shows and it is read; the count drops by one.
      const oldest = page.getByTestId('message-row').last();
      await oldest.getByRole('button').click();
      await expect(oldest.getByTestId('message-body')).toContainText(texts.body);
      await expect(oldest).toHaveAttribute('data-status', 'read');
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '2');
      // The list shows it read at once; the read call follows (silent).
      await expect.poll(() => notices.readCalls).toEqual([first.id]);
      await shot('4-read-one');

      // Read all: the count clears, the dot and the badge go.
      await page.getByTestId('messages-read-all').click();
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '0');
      await expect(bell(page, isMobile).getByTestId('notification-bell-dot')).toHaveCount(0);
      await expect(page.getByTestId('messages-unread-badge')).toHaveCount(0);
      await expect(page.locator('[data-testid="message-row"][data-status="unread"]')).toHaveCount(0);
      await expect(page.getByTestId('messages-read-all')).toBeDisabled();
      await shot('5-all-read');
    });
  });
}

test('list mode appends pages of 10 until totalPage', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'paging is the same at every width');
  test.setTimeout(90_000);
  const notices = new NoticeStandIn();
  notices.seed(23);
  await notices.install(page);
  await page.goto('/?locale=en-US');
  await registerAndLogIn(page, request);
  await page.goto('/messages');

  await expect(page.getByTestId('message-row')).toHaveCount(10);
  await page.getByTestId('messages-load-more').click();
  await expect(page.getByTestId('message-row')).toHaveCount(20);
  // A message arriving between two pages shifts the offsets; the list still shows each message once.
  notices.deliver(message('Arrived while paging', 'A new message on top.'));
  await expect(page.getByTestId('message-row').first()).toContainText('Arrived while paging');
  await page.getByTestId('messages-load-more').click();
  await expect(page.getByTestId('message-row')).toHaveCount(24);
  await expect(page.getByTestId('messages-load-more')).toHaveCount(0);
  const titles = await page.getByTestId('message-row').locator('.message-row__title').allInnerTexts();
  expect(new Set(titles).size).toBe(24);
  await shoot(page, 'desktop-en-US-6-paging-end');
});

test('after sign-in with notifications allowed: the subscription reaches the server, the service worker shows pushes when no tab is open', async ({
  page,
  context,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the registration does not depend on the width');
  test.setTimeout(90_000);
  await context.grantPermissions(['notifications']);
  // Chromium here has no push service to subscribe with; this stand-in returns the subscription a
  // browser would (what it sends is checked by the real server against the contract).
  // (A string, as it runs in the page: this file is compiled without the DOM library.)
  await page.addInitScript({
    content: `
      const subscription = {
        endpoint: 'https://push.example.test/send/e2e',
        options: { applicationServerKey: null },
        toJSON: () => ({ endpoint: 'https://push.example.test/send/e2e', expirationTime: null, keys: { p256dh: 'BOr7uUdq0Xk-e2e-p256dh-key', auth: 'e2e-auth-secret' } }),
        unsubscribe: async () => true,
      };
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async (options) => {
        const key = options && options.applicationServerKey;
        window.e2eServerKeyLength = key instanceof Uint8Array ? key.length : -1;
        return subscription;
      };`,
  });
  await page.goto('/?locale=en-US');
  const tokenRequest = page.waitForRequest((candidate) => candidate.url().endsWith('/api/notice/fcm/token'));
  await registerAndLogIn(page, request);

  const sent = await tokenRequest;
  const body = sent.postDataJSON() as { token: string; platform: string; deviceId: string };
  expect(body.platform).toBe('WEB');
  expect(body.deviceId).toMatch(/^pro-web-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(JSON.parse(body.token)).toMatchObject({ endpoint: 'https://push.example.test/send/e2e' });
  expect(sent.headers()['devicename']).toBe('Chrome');
  expect(sent.headers()['silence']).toBe('1');
  expect((await (await sent.response())?.json())?.statusCode).toBe(200);
  // The VAPID key from /api/notice/push/key, decoded: an uncompressed P-256 point.
  expect(await page.evaluate('window.e2eServerKeyLength')).toBe(65);
  // The service worker that shows pushes is installed and controls the site.
  expect(
    await page.evaluate(
      'navigator.serviceWorker.ready.then((registration) => registration.active && registration.active.scriptURL)',
    ),
  ).toMatch(/\/sw\.js$/);
  // The same browser keeps its device id across page loads.
  expect(await page.evaluate("localStorage.getItem('meridian.pushDeviceId')")).toBe(body.deviceId);

  // The service worker with a push (delivered through the DevTools protocol, as the push service
  // would): while a tab of the site is open and focused it leaves the message to the tab's toast;
  // with no tab of the site open it shows a system notification.
  const other = await context.newPage();
  await other.goto('about:blank');
  const cdp = await context.newCDPSession(other);
  const registrationIds = new Set<string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    for (const registration of registrations)
      if (!registration.isDeleted) registrationIds.add(registration.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrationIds.size).toBe(1);
  const origin = new URL(page.url()).origin;
  const push = (title: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: [...registrationIds][0]!,
      data: JSON.stringify({
        id: randomUUID(),
        title,
        body: 'Your deposit of 250 USDT has been credited.',
        link: '/messages',
      }),
    });
  const shownTitles = (on: Page) =>
    on.evaluate(
      'navigator.serviceWorker.ready.then((registration) => registration.getNotifications()).then((list) => list.map((item) => item.title))',
    );

  await page.bringToFront();
  await push('While the tab is focused');
  await page.waitForTimeout(1_000);
  expect(await shownTitles(page)).toEqual([]);

  await page.close();
  await push('With no tab of the site open');
  const reopened = await context.newPage();
  await reopened.goto('/?locale=en-US');
  await expect.poll(() => shownTitles(reopened)).toEqual(['With no tab of the site open']);
});

for (const locale of LOCALES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a real deposit through npm run deposit: toast, bell count, read clears it (${locale})`, async ({
      page,
      request,
      baseURL,
    }, testInfo) => {
      test.setTimeout(120_000);
      const isMobile = testInfo.project.name === 'mobile';
      const shot = (step: string) => shoot(page, `${testInfo.project.name}-${locale}-deposit-${step}`);
      await page.goto(`/?locale=${locale}`);
      const email = await registerAndLogIn(page, request);
      await page.goto('/messages');
      await expect(page.getByTestId('messages-empty')).toBeVisible();
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '0');

      // The custody provider's signed webhook, sent by the CLI; crediting the deposit notifies the user.
      const deposit = (amount: string) => depositWithCli(baseURL!, process.env.E2E_CUSTODY_SECRET ?? '', email, amount);
      await deposit('250');

      const toast = page.locator('.push-toast');
      await expect(toast).toBeVisible();
      await expect(toast).toContainText('250');
      await expectToastPlaced(page, toast);
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '1');
      await expect(bell(page, isMobile).getByTestId('notification-bell-dot')).toBeVisible();
      if (!isMobile) await expect(page.getByTestId('messages-unread-badge')).toHaveText('1');
      const row = page.getByTestId('message-row');
      await expect(row).toHaveCount(1);
      await expect(row).toHaveAttribute('data-status', 'unread');
      await shot('1-toast');

      // Reading it clears the count.
      await expect(toast).toBeHidden({ timeout: 8_000 });
      await closeOtherNotifications(page);
      await row.getByRole('button').click();
      await expect(row.getByTestId('message-body')).toContainText('250');
      await expect(row).toHaveAttribute('data-status', 'read');
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '0');
      await expect(bell(page, isMobile).getByTestId('notification-bell-dot')).toHaveCount(0);
      await expect(page.getByTestId('messages-unread-badge')).toHaveCount(0);
      // The server agrees after a reload.
      await page.reload();
      await expect(page.getByTestId('message-row')).toHaveAttribute('data-status', 'read');
      await expect(bell(page, isMobile)).toHaveAttribute('data-unread-count', '0');
      await shot('2-read');

      // On the deposit history, the next deposit appears without a reload: its message marks the records stale.
      await page.goto('/my/order/wallet/deposit');
      const amounts = page.getByTestId('deposit-history').getByTestId('record-amount');
      await expect(amounts).toHaveCount(1);
      await deposit('75');
      await expect(amounts).toHaveCount(2);
      await expect(amounts.first()).toContainText('75');
    });
  });
}
