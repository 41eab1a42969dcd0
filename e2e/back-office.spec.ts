import { expect, type Page } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { backOfficeTest, firstSignIn, openPage, SIGN_IN_TEXT, submitBasicKyc } from './back-office-session.ts';
import { readCode, registerAndLogIn, snap } from './helpers.ts';

/**
 * The back office end to end on the production build, in both languages at desktop
 * width: the first admin (made with `npm run ops -- operators add`) signs in at /admin and must set
 * up an authenticator; it creates a compliance operator and two finance operators, each shown their
 * temporary password once. A user in another browser submits basic KYC; the compliance operator
 * signs in (TOTP enrolment again), finds the submission in the verification queue and approves it,
 * and the user's identity page shows level 1. One finance operator proposes a balanced adjustment
 * crediting the user 25 USDT; Approve is disabled for them; the second approves it, the entry is
 * posted, and the user's balance shows the 25 USDT. Last, the admin broadcasts a message in both
 * languages and the user reads it, in their language, in the message centre.
 */
const CUSTODY_SECRET = 'e2e-back-office-custody-secret-0123456789';
/** Each test on its own server with a first admin, whose temporary password is `prepared`. */
const test = backOfficeTest('back-office', CUSTODY_SECRET);
// The back office is a desktop application: both languages run on the desktop project.
test.skip(({ isMobile }) => isMobile, 'the back office runs on the desktop project');

/** The texts these tests look for, in each language: the sign-in page's (shared) and the back office's. */
const TEXT = {
  'en-US': {
    ...SIGN_IN_TEXT['en-US'],
    operators: 'Operators',
    newOperator: 'New operator',
    role: 'Role',
    create: 'Create',
    copied: 'I have copied the password',
    roles: { compliance: 'Compliance', finance: 'Finance' },
    queue: 'Verification queue',
    review: 'Review',
    approve: 'Approve',
    approveYes: 'Yes, approve',
    adjustments: 'Adjustments',
    newAdjustment: 'New adjustment',
    reason: 'Reason',
    line: (line: number, field: string) => `Line ${line}: ${field}`,
    accountKind: 'Account type',
    userId: 'User ID',
    platformAccount: 'Platform account',
    asset: 'Asset',
    amount: 'Amount',
    platform: 'Platform',
    platformAdjustments: 'Adjustments',
    balanced: 'Balanced in every asset',
    propose: 'Propose',
    posted: 'Posted',
    broadcasts: 'Broadcasts',
    newBroadcast: 'New broadcast',
    messageTitle: 'Title',
    messageBody: 'Message',
    reviewBroadcast: 'Review and send',
    send: 'Send now',
    settings: 'Settings',
    cardsTab: 'Cards',
    physicalCardsMax: 'Physical cards per user',
    save: 'Save',
    proposeFees: 'Propose fee change',
    physicalFee: 'Physical card production fee',
    awaiting: 'Awaiting approval',
  },
  'zh-HK': {
    ...SIGN_IN_TEXT['zh-HK'],
    operators: '操作員',
    newOperator: '新增操作員',
    role: '角色',
    create: '建立',
    copied: '我已複製密碼',
    roles: { compliance: '合規', finance: '財務' },
    queue: '身份認證審核',
    review: '審核',
    approve: '批准',
    approveYes: '確定批准',
    adjustments: '手動調整',
    newAdjustment: '新增調整',
    reason: '原因',
    line: (line: number, field: string) => `第 ${line} 行：${field}`,
    accountKind: '帳戶類型',
    userId: '用戶編號',
    platformAccount: '平台帳戶',
    asset: '資產',
    amount: '金額',
    platform: '平台',
    platformAdjustments: '調整',
    balanced: '各資產均已平衡',
    propose: '提交',
    posted: '已入帳',
    broadcasts: '群發訊息',
    newBroadcast: '新增群發訊息',
    messageTitle: '標題',
    messageBody: '內容',
    reviewBroadcast: '檢查並發送',
    send: '立即發送',
    settings: '設定',
    cardsTab: '卡片',
    physicalCardsMax: '每位用戶實體卡數目上限',
    save: '儲存',
    proposeFees: '提出手續費變更',
    physicalFee: '實體卡製卡費',
    awaiting: '待批准',
  },
} as const;
type Locale = keyof typeof TEXT;

