import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type APIRequestContext } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import { ownServerTest } from './own-server.ts';
import { MUTATION, postApi as post, readCode, registerAndLogIn, ROOT, snap } from './helpers.ts';
import { runOnLocaleProject } from './locale-runs.ts';

/**
 * Bank accounts end to end (issue 17) on the production build. A new user is refused the page
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
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Each test on a server of its own with a compliance operator (added before start, as in kyc.spec.ts). */
const test = ownServerTest('bank', CUSTODY_SECRET, async (dataDir) => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const added = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'ops', '--', 'operators', 'add', '--email', 'compliance@meridian.test', '--role', 'compliance'],
    { cwd: ROOT, env },
  );
  const opsToken = added.stdout.match(/OPS_TOKEN=(\S+)/)?.[1] ?? '';
  if (!opsToken) throw new Error(`no operator token: ${added.stdout}${added.stderr}`);
  return opsToken;
});

/** `npm run ops -- kyc approve <userId> [--step …]` against this test's server. */
async function approveWithCli(baseUrl: string, opsToken: string, userId: string, step?: string): Promise<void> {
  const args = ['run', '--silent', 'ops', '--', 'kyc', 'approve', userId, '--url', baseUrl];
  await promisify(execFile)('npm', [...args, ...(step ? ['--step', step] : [])], {
    cwd: ROOT,
    env: { ...process.env, OPS_TOKEN: opsToken },
  });
}

/** Take the signed-in user to level 2 through the API: basic KYC (Tai Man Chan), investor profile, AML, tax. */
async function reachLevelTwo(request: APIRequestContext, baseUrl: string, opsToken: string, userId: string) {
  const ok = async (path: string, body: object = {}) => {
    const answer = await post(request, path, body);
    expect(answer.statusCode, `${path}: ${answer.message}`).toBe(200);
  };
  await ok('user/info', {
    firstName: 'Tai Man',
    lastName: 'Chan',
    dateOfBirth: '1990-05-17',
    nationality: 'HK',
    residence: 'HK',
    idType: 'passport',
    idNumber: 'K1234567',
    address: 'Flat A, 1/F, 1 Queen’s Road Central, Hong Kong',
    proofOfAddressDate: new Date().toISOString().slice(0, 10),
  });
  const uploaded = await request.post('/api/user/identity/document', {
    headers: { 'x-meridian-client': MUTATION['x-meridian-client'] },
    multipart: {
      idFront: { name: 'id-front.png', mimeType: 'image/png', buffer: PNG },
      selfie: { name: 'selfie.png', mimeType: 'image/png', buffer: PNG },
      proofOfAddress: { name: 'bill.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  expect((await uploaded.json()).statusCode).toBe(200);
  await ok('user/commit');
  await approveWithCli(baseUrl, opsToken, userId);
  await ok('user/identity/investor', {
    type: 'individual',
    individual: {
      netWorthUsdBand: 'from100kTo1m',
      annualIncomeUsdBand: 'from50kTo200k',
      investmentExperience: 'oneToFiveYears',
    },
  });
  await ok('user/identity/commit');
  await approveWithCli(baseUrl, opsToken, userId, 'investor');
  await ok('investor/aml', {
    occupation: { status: 'employed', industry: 'technology' },
    employer: 'Example Ltd',
    sourcesOfFunds: ['salary'],
    sourcesOfWealth: ['employment'],
    expectedMonthlyVolumeUsdBand: 'under10k',
    purposes: ['investment'],
    isPoliticallyExposed: false,
    sanctionsCountryLinks: [],
  });
  await ok('investor/tax', { form: 'W8BEN', isUsBorn: false, residences: [{ country: 'HK', tin: 'A1234563' }] });
}

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
