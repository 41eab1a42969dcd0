import { expect, type Page, test } from '@playwright/test';
import { logInThroughApi, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';

/**
 * The calendar on the production build, as the shared server's demo account: the page
 * shows the dates (or the empty state) and the secret feed address; the address answers an ICS
 * calendar without a session; "Rotate address" asks first, then shows a new address, and the old one
 * answers 404. en-US at 1280 px, zh-HK at 390 px. Both runs share the demo account and may rotate
 * each other's address, so each reads the address the page shows at the moment it checks it.
 */
const TEXT: Record<Locale, { title: string; feed: string; confirm: string }> = {
  'en-US': { title: 'Calendar', feed: 'Subscribe in your calendar app', confirm: 'Make a new address?' },
  'zh-HK': { title: '日曆', feed: '於日曆應用程式訂閱', confirm: '要建立新地址嗎？' },
};

/** The path of the feed address the page shows now. */
async function shownFeedPath(page: Page): Promise<string> {
  const text = (await page.getByTestId('calendar-feed-url').innerText()).trim();
  const url = new URL(text);
  expect(url.pathname).toMatch(/^\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
  return url.pathname;
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`calendar (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`the page shows the dates and a feed that calendar apps read; rotating ends the old address (${locale})`, async ({
      page,
    }, testInfo) => {
      const text = TEXT[locale];
      await logInThroughApi(page, undefined, locale);
      await page.goto('/my/calendar');
      await expect(page.getByRole('heading', { name: text.title }).first()).toBeVisible();
      await expect(page.getByTestId('calendar-empty').or(page.getByTestId('calendar-event').first())).toBeVisible();
      await expect(page.getByTestId('calendar-feed')).toContainText(text.feed);

      // The address answers the calendar itself, without the session's cookies.
      await expect(async () => {
        await page.reload();
        const path = await shownFeedPath(page);
        const feed = await page.request.get(path, { headers: { cookie: '' } });
        expect(feed.status()).toBe(200);
        expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
        const body = await feed.text();
        expect(body).toMatch(/^BEGIN:VCALENDAR\r\n/);
        expect(body.trimEnd()).toMatch(/END:VCALENDAR$/);
      }).toPass({ timeout: 30_000 });
      await snap(page, testInfo, `${locale}-page`, 'calendar-');

      const before = await shownFeedPath(page);
      await page.getByTestId('calendar-feed-rotate').click();
      await expect(page.getByText(text.confirm)).toBeVisible();
      await snap(page, testInfo, `${locale}-confirm`, 'calendar-');
      await page.getByTestId('calendar-feed-rotate-ok').click();
      await expect(page.getByTestId('calendar-feed-url')).not.toContainText(before);
      expect((await page.request.get(before)).status()).toBe(404);
    });
  });
}
