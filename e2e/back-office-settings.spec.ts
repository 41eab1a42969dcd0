import { expect, type Locator, type Page } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { backOfficeTest, firstSignIn, openPage, SIGN_IN_TEXT } from './back-office-session.ts';
import { MUTATION } from './helpers.ts';

/**
 * The settings workflow's four eyes in the back office, on the production build (docs/back-office.md
 * "One settings workflow"): the first admin creates a second admin; on Settings → Loan settings it
 * proposes a margin-call cure window of 30 minutes and a hard liquidation level of 97 % with the LTV
 * levels; its own approval is refused (disabled, and 153 from the server) and nothing changes; the second
 * admin signs in and approves it, and the tab and the public `loan/config` show the new numbers. The
 * fund tiers go the same way on Settings → Fund products (the shared settings form), and Settings →
 * Pending changes lists both kinds, labelled.
 */
const CUSTODY_SECRET = 'e2e-back-office-settings-custody-0123456789';
const test = backOfficeTest('back-office-settings', CUSTODY_SECRET);
test.skip(({ isMobile }) => isMobile, 'the back office runs on the desktop project');

const TEXT = {
  ...SIGN_IN_TEXT['en-US'],
  operators: 'Operators',
  newOperator: 'New operator',
  role: 'Role',
  create: 'Create',
  copied: 'I have copied the password',
  administrator: 'Administrator',
  settings: 'Settings',
  loanSettings: 'Loan settings',
  cureWindow: 'Margin-call cure window',
  hardLevel: 'Hard liquidation level',
  save: 'Save',
  approve: 'Approve',
  awaiting: 'Awaiting approval',
  applied: 'Applied',
  fundProducts: 'Fund products',
  tier1Rate: 'Tier 1 rate',
  pendingChanges: 'Pending changes',
  fundTiersKind: 'Fund rate tiers',
  loanKind: 'Loan LTV levels and fee',
} as const;

