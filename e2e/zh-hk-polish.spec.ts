import { expect, test } from '@playwright/test';
import { contrastOnWhite, isOneLine } from './page-style.ts';
import { DEMO, logInThroughApi } from './helpers.ts';

/**
 * The Traditional Chinese rough edges a new user met: Ant Design put a space inside
 * two-character buttons ("登 入", "取 消"), the header's app button read "App", the /my/profile labels
 * broke inside a word at 390 px (身份認/證), and the Bind/Change links of /my/security were pale
 * enough to look disabled. (帳 versus 賬 is a unit test: src/locales/locales.test.ts.)
 */
// Signed-in pages on a busy machine: the app, Ant Design and the account's data load first.
test.describe.configure({ timeout: 90_000 });

test('zh-HK: two-character buttons have no space inside, the app button is in Chinese', async ({ page }) => {
  await page.goto('/my/security?locale=zh-HK');
  const submit = page.getByTestId('login-flow').getByTestId('login-submit');
  await expect(submit).toBeVisible({ timeout: 20_000 });
  expect(await submit.innerText()).toBe('登入');
  if (test.info().project.name === 'desktop') await expect(page.getByTestId('download-trigger')).toHaveText('應用程式');
});

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`/my/profile labels stay on one line, /my/security links look like links (${locale})`, async ({
    page,
  }, testInfo) => {
    await logInThroughApi(page, DEMO, locale);
    await page.goto('/my/profile');
    const labelText = locale === 'zh-HK' ? '身份認證' : 'Identity verification';
    const label = page.getByTestId('profile-page').locator('.ant-descriptions-item-label', { hasText: labelText });
    await expect(label).toHaveText(labelText, { timeout: 20_000 });
    expect(await isOneLine(label), `${labelText} fits one line`).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`profile-${locale}.png`), fullPage: true });

    await page.goto('/my/security');
    const action = page.getByTestId('binding-mobile-action');
    await expect(action).toHaveText(locale === 'zh-HK' ? '綁定' : 'Bind', { timeout: 20_000 });
    // A link to an action reads as one: at least WCAG AA's 4.5:1 (Ant Design's description grey gave about 2.8:1).
    expect(await contrastOnWhite(action)).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: testInfo.outputPath(`security-${locale}.png`), fullPage: true });
  });
}
