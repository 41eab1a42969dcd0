import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { readCode, registerAndLogIn, signedCustodyPost, snap } from './helpers.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';
import { addComplianceOperator, reachLevelTwo } from './investor.ts';

/**
 * The BTC trust end to end on the production build: a new user reaches level 2 through
 * the API (basic KYC with files, the investor profile, AML answers, a tax form; both reviews
 * approved with `npm run ops -- kyc approve`), is credited 0.5 BTC through the custody webhook,
 * then on `/product/trust` reads the 2 % fee, creates a trust with two beneficiaries (the live sum
 * of shares reaching 100 %), funds it with 0.12345678 BTC — the modal shows the fee 0.00246914 BTC
 * and the net 0.12098764 BTC before anything is confirmed — passes the security check, and sees the
 * holding, the fee paid and the history. en-US at 1280 px, zh-HK at 390 px.
 */
const TRUST_CUSTODY_SECRET = 'e2e-trust-custody-secret-0123456789abcdef';

/** Each test on its own server with a compliance operator (added before start); `prepared` is its token. */
const test = ownServerTest('trust', TRUST_CUSTODY_SECRET, addComplianceOperator);

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
      await expect(page.getByTestId('trust-detail-holding')).toHaveText('0.00000000 BTC');

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
