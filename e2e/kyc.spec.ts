import { expect } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { ownServerTest } from './own-server.ts';
import { addComplianceOperator, approveWithCli, PDF, PNG } from './investor.ts';
import { depositUsdtThroughCustody, postApi as post, readCode, registerAndLogIn, snap } from './helpers.ts';
import { runOnLocaleProject } from './locale-runs.ts';

/**
 * Identity verification end to end on the production build: a new user registered
 * through the API is refused a withdrawal (143 KYC_REQUIRED), goes through basic KYC on
 * `/identity/basic` with files made here (a PNG and a PDF; a text file is refused on its upload),
 * is approved by a compliance operator with `npm run ops -- kyc approve`, and withdraws (a deposit
 * through the custody webhook, then 20 USDT on TRC20 through the security check). The user then
 * completes the investor profile (individual), the AML questionnaire and the tax form (W-8BEN) on
 * their pages from the overview, `returnTo` kept throughout; the profile is approved with `--step
 * investor`, and `/identity` shows level 2. Last, a move abroad reported on `/identity/residence`
 * and approved asks for a new tax form. en-US at 1280 px, zh-HK at 390 px.
 *
 * The operator is created with `npm run ops -- operators add`, which opens the database directly:
 * each test runs its own server on a copy of the run's template, the operator added before start.
 */
const OUTER_ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const KYC_CUSTODY_SECRET = 'e2e-kyc-custody-secret-0123456789abcdef';

/**
 * Each test on a server of its own (a copy of the run's template) with a compliance operator, added
 * with `npm run ops -- operators add` on the copy before the server starts (the command opens the
 * database itself); `prepared` is the operator's bearer token.
 */
const test = ownServerTest('kyc', KYC_CUSTODY_SECRET, addComplianceOperator);

const CASES = [
  {
    locale: 'en-US',
    country: 'Hong Kong',
    passport: 'Passport',
    employed: 'Employed',
    technology: 'Technology',
    investorBand: '100,000 to 1 million',
    newCountry: 'Singapore',
  },
  {
    locale: 'zh-HK',
    country: '中國香港特別行政區',
    passport: '護照',
    employed: '受僱',
    technology: '科技',
    investorBand: '100,000 至 100 萬',
    newCountry: '新加坡',
  },
] as const;

