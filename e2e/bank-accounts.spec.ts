import { expect } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { ownServerTest } from './own-server.ts';
import { addComplianceOperator, reachLevelTwo } from './investor.ts';
import { readCode, registerAndLogIn, snap } from './helpers.ts';
import { runOnLocaleProject } from './locale-runs.ts';

/**
 * Bank accounts end to end on the production build. A new user is refused the page
 * below identity level 2 (the verification prompt); reaches level 2 through the API as the KYC
 * spec's pages do (basic KYC with files, approved with `npm run ops -- kyc approve`; investor
 * profile approved with `--step investor`; AML answers; W-8BEN); then on `/my/payment/bank-add`
 * adds a UK account (an IBAN test vector and its bank's BIC) after a mistyped IBAN is refused on
 * its field, through the security check; sees it in the list with the IBAN masked; and removes it
 * (confirm, security check). en-US at 1280 px, zh-HK at 390 px.
 */
const CUSTODY_SECRET = 'e2e-bank-custody-secret-0123456789abcdef';
/** The UK banks' published IBAN example and the BIC of its bank's country (GB). */
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const BIC = 'NWBKGB2L';

/** Each test on a server of its own with a compliance operator (added before start, as in kyc.spec.ts). */
const test = ownServerTest('bank', CUSTODY_SECRET, addComplianceOperator);

const CASES = [
  { locale: 'en-US', ibanError: 'Enter a valid IBAN (check the digits)' },
  { locale: 'zh-HK', ibanError: '請輸入有效的 IBAN（請核對號碼）' },
] as const;

for (const { locale, ibanError } of CASES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`a level-2 user adds a UK bank account with its IBAN, sees it masked, and removes it (${locale})`, async ({
      page,
      ownServer,
      prepared: opsToken,
    }, testInfo) => {
      test.setTimeout(300_000);
      const email = `bank-${locale.toLowerCase()}-${Date.now()}@meridian.test`;
      const userId = await registerAndLogIn(page, email, locale);

      // Below level 2: the verification prompt, no list.
      await page.goto('/my/payment');
      await expect(page).toHaveURL(/\/my\/payment\/bank$/);
      // Under load the first page of a new server can take a while: its chunks, then the call.
      await expect(page.getByTestId('kyc-gate')).toBeVisible({ timeout: 45_000 });
      await snap(page, testInfo, `${locale}-gate`, 'bank-');

      await reachLevelTwo(page.request, ownServer, opsToken!, userId);
      await page.reload();
      await expect(page.getByTestId('payment-bank')).toContainText(
        locale === 'en-US' ? 'No bank account yet' : '尚未綁定銀行帳戶',
        { timeout: 45_000 },
      );
      await snap(page, testInfo, `${locale}-empty`, 'bank-');

      // Add: the country decides the IBAN field; a mistyped IBAN is refused on its field.
      await page.getByTestId('bank-account-add').click();
      await expect(page).toHaveURL(/\/my\/payment\/bank-add$/);
      const countries = (await (await page.request.get('/api/user/country/list')).json()).content as {
        code: string;
        nameEn: string;
        nameZh: string;
      }[];
      const gb = countries.find((country) => country.code === 'GB')!;
      const title = `${locale === 'zh-HK' ? gb.nameZh : gb.nameEn} (GB)`;
      await pickOption(page, page.getByTestId('bank-country'), title, { search: 'GB' });
      await expect(page.getByTestId('bank-holder')).toHaveValue('Tai Man Chan');
      await page.getByTestId('bank-name').fill('NatWest');
      await page.getByTestId('bank-swift').fill(BIC);
      await page.getByTestId('bank-iban').fill('GB83 WEST 1234 5698 7654 32');
      await page.getByTestId('add-bank-submit').click();
      await expect(page.getByText(ibanError)).toBeVisible();
      await expect(page.getByTestId('security-check-form')).toBeHidden();
      await snap(page, testInfo, `${locale}-add-iban-refused`, 'bank-');

      await page.getByTestId('bank-iban').fill(IBAN);
      await expect(page.getByText(ibanError)).toBeHidden();
      await page.getByTestId('add-bank-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, email, 'BANK_ACCOUNT_ADD'));
      await page.getByTestId('security-check-submit').click();

      // The list: the account with its IBAN masked.
      await expect(page).toHaveURL(/\/my\/payment\/bank$/);
      const item = page.getByTestId('bank-account');
      await expect(item).toHaveCount(1);
      await expect(item.getByTestId('bank-account-number')).toHaveText('GB82 •••• 5432');
      await expect(item).toContainText('NWBKGB2L');
      await expect(item).toContainText('NatWest');
      await expect(page.getByTestId('bank-account-count')).toContainText('1');
      await snap(page, testInfo, `${locale}-listed`, 'bank-');

      // Remove: confirm, then the security check.
      await item.getByTestId('bank-account-delete').click();
      await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, email, 'BANK_ACCOUNT_DELETE'));
      await page.getByTestId('security-check-submit').click();
      await expect(page.getByTestId('bank-account')).toHaveCount(0);
      await expect(page.getByTestId('payment-bank')).toContainText(
        locale === 'en-US' ? 'No bank account yet' : '尚未綁定銀行帳戶',
      );
      const listed = await page.request.get('/api/fund/investor/bankAccount/select');
      expect((await listed.json()).content).toEqual([]);
    });
  });
}
