import { expect } from '@playwright/test';
import { backOfficeTest, firstSignIn, openPage, ROOT_ADMIN_EMAIL, submitBasicKyc } from './back-office-session.ts';
import { registerAndLogIn, sidewaysOverflowPx, snap } from './helpers.ts';

/**
 * The back office at a phone's width ("the back office needs no phone layout beyond being
 * usable"; docs/back-office.md "Narrow screens"): the main pages at 1280 px and at 390 px, in both
 * languages. At 390 px the menu is behind a button instead of a 220 px column, the page never
 * scrolls sideways (wide tables scroll inside themselves) and the page's heading starts on screen.
 * The KYC review shows the submitted codes by their names in the operator's language.
 * The screenshots are kept under e2e/artifacts/screenshots/ (`desktop-back-office-narrow-*`).
 */
const CUSTODY_SECRET = 'e2e-back-office-narrow-custody-secret-0123';

const test = backOfficeTest('back-office-narrow', CUSTODY_SECRET);
test.skip(({ isMobile }) => isMobile, 'the back office runs on the desktop project (this spec sets its own widths)');

const WIDTHS = [1280, 390] as const;
const MENU_BUTTON = { 'en-US': 'Menu', 'zh-HK': '選單' } as const;
/** Labels of the submitted ID type (`hkid`) and country (`HK`) on the KYC review (admin/lib/labels.ts). */
const ID_TYPE_HKID = { 'en-US': 'Hong Kong identity card', 'zh-HK': '香港身份證' } as const;
const HONG_KONG = { 'en-US': 'Hong Kong', 'zh-HK': '香港' } as const;

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`the back office at 1280 and 390 px: menu behind a button, no sideways scrolling, headings on screen (${locale})`, async ({
    browser,
    ownServer,
    prepared: rootPassword,
  }, testInfo) => {
    // 14 page loads: about 7 minutes at a load average of 20–29 on the 2-core machine.
    test.setTimeout(600_000);
    const user = await openPage(browser, ownServer, 'en-US');
    const userId = await registerAndLogIn(user, `narrow-${Date.now()}@meridian.test`, 'en-US');
    await submitBasicKyc(user);

    const admin = await openPage(browser, ownServer, locale);
    await firstSignIn(admin, locale, ROOT_ADMIN_EMAIL, String(rootPassword));
    const pages = [
      ['dashboard', '/admin'],
      ['users', '/admin/users'],
      ['user', `/admin/users/${userId}`],
      ['kyc-review', `/admin/kyc/${userId}?step=basic`],
      ['withdrawals', '/admin/withdrawals'],
      ['adjustments', '/admin/adjustments'],
      ['settings', '/admin/settings'],
    ] as const;

    for (const width of WIDTHS) {
      await admin.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [name, path] of pages) {
        await admin.goto(path);
        const heading = admin.getByRole('heading', { level: 1 }).first();
        // A full load of a back-office page took 15–20 s on the loaded 2-core machine.
        await expect(heading).toBeVisible({ timeout: 60_000 });
        await admin.waitForLoadState('networkidle');
        await snap(admin, testInfo, `${name}-${width}`, `back-office-narrow-${locale}-`);
        // Soft: every page is measured and captured even when one fails.
        expect.soft(await sidewaysOverflowPx(admin), `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        const box = (await heading.boundingBox())!;
        expect.soft(box.x, `${path} at ${width} px: the heading starts off screen`).toBeGreaterThanOrEqual(0);
        expect
          .soft(box.x, `${path} at ${width} px: the heading starts past a side menu`)
          .toBeLessThan(width === 390 ? 40 : 300);
        if (name === 'kyc-review') {
          // The submitted data in the operator's language: the ID type's and the country's names, not their codes.
          const data = admin.locator('.ant-descriptions').nth(1);
          await expect.soft(data).toContainText(ID_TYPE_HKID[locale]);
          await expect.soft(data).toContainText(HONG_KONG[locale]);
          await expect.soft(data.getByText('hkid', { exact: true })).toHaveCount(0);
        }
        const menuButton = admin.getByRole('button', { name: MENU_BUTTON[locale], exact: true });
        if (width === 390) await expect.soft(menuButton).toBeVisible({ timeout: 1000 });
        else await expect.soft(menuButton).toBeHidden({ timeout: 1000 });
      }
    }
    // At 390 px the menu opens over the page and closes once a page is chosen.
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto('/admin');
    await admin.getByRole('button', { name: MENU_BUTTON[locale], exact: true }).click();
    const settings = locale === 'en-US' ? 'Settings' : '設定';
    await expect(admin.getByRole('menuitem', { name: settings, exact: true })).toBeVisible({ timeout: 60_000 });
    await snap(admin, testInfo, 'menu-390', `back-office-narrow-${locale}-`);
    await admin.getByRole('menuitem', { name: settings, exact: true }).click();
    await expect(admin).toHaveURL(/\/admin\/settings$/);
    await expect(admin.getByRole('menuitem', { name: settings, exact: true })).toBeHidden();
    await expect(admin.getByRole('heading', { level: 1 }).first()).toBeVisible();
  });
}