for (const { locale, country, passport, employed, technology, investorBand, newCountry } of CASES) {
  test.describe(() => {
    runOnLocaleProject(test, locale);
    test(`basic KYC with uploaded files, approved by an operator, a withdrawal; level 2 through the investor, AML and tax pages; a move abroad asks for a new tax form (${locale})`, async ({
      page,
      ownServer,
      prepared: opsToken,
    }, testInfo) => {
      test.setTimeout(420_000);
      const email = `kyc-${locale.toLowerCase()}-${Date.now()}@meridian.test`;
      await registerAndLogIn(page, email, locale);
      const withdrawCheck = { coin: 'USDT', network: 'TRC20', address: OUTER_ADDRESS, amount: '5' };
      const refused = await post(page.request, 'wallet/withdraw/check', withdrawCheck);
      expect(refused.statusCode).toBe(143);
      expect(refused.content?.route).toBe('/identity/basic');

      // Overview: level 0, coming from the withdraw page.
      await page.goto(`/identity?returnTo=${encodeURIComponent('/account/wallet/withdraw/USDT')}`);
      await expect(page.getByTestId('identity-page')).toHaveAttribute('data-level', '0');
      await expect(page.getByTestId('identity-step-basic')).toHaveAttribute('data-state', 'todo');
      await snap(page, testInfo, `${locale}-overview-0`, 'kyc-');
      await page.getByTestId('identity-step-basic').getByRole('button').click();
      await expect(page).toHaveURL(/\/identity\/basic\?returnTo=/);

      // Personal details.
      await expect(page.getByTestId('kyc-basic-form')).toBeVisible();
      await page.locator('#firstName').fill('Tai Man');
      await page.locator('#lastName').fill('Chan');
      await page.locator('#nameChinese').fill('陳大文');
      await page.locator('#dateOfBirth').fill('1990-05-17');
      await pickOption(page, page.getByTestId('kyc-nationality'), country, { search: country });
      await pickOption(page, page.getByTestId('kyc-residence'), country, { search: country });
      await snap(page, testInfo, `${locale}-basic-personal`, 'kyc-');
      await page.getByTestId('kyc-next').click();
      // ID.
      await pickOption(page, page.getByTestId('kyc-id-type'), passport);
      await page.locator('#idNumber').fill('K1234567');
      await page.getByTestId('kyc-next').click();
      // Address.
      await page.locator('#address').fill('Flat A, 1/F, 1 Queen’s Road Central, Hong Kong');
      await page.locator('#proofOfAddressDate').fill(new Date().toISOString().slice(0, 10));
      await page.getByTestId('kyc-next').click();
      // Documents: a text file is refused on the file; then real files.
      await expect(page.getByTestId('kyc-documents')).toBeVisible();
      const fileInput = (kind: string) => page.getByTestId(`kyc-doc-${kind}`).locator('input[type=file]');
      await fileInput('idFront').setInputFiles({
        name: 'notes.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not an image at all'),
      });
      await expect(page.getByTestId('kyc-doc-error-idFront')).toBeVisible();
      await fileInput('idFront').setInputFiles({ name: 'id-front.png', mimeType: 'image/png', buffer: PNG });
      await fileInput('selfie').setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: PNG });
      await fileInput('proofOfAddress').setInputFiles({ name: 'bill.pdf', mimeType: 'application/pdf', buffer: PDF });
      for (const kind of ['idFront', 'selfie', 'proofOfAddress'])
        await expect(page.getByTestId(`kyc-doc-${kind}`).locator('.ant-upload-list-item-done')).toHaveCount(1, {
          timeout: 30_000,
        });
      await expect(page.getByTestId('kyc-doc-error-idFront')).toBeHidden();
      await snap(page, testInfo, `${locale}-basic-documents`, 'kyc-');
      await page.getByTestId('kyc-next').click();
      // Review and submit.
      await expect(page.getByTestId('kyc-review')).toContainText('K1234567');
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('kyc-under-review')).toBeVisible();
      await snap(page, testInfo, `${locale}-basic-under-review`, 'kyc-');

      // The operator approves with the command.
      const list = (await (
        await fetch(`${ownServer}/api/admin/kyc?status=2`, { headers: { authorization: `Bearer ${opsToken!}` } })
      ).json()) as { content: { list: { userId: string; email: string | null }[] } };
      const userId = list.content.list.find((item) => item.email === email)?.userId;
      expect(userId, JSON.stringify(list)).toBeTruthy();
      await approveWithCli(ownServer, opsToken!, userId!);
      const allowed = await post(page.request, 'wallet/withdraw/check', withdrawCheck);
      expect(allowed.statusCode, allowed.message).not.toBe(143);

      // Verified, the user withdraws: 50 USDT deposited, 20 USDT (the minimum is 10) sent on TRC20 through the security check.
      await depositUsdtThroughCustody(page.request, KYC_CUSTODY_SECRET, email, '50');
      await page.goto('/account/wallet/withdraw/USDT');
      await pickOption(page, page.getByTestId('network-select'), 'TRC20');
      await page.getByTestId('withdraw-address').fill(OUTER_ADDRESS);
      await page.getByTestId('withdraw-amount').fill('20');
      await page.getByTestId('withdraw-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, email, 'WITHDRAW'));
      await page.getByTestId('security-check-submit').click();
      await expect(page.getByTestId('withdraw-result')).toBeVisible();
      await snap(page, testInfo, `${locale}-withdrawn`, 'kyc-');

      await page.goto('/identity');
      await expect(page.getByTestId('identity-page')).toHaveAttribute('data-level', '1');
      await page.goto('/my/profile');
      await expect(page.getByTestId('profile-id-number')).toHaveText('K1****67');

      // Level 2 through the pages, from the overview (returnTo kept): investor profile (individual), AML, tax.
      const returnTo = encodeURIComponent('/account/wallet/withdraw/USDT');
      await page.goto(`/identity?returnTo=${returnTo}`);
      await expect(page.getByTestId('identity-step-investor')).toHaveAttribute('data-state', 'todo');
      await page.getByTestId('identity-step-investor').getByRole('button').click();
      await expect(page).toHaveURL(/\/identity\/investor\?returnTo=/);
      await expect(page.getByTestId('kyc-investor-form')).toBeVisible();
      await page.locator('#type input[value="individual"]').check();
      await page.getByTestId('kyc-next').click();
      await page.locator('#individual_netWorthUsdBand input[value="from100kTo1m"]').check();
      await page.locator('#individual_annualIncomeUsdBand input[value="from50kTo200k"]').check();
      await page.locator('#individual_investmentExperience input[value="oneToFiveYears"]').check();
      await snap(page, testInfo, `${locale}-investor-individual`, 'kyc-');
      await page.getByTestId('kyc-next').click();
      await expect(page.getByTestId('kyc-review')).toContainText(investorBand);
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('kyc-under-review')).toBeVisible();
      await expect(page.getByTestId('kyc-return')).toBeVisible();
      await page.getByTestId('kyc-to-overview').click();
      await expect(page).toHaveURL(/\/identity\?returnTo=/);
      await expect(page.getByTestId('identity-step-investor')).toHaveAttribute('data-state', 'review');

      // AML questionnaire.
      await page.getByTestId('identity-step-aml').getByRole('button').click();
      await expect(page).toHaveURL(/\/identity\/aml\?returnTo=/);
      await expect(page.getByTestId('kyc-aml-form')).toBeVisible();
      await pickOption(page, page.getByTestId('aml-occupation'), employed);
      await pickOption(page, page.getByTestId('aml-industry'), technology);
      await page.locator('#employer').fill('Example Ltd');
      await page.getByTestId('kyc-next').click();
      await page.locator('#sourcesOfFunds input[value="salary"]').check();
      await page.locator('#sourcesOfWealth input[value="employment"]').check();
      await page.locator('#expectedMonthlyVolumeUsdBand input[value="under10k"]').check();
      await page.locator('#purposes input[value="investment"]').check();
      await page.getByTestId('kyc-next').click();
      // Each yes/no question lists "No" first.
      await page.locator('#isPoliticallyExposed input[type=radio]').first().check();
      await page.locator('#hasSanctionsLinks input[type=radio]').first().check();
      await page.getByTestId('kyc-next').click();
      await expect(page.getByTestId('kyc-review')).toContainText('Example Ltd');
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('aml-outcome')).toHaveAttribute('data-status', 'accepted');
      await snap(page, testInfo, `${locale}-aml-outcome`, 'kyc-');
      await page.getByTestId('kyc-to-overview').click();
      await expect(page.getByTestId('identity-step-aml')).toHaveAttribute('data-state', 'done');

      // Tax: not a US person, so the W-8BEN self-certification with one residence and its TIN.
      await page.getByTestId('identity-step-tax').getByRole('button').click();
      await expect(page).toHaveURL(/\/identity\/tax\?returnTo=/);
      await expect(page.getByTestId('kyc-tax-form')).toBeVisible();
      for (const question of ['isUsCitizen', 'isUsResident', 'isUsBorn'])
        await page.locator(`#${question} input[type=radio]`).first().check();
      await expect(page.getByTestId('tax-kind')).toHaveAttribute('data-form', 'W8BEN');
      await page.getByTestId('kyc-next').click();
      await pickOption(page, page.getByTestId('tax-country-0'), country, { search: country });
      await page.locator('#residences_0_tin').fill('A1234563');
      await snap(page, testInfo, `${locale}-tax-w8ben`, 'kyc-');
      await page.getByTestId('kyc-next').click();
      await expect(page.getByTestId('kyc-review')).toContainText('A1234563');
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('tax-on-file')).toHaveAttribute('data-form', 'W8BEN');
      await expect(page.getByTestId('tax-change-rule')).toContainText('30');
      await snap(page, testInfo, `${locale}-tax-on-file`, 'kyc-');

      await approveWithCli(ownServer, opsToken!, userId!, 'investor');
      await page.goto('/identity');
      await expect(page.getByTestId('identity-page')).toHaveAttribute('data-level', '2');
      await expect(page.getByTestId('identity-step-tax')).toHaveAttribute('data-state', 'done');
      await snap(page, testInfo, `${locale}-overview-2`, 'kyc-');

      // A move abroad: the change of residence from the overview, with a new proof of address; once
      // approved the country changed, so a new tax form is asked for, with its due date.
      await page.getByTestId('identity-residence').getByRole('button').click();
      await expect(page).toHaveURL(/\/identity\/residence/);
      await expect(page.getByTestId('kyc-residence-form')).toBeVisible();
      await pickOption(page, page.getByTestId('residence-country'), newCountry, { search: newCountry });
      await page.getByTestId('residence-address').fill('10 Marina Boulevard, Singapore 018983');
      await page.getByTestId('residence-proof-date').fill(new Date().toISOString().slice(0, 10));
      await fileInput('proofOfAddress').setInputFiles({
        name: 'sg-bill.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await expect(page.getByTestId('kyc-doc-proofOfAddress').locator('.ant-upload-list-item-done')).toHaveCount(1, {
        timeout: 30_000,
      });
      await snap(page, testInfo, `${locale}-residence-form`, 'kyc-');
      await page.getByTestId('kyc-next').click();
      await expect(page.getByTestId('kyc-review')).toContainText(newCountry);
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('residence-under-review')).toBeVisible();
      await approveWithCli(ownServer, opsToken!, userId!, 'residence');
      await page.goto('/identity');
      // Level 2 is kept while the 30 days for the new form run.
      await expect(page.getByTestId('identity-page')).toHaveAttribute('data-level', '2');
      await expect(page.getByTestId('identity-step-tax')).toHaveAttribute('data-state', 'todo');
      await expect(page.getByTestId('identity-step-tax').locator('.ant-alert')).toBeVisible();
      await snap(page, testInfo, `${locale}-overview-new-tax-form`, 'kyc-');
    });
  });
}
