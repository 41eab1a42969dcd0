import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Pick the option titled `title` in an Ant Design Select and wait until its dropdown has closed and
 * the select shows the choice. Under load a click can land while the dropdown is still opening and
 * leave it open over the page (seen in CI on phones, twice); the pick is then made again from a
 * closed dropdown (Escape), for up to 20 s. `search` is typed first, for long virtual lists.
 */
export async function pickOption(
  page: Page,
  select: Locator,
  title: string,
  options: { search?: string } = {},
): Promise<void> {
  const openDropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await expect(async () => {
    if ((await openDropdown.count()) > 0) {
      await page.keyboard.press('Escape');
      await expect(openDropdown).toHaveCount(0, { timeout: 2_000 });
    }
    await select.click();
    // A long list renders only the options in view: type to filter it first (Selects with showSearch).
    if (options.search) await page.keyboard.insertText(options.search);
    await openDropdown.locator(`.ant-select-item-option[title="${title}"]`).click({ timeout: 2_000 });
    await expect(openDropdown).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(select).toContainText(title);
}
