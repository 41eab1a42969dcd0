import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { type APIRequestContext, expect } from '@playwright/test';
import { MUTATION, postApi as post, readCode, registerAndLogIn, ROOT, signedCustodyPost, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';

/**
 * The BTC trust end to end (issue 17) on the production build: a new user reaches level 2 through
 * the API (basic KYC with files, the investor profile, AML answers, a tax form; both reviews
 * approved with `npm run ops -- kyc approve`), is credited 0.5 BTC through the custody webhook,
 * then on `/product/trust` reads the 2 % fee, creates a trust with two beneficiaries (the live sum
 * of shares reaching 100 %), funds it with 0.12345678 BTC — the modal shows the fee 0.00246914 BTC
 * and the net 0.12098764 BTC before anything is confirmed — passes the security check, and sees the
 * holding, the fee paid and the history. en-US at 1280 px, zh-HK at 390 px.
 */
const TRUST_CUSTODY_SECRET = 'e2e-trust-custody-secret-0123456789abcdef';
/** A 1×1 PNG and a minimal one-page PDF, as the KYC spec uploads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Each test on its own server with a compliance operator (added before start); `prepared` is its token. */
const test = ownServerTest('trust', TRUST_CUSTODY_SECRET, async (dataDir) => {
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

/** Level 2 through the API: basic KYC (draft, files, commit, approval), investor profile (approval), AML, tax form. */
async function reachLevelTwo(request: APIRequestContext, baseUrl: string, opsToken: string, userId: string) {
  const ok = async (path: string, body: object = {}) => {
    const answer = await post(request, path, body);
    expect(answer.statusCode, `${path}: ${answer.message}`).toBe(200);
  };
  const proofDate = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  await ok('user/info', {
    firstName: 'Tai Man',
    lastName: 'Chan',
    nameChinese: '陳大文',
    dateOfBirth: '1990-05-01',
    nationality: 'HK',
    residence: 'HK',
    idType: 'hkid',
    idNumber: 'A123456(3)',
    address: 'Flat 1, 2 Queen’s Road Central, Hong Kong',
    proofOfAddressDate: proofDate,
  });
  const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
  const uploaded = await request.post('/api/user/identity/document', {
    headers: { 'x-meridian-client': MUTATION['x-meridian-client'] },
    multipart: {
      idFront: file('front.png', 'image/png', PNG),
      idBack: file('back.png', 'image/png', PNG),
      selfie: file('selfie.png', 'image/png', PNG),
      proofOfAddress: file('bill.pdf', 'application/pdf', PDF),
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

/** 0.5 BTC to `email` as custody reports a confirmed deposit on the Bitcoin network. */
async function depositBtc(request: APIRequestContext, email: string): Promise<void> {
  const lookup = await signedCustodyPost(request, TRUST_CUSTODY_SECRET, '/api/custody/address-lookup', {
    email,
    coin: 'BTC',
    network: 'Bitcoin',
  });
  expect(lookup.statusCode).toBe(200);
  const deposit = await signedCustodyPost(request, TRUST_CUSTODY_SECRET, '/api/custody/webhook', {
    deliveryId: randomUUID(),
    sentAt: new Date().toISOString(),
    event: {
      type: 'deposit',
      network: 'Bitcoin',
      coin: 'BTC',
      address: lookup.content.address,
      txHash: `e2e-${randomUUID()}`,
      outputIndex: 0,
      amount: '0.5',
      confirmations: 100,
    },
  });
  expect(deposit.statusCode).toBe(200);
}

const TEXT: Record<Locale, { fee: string; sum: string; entrusted: string; history: string }> = {
  'en-US': {
    fee: 'One-time entrustment fee: 2%',
    sum: 'Total shares: 100%',
    entrusted: 'Entrusted',
    history: 'History',
  },
  'zh-HK': { fee: '一次性委託費：2%', sum: '比例總和：100%', entrusted: '委託', history: '記錄' },
};

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`BTC trust (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`a level-2 user with BTC creates a trust, funds it and sees the 2 % fee and the net holding (${locale})`, async ({
      page,
      ownServer,
      prepared: opsToken,
    }, testInfo) => {
      test.setTimeout(180_000);
      const email = `trust-${locale.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
      const userId = await registerAndLogIn(page, email, locale);
      const before = await page.request.get('/api/trust/list');
      expect((await before.json()).statusCode).toBe(143);
      await reachLevelTwo(page.request, ownServer, opsToken!, userId);
      await depositBtc(page.request, email);

      await page.goto('/product/trust');
      await expect(page.getByTestId('trust-fee-explained')).toContainText(TEXT[locale].fee, { timeout: 30_000 });
      await expect(page.getByTestId('trust-list')).toBeVisible();
      await snap(page, testInfo, `${locale}-product`, 'trust-');

      // Create: two beneficiaries; the live sum reaches exactly 100 %.
      const form = page.getByTestId('create-trust-form');
      await form.getByTestId('trust-name').fill('Family reserve');
      await form.getByTestId('trust-term').fill('120');
      await form.getByTestId('trust-inactivity').fill('12');
      const first = form.getByTestId('beneficiary-0');
      await first.getByTestId('beneficiary-name').fill('Mei Chan');
      await first.getByTestId('beneficiary-email').fill('mei@example.com');
      await first.getByTestId('beneficiary-share').fill('60');
      await form.getByTestId('beneficiary-add').click();
      const second = form.getByTestId('beneficiary-1');
      await second.getByTestId('beneficiary-name').fill('Ka Ho Chan');
      await second.getByTestId('beneficiary-email').fill('kaho@example.com');
      await second.getByTestId('beneficiary-share').fill('40');
      await second.getByTestId('beneficiary-share').blur();
      await expect(form.getByTestId('shares-sum')).toHaveText(TEXT[locale].sum);
      await snap(page, testInfo, `${locale}-create`, 'trust-');
      await form.getByTestId('create-trust-submit').click();
      await expect(page).toHaveURL(/\/product\/trust\/\d+$/);
      await expect(page.getByTestId('trust-title')).toContainText('Family reserve');
      await expect(page.getByTestId('trust-detail-holding')).toHaveText('0.00 BTC');

      // Fund 0.12345678 BTC: the fee (2 %, rounded up to the satoshi) and the net before confirming.
      await page.getByTestId('trust-fund').click();
      const modal = page.getByTestId('trust-fund-modal');
      await modal.getByTestId('trust-amount').fill('0.12345678');
      await expect(modal.getByTestId('trust-fee-preview')).toHaveText('0.00246914 BTC');
      await expect(modal.getByTestId('trust-net-preview')).toHaveText('0.12098764 BTC');
      await snap(page, testInfo, `${locale}-fund-modal`, 'trust-');
      await modal.getByTestId('trust-move-continue').click();
      await expect(page.getByTestId('security-check-form')).toBeVisible();
      await page.getByTestId('email-code').fill(await readCode(page.request, email, 'TRUST_FUND'));
      await page.getByTestId('security-check-submit').click();
      await expect(page.getByTestId('security-check-form')).toBeHidden();
      await expect(modal).toBeHidden();

      await expect(page.getByTestId('trust-detail-holding')).toHaveText('0.12098764 BTC');
      await expect(page.getByTestId('trust-detail-fees')).toHaveText('0.00246914 BTC');
      const row = page.getByTestId('trust-history').locator('.trust-history-row').first();
      await expect(row).toContainText(TEXT[locale].entrusted);
      await expect(row).toContainText('0.12345678 BTC');
      await expect(row).toContainText('0.00246914 BTC');
      await expect(row).toContainText('0.12098764 BTC');
      await snap(page, testInfo, `${locale}-detail`, 'trust-');

      // The list shows the net holding; the wallet keeps 0.5 − 0.12345678.
      await page.goto('/product/trust');
      await expect(page.getByTestId('trust-item').getByTestId('trust-holding')).toHaveText('0.12098764 BTC');
      const balance = await (await page.request.get('/api/wallet/balance')).json();
      const btc = balance.content.wallet.accounts[0].assets.find(
        (asset: { coinCode: string; type: string }) => asset.coinCode === 'BTC' && asset.type === 'available',
      );
      expect(btc.amount).toBe('0.37654322');
      await snap(page, testInfo, `${locale}-list`, 'trust-');
    });
  });
}