/** Create an operator on /admin/operators; answers the temporary password shown once. */
async function createOperator(page: Page, locale: Locale, email: string, role: 'compliance' | 'finance') {
  const text = TEXT[locale];
  await page.getByRole('menuitem', { name: text.operators, exact: true }).click();
  await page.getByRole('button', { name: text.newOperator, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(text.email, { exact: true }).fill(email);
  await pickOption(
    page,
    dialog.getByLabel(text.role, { exact: true }).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
    text.roles[role],
  );
  await dialog.getByRole('button', { name: text.create, exact: true }).click();
  const password = (await page.getByTestId('admin-temporary-password').innerText()).trim();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await page.getByRole('button', { name: text.copied, exact: true }).click();
  await expect(page.getByRole('cell', { name: email, exact: true })).toBeVisible();
  return password;
}

/** The user's available USDT in the main account, a decimal string ('0' when the account holds none). */
async function availableUsdt(page: Page): Promise<string> {
  const answer = await (await page.request.get('/api/wallet/balance')).json();
  const accounts = answer.content.wallet.accounts as {
    accountType: string;
    assets: { coinCode: string; type: string; amount: string }[];
  }[];
  const main = accounts.find((account) => account.accountType === 'MainAccount');
  const line = main?.assets.find((asset) => asset.coinCode === 'USDT' && asset.type === 'available');
  return line?.amount ?? '0';
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`operators with TOTP: an admin creates a compliance operator who approves a user's KYC; two finance operators post an adjustment with four eyes (${locale})`, async ({
    browser,
    ownServer,
    prepared: rootPassword,
  }, testInfo) => {
    test.setTimeout(300_000);
    const text = TEXT[locale];
    const tag = `${locale.toLowerCase()}-${Date.now()}`;

    // The first admin: password, then the authenticator; then three operators.
    const admin = await openPage(browser, ownServer, locale);
    await firstSignIn(admin, locale, 'root@meridian.test', String(rootPassword));
    await snap(admin, testInfo, 'dashboard', `back-office-${locale}-`);
    const complianceEmail = `compliance-${tag}@meridian.test`;
    const financeEmails = [`finance-a-${tag}@meridian.test`, `finance-b-${tag}@meridian.test`];
    const compliancePassword = await createOperator(admin, locale, complianceEmail, 'compliance');
    const financePasswords = [
      await createOperator(admin, locale, financeEmails[0]!, 'finance'),
      await createOperator(admin, locale, financeEmails[1]!, 'finance'),
    ];
    await snap(admin, testInfo, 'operators', `back-office-${locale}-`);

    // A user in another browser submits basic KYC.
    const user = await openPage(browser, ownServer, locale);
    const userEmail = `kyc-user-${tag}@meridian.test`;
    const userId = await registerAndLogIn(user, userEmail, locale);
    await submitBasicKyc(user);

    // The compliance operator signs in, finds it in the queue and approves it.
    const compliance = await openPage(browser, ownServer, locale);
    await firstSignIn(compliance, locale, complianceEmail, compliancePassword);
    // Compliance sees no Operators or Adjustments entry: the menu follows the role.
    await expect(compliance.getByRole('menuitem', { name: text.operators, exact: true })).toHaveCount(0);
    await compliance.getByRole('menuitem', { name: text.queue, exact: true }).click();
    const row = compliance.getByRole('row').filter({ hasText: userEmail });
    await row.getByRole('link', { name: text.review, exact: true }).click();
    await expect(compliance.getByText(userId).first()).toBeVisible();
    await snap(compliance, testInfo, 'kyc-review', `back-office-${locale}-`);
    await compliance.getByRole('button', { name: text.approve, exact: true }).click();
    await compliance.getByRole('button', { name: text.approveYes, exact: true }).click();

    // The user's identity page shows level 1 (Verified).
    await expect
      .poll(async () => (await (await user.request.get('/api/user/info')).json()).content?.status, { timeout: 15_000 })
      .toBe(1);
    await user.goto('/identity');
    await expect(user.getByTestId('identity-page')).toHaveAttribute('data-level', '1');

    // Finance A proposes a balanced adjustment: +25 USDT to the user, −25 USDT from platform adjustments.
    const before = await availableUsdt(user);
    const financeA = await openPage(browser, ownServer, locale);
    await firstSignIn(financeA, locale, financeEmails[0]!, financePasswords[0]!);
    await financeA.getByRole('menuitem', { name: text.adjustments, exact: true }).click();
    await financeA.getByRole('button', { name: text.newAdjustment, exact: true }).click();
    const dialog = financeA.getByRole('dialog');
    await dialog.getByLabel(text.reason, { exact: true }).fill(`Goodwill credit ${tag}`);
    await dialog.getByLabel(text.line(1, text.userId), { exact: true }).fill(userId);
    await pickOption(
      financeA,
      dialog
        .getByLabel(text.line(1, text.asset), { exact: true })
        .locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      'USDT',
    );
    await dialog.getByLabel(text.line(1, text.amount), { exact: true }).fill('25');
    await pickOption(
      financeA,
      dialog
        .getByLabel(text.line(2, text.accountKind), { exact: true })
        .locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      text.platform,
    );
    await pickOption(
      financeA,
      dialog
        .getByLabel(text.line(2, text.platformAccount), { exact: true })
        .locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      text.platformAdjustments,
    );
    await pickOption(
      financeA,
      dialog
        .getByLabel(text.line(2, text.asset), { exact: true })
        .locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'),
      'USDT',
    );
    await dialog.getByLabel(text.line(2, text.amount), { exact: true }).fill('-25');
    await expect(dialog.getByTestId('adjustment-balance')).toContainText(text.balanced);
    await snap(financeA, testInfo, 'adjustment-proposal', `back-office-${locale}-`);
    await dialog.getByRole('button', { name: text.propose, exact: true }).click();
    const proposal = financeA.getByRole('row').filter({ hasText: `Goodwill credit ${tag}` });
    await expect(proposal.getByRole('button', { name: text.approve, exact: true })).toBeDisabled();
    expect(await availableUsdt(user)).toBe(before);

    // Finance B approves it: posted once, the user has the 25 USDT.
    const financeB = await openPage(browser, ownServer, locale);
    await firstSignIn(financeB, locale, financeEmails[1]!, financePasswords[1]!);
    await financeB.getByRole('menuitem', { name: text.adjustments, exact: true }).click();
    const toApprove = financeB.getByRole('row').filter({ hasText: `Goodwill credit ${tag}` });
    await toApprove.getByRole('button', { name: text.approve, exact: true }).click();
    await expect(financeB.getByRole('row').filter({ hasText: `Goodwill credit ${tag}` })).toHaveCount(0);
    expect(before).toMatch(/^0(\.0+)?$/);
    await expect.poll(async () => availableUsdt(user), { timeout: 15_000 }).toMatch(/^25(\.0+)?$/);
    await snap(financeB, testInfo, 'adjustments-after', `back-office-${locale}-`);

    // The admin broadcasts a message in both languages; the user reads theirs in the message centre.
    const titles = { 'en-US': `Service notice ${tag}`, 'zh-HK': `服務通知 ${tag}` };
    await admin.getByRole('menuitem', { name: text.broadcasts, exact: true }).click();
    await admin.getByRole('button', { name: text.newBroadcast, exact: true }).click();
    const composer = admin.getByRole('dialog');
    await composer.getByLabel(text.messageTitle, { exact: true }).nth(0).fill(titles['en-US']);
    await composer.getByLabel(text.messageBody, { exact: true }).nth(0).fill('Scheduled maintenance on Sunday.');
    await composer.getByLabel(text.messageTitle, { exact: true }).nth(1).fill(titles['zh-HK']);
    await composer.getByLabel(text.messageBody, { exact: true }).nth(1).fill('星期日將進行系統維護。');
    await snap(admin, testInfo, 'broadcast', `back-office-${locale}-`);
    await composer.getByRole('button', { name: text.reviewBroadcast, exact: true }).click();
    await composer.getByRole('button', { name: text.send, exact: true }).click();
    await expect(admin.getByRole('cell', { name: titles[locale] })).toBeVisible();
    await user.goto('/messages');
    await expect(user.getByText(titles[locale]).first()).toBeVisible();
    await expect(user.getByText(titles[locale === 'en-US' ? 'zh-HK' : 'en-US'])).toHaveCount(0);

    // Card settings: the admin allows 2 physical cards per user (at once, audited) and proposes a
    // 12 USDT production fee, which waits for a different admin's approval.
    await admin.getByRole('menuitem', { name: text.settings, exact: true }).click();
    await admin.getByRole('tab', { name: text.cardsTab, exact: true }).click();
    await expect(admin.getByTestId('card-settings-physical-max')).toHaveText('3');
    await admin.getByTestId('card-settings-edit-physical-max').click();
    const edit = admin.getByRole('dialog');
    await edit.getByLabel(text.physicalCardsMax, { exact: true }).fill('2');
    await edit.getByRole('button', { name: text.save }).click();
    await expect(admin.getByTestId('card-settings-physical-max')).toHaveText('2');
    await admin.getByRole('button', { name: text.proposeFees, exact: true }).click();
    const proposeDialog = admin.getByRole('dialog');
    await proposeDialog.getByLabel(text.physicalFee, { exact: true }).fill('12');
    await proposeDialog.getByRole('button', { name: text.save }).click();
    const feeRow = admin.getByRole('row').filter({ hasText: '12 / 10 USDT' });
    await expect(feeRow.getByText(text.awaiting, { exact: true })).toBeVisible();
    await snap(admin, testInfo, 'card-settings', `back-office-${locale}-`);
  });
}

const PRO_TEXT = {
  'en-US': {
    proMenu: 'PRO applications',
    reply: 'Reply to the customer',
    approved: 'Your PRO account is approved',
    pending: 'under review',
    message: 'PRO account approved',
  },
  'zh-HK': {
    proMenu: 'PRO 帳戶申請',
    reply: '回覆客戶',
    approved: '你的 PRO 帳戶已獲批核',
    pending: '正在審核中',
    message: 'PRO 帳戶已獲批核',
  },
} as const;

for (const locale of ['en-US', 'zh-HK'] as const) {
  /**
   * PRO account (docs/corporate.md): a level-1 user applies on /my/account/fiscard; the compliance
   * operator finds the application in /admin/pro-applications and approves it with a reply; the
   * user reads the approval, issues a virtual card to a named employee with per-card limits
   * (security check CARD_APPLY) and sees it listed. The customer page is captured at 1280 and 390 px.
   */
  test(`PRO account: a user applies, a compliance operator approves, the user issues an employee card (${locale})`, async ({
    browser,
    ownServer,
    prepared: rootPassword,
  }, testInfo) => {
    test.setTimeout(600_000);
    const text = TEXT[locale];
    const pro = PRO_TEXT[locale];
    const tag = `${locale.toLowerCase()}-${Date.now()}`;
    const company = `Harbour Trading ${tag}`;

    const admin = await openPage(browser, ownServer, locale);
    await firstSignIn(admin, locale, 'root@meridian.test', String(rootPassword));
    const complianceEmail = `compliance-pro-${tag}@meridian.test`;
    const compliancePassword = await createOperator(admin, locale, complianceEmail, 'compliance');

    // The user reaches level 1: basic KYC approved by the compliance operator.
    const user = await openPage(browser, ownServer, locale);
    const userEmail = `pro-user-${tag}@meridian.test`;
    await registerAndLogIn(user, userEmail, locale);
    await submitBasicKyc(user);
    const compliance = await openPage(browser, ownServer, locale);
    await firstSignIn(compliance, locale, complianceEmail, compliancePassword);
    await compliance.getByRole('menuitem', { name: text.queue, exact: true }).click();
    await compliance
      .getByRole('row')
      .filter({ hasText: userEmail })
      .getByRole('link', { name: text.review, exact: true })
      .click();
    await compliance.getByRole('button', { name: text.approve, exact: true }).click();
    await compliance.getByRole('button', { name: text.approveYes, exact: true }).click();
    await expect
      .poll(async () => (await (await user.request.get('/api/user/info')).json()).content?.status, { timeout: 15_000 })
      .toBe(1);

    // The application, on the card account page.
    await user.goto('/my/account/fiscard');
    const section = user.getByTestId('pro-section');
    // The section's forms are a chunk of their own, loaded after the cards (slow on a busy machine).
    await expect(section.getByTestId('pro-apply-form')).toBeVisible({ timeout: 60_000 });
    await section.getByTestId('pro-company').fill(company);
    await section.getByTestId('pro-registration').fill('12345678');
    await section.getByTestId('pro-spend').fill('25000');
    await section.getByTestId('pro-card-count').fill('8');
    await section.getByTestId('pro-contact-name').fill('Mei Chan');
    await section.getByTestId('pro-contact-email').fill('mei@harbour.example');
    await section.getByTestId('pro-contact-phone').fill('+852 5555 0101');
    await snap(user, testInfo, 'apply', `pro-${locale}-1280-`);
    await user.setViewportSize({ width: 390, height: 844 });
    await snap(user, testInfo, 'apply', `pro-${locale}-390-`);
    await user.setViewportSize({ width: 1280, height: 900 });
    await section.getByTestId('pro-apply-submit').click();
    await expect(section.getByTestId('pro-pending')).toContainText(pro.pending);
    await expect(section.getByTestId('pro-pending')).toContainText(locale === 'zh-HK' ? 'US$25,000.00' : '$25,000.00');
    await snap(user, testInfo, 'pending', `pro-${locale}-1280-`);

    // The compliance operator approves it with a reply.
    await compliance.getByRole('menuitem', { name: pro.proMenu, exact: true }).click();
    const row = compliance.getByRole('row').filter({ hasText: company });
    await expect(row).toContainText(userEmail);
    await snap(compliance, testInfo, 'applications', `pro-${locale}-admin-`);
    await row.getByTestId('pro-approve').click();
    const dialog = compliance.getByRole('dialog');
    await dialog.getByLabel(pro.reply, { exact: true }).fill(`Welcome, ${company}`);
    await dialog.getByRole('button', { name: text.approve, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(compliance.getByRole('row').filter({ hasText: company })).toHaveCount(0);

    // The user is PRO: issues a card to an employee with per-card limits.
    await user.reload();
    await expect(section.getByTestId('pro-approved')).toContainText(pro.approved, { timeout: 60_000 });
    await expect(section.getByTestId('pro-approved')).toContainText(`Welcome, ${company}`);
    const form = section.getByTestId('pro-employee-form');
    await form.getByTestId('pro-employee-name').fill('Wing Lee');
    await form.getByTestId('pro-limit-perTransaction').fill('200');
    await form.getByTestId('pro-limit-daily').fill('500');
    await form.getByTestId('pro-limit-monthly').fill('3000');
    await form.getByTestId('pro-issue-submit').click();
    await expect(user.getByTestId('security-check-form')).toBeVisible();
    await user.getByTestId('email-code').fill(await readCode(user.request, userEmail, 'CARD_APPLY'));
    await user.getByTestId('security-check-submit').click();
    await expect(user.getByTestId('security-check-form')).toBeHidden();
    await expect(section.getByTestId('pro-issue-done')).toContainText('Wing Lee');
    await expect(section.getByTestId('pro-employee-card')).toHaveCount(1);
    await expect(section.getByTestId('pro-employee-card')).toContainText('Wing Lee');
    const cards = (await (await user.request.get('/api/card/list')).json()).content as { employeeName: string }[];
    expect(cards.map((card) => card.employeeName)).toEqual(['Wing Lee']);
    const detail = (await (await user.request.get(`/api/card/${(cards[0] as unknown as { id: number }).id}`)).json())
      .content;
    expect(detail.limits).toEqual({ perTransaction: '200.00', daily: '500.00', monthly: '3000.00' });
    await snap(user, testInfo, 'employee-card', `pro-${locale}-1280-`);
    await user.setViewportSize({ width: 390, height: 844 });
    await snap(user, testInfo, 'employee-card', `pro-${locale}-390-`);

    // The approval is in the user's message centre, in their language.
    await user.goto('/messages');
    await expect(user.getByText(pro.message).first()).toBeVisible();
  });
}