/** Create an administrator on /admin/operators; answers the temporary password shown once. */
async function createAdmin(page: Page, email: string): Promise<string> {
  await page.getByRole('menuitem', { name: TEXT.operators, exact: true }).click();
  await page.getByRole('button', { name: TEXT.newOperator, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(TEXT.email, { exact: true }).fill(email);
  await pickOption(
    page,
    dialog.getByLabel(TEXT.role, { exact: true }).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
    TEXT.administrator,
  );
  await dialog.getByRole('button', { name: TEXT.create, exact: true }).click();
  const password = (await page.getByTestId('admin-temporary-password').innerText()).trim();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await page.getByRole('button', { name: TEXT.copied, exact: true }).click();
  await expect(page.getByRole('cell', { name: email, exact: true })).toBeVisible();
  return password;
}

/** The id of a proposals-table row (its first cell). */
async function proposalId(row: Locator): Promise<number> {
  return Number((await row.getByRole('cell').first().innerText()).trim());
}

/** Open Settings → Loan settings and wait for the risky numbers. */
async function openLoanSettings(page: Page): Promise<void> {
  await page.getByRole('menuitem', { name: TEXT.settings, exact: true }).click();
  await page.getByRole('tab', { name: TEXT.loanSettings, exact: true }).click();
  await expect(page.getByTestId('loan-risk-cureWindowMinutes')).toBeVisible({ timeout: 30_000 });
}

test('one admin proposes the loans’ cure window and hard level; the proposer cannot approve; a second admin does', async ({
  browser,
  ownServer,
  prepared: rootPassword,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now();
  const root = await openPage(browser, ownServer, 'en-US');
  await firstSignIn(root, 'en-US', 'root@meridian.test', String(rootPassword));
  const secondEmail = `admin-b-${tag}@meridian.test`;
  const secondPassword = await createAdmin(root, secondEmail);

  // The first admin proposes: the form is the section's field list, filled with the values in force.
  await openLoanSettings(root);
  await expect(root.getByTestId('loan-risk-cureWindowMinutes')).toHaveText('60 min');
  await expect(root.getByTestId('loan-risk-hardLiquidationLtvPct')).toHaveText('95 %');
  await root.getByTestId('loan-risk-propose').click();
  const form = root.getByRole('dialog');
  await form.getByLabel(TEXT.cureWindow, { exact: true }).fill('30');
  await form.getByLabel(TEXT.hardLevel, { exact: true }).fill('97');
  await form.getByRole('button', { name: TEXT.save, exact: true }).click();
  await expect(form).toBeHidden();
  const changes = root.getByTestId('loan-risk-changes');
  const proposal = changes.getByRole('row').filter({ hasText: TEXT.awaiting });
  await expect(proposal).toHaveCount(1);
  await expect(proposal).toContainText('30 min');

  // The proposer cannot approve it (the button is disabled; the server answers 153 as well) and
  // nothing applies yet.
  await expect(proposal.getByRole('button', { name: TEXT.approve, exact: true })).toBeDisabled();
  const own = await root.request.post(`/api/admin/loan-settings/changes/${await proposalId(proposal)}/approve`, {
    headers: MUTATION,
    data: {},
  });
  expect((await own.json()).statusCode).toBe(153);
  await expect(root.getByTestId('loan-risk-cureWindowMinutes')).toHaveText('60 min');

  // The second admin approves it: applied once, in force for the loans.
  const second = await openPage(browser, ownServer, 'en-US');
  await firstSignIn(second, 'en-US', secondEmail, secondPassword);
  await openLoanSettings(second);
  const secondChanges = second.getByTestId('loan-risk-changes');
  await secondChanges
    .getByRole('row')
    .filter({ hasText: TEXT.awaiting })
    .getByRole('button', { name: TEXT.approve, exact: true })
    .click();
  await expect(secondChanges.getByRole('row').filter({ hasText: TEXT.applied })).toHaveCount(1);
  await expect(secondChanges.getByRole('row').filter({ hasText: TEXT.awaiting })).toHaveCount(0);
  await expect(second.getByTestId('loan-risk-cureWindowMinutes')).toHaveText('30 min');
  await expect(second.getByTestId('loan-risk-hardLiquidationLtvPct')).toHaveText('97 %');
  const config = await (await second.request.get('/api/loan/config')).json();
  expect(config.content).toMatchObject({ cureWindowMinutes: 30, hardLiquidationLtvPct: '97' });

  // The fund tiers: the same workflow and form on the Fund products tab.
  const fundProduct = 'EXW_CURRENT_PRODUCT';
  await root.getByRole('tab', { name: TEXT.fundProducts, exact: true }).click();
  await root.getByTestId(`fund-tiers-propose-${fundProduct}`).click();
  const tiersForm = root.getByRole('dialog');
  await tiersForm.getByLabel(TEXT.tier1Rate, { exact: true }).fill('4');
  await tiersForm.getByRole('button', { name: TEXT.save, exact: true }).click();
  await expect(tiersForm).toBeHidden();
  const fundChanges = root.getByTestId('fund-tier-changes');
  const fundProposal = fundChanges.getByRole('row').filter({ hasText: TEXT.awaiting });
  await expect(fundProposal).toContainText('4.00 % ≤ 50000.00 · 2.00 %');
  await expect(fundProposal.getByRole('button', { name: TEXT.approve, exact: true })).toBeDisabled();

  await second.getByRole('tab', { name: TEXT.fundProducts, exact: true }).click();
  const secondFundChanges = second.getByTestId('fund-tier-changes');
  await secondFundChanges
    .getByRole('row')
    .filter({ hasText: TEXT.awaiting })
    .getByRole('button', { name: TEXT.approve, exact: true })
    .click();
  await expect(secondFundChanges.getByRole('row').filter({ hasText: TEXT.applied })).toHaveCount(1);
  await expect(second.getByRole('row').filter({ hasText: fundProduct }).first()).toContainText(
    '4.00 % up to $50000.00',
  );

  // Every kind in one list, labelled.
  await second.getByRole('tab', { name: TEXT.pendingChanges, exact: true }).click();
  const all = second.getByTestId('product-settings-changes');
  await expect(all.getByRole('row').filter({ hasText: TEXT.fundTiersKind })).toHaveCount(1);
  await expect(all.getByRole('row').filter({ hasText: TEXT.loanKind })).toHaveCount(1);
});
