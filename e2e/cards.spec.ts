import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { depositWithCli, readCode, registerAndLogIn, ROOT, snap } from './helpers.ts';
import { addComplianceOperator, reachLevelOne } from './investor.ts';
import { type Locale, runOnLocaleProject } from './locale-runs.ts';
import { ownServerTest } from './own-server.ts';
import { CODE_RESEND_WAIT_MS } from './server-template.ts';

/**
 * Cards end to end on the production build with the built-in sandbox processor: a new
 * user reaches level 1 (basic KYC approved with `npm run ops -- kyc approve`), is credited 150 USDT
 * with `npm run deposit`, applies for a virtual EUR card on /my/account/fiscard (security check),
 * tops it up with 100 USDT at a locked rate (the quote's 30 s countdown, then the security check),
 * shows the full number and CVV after the security check and hides them again,
 * pays 12.50 EUR through the merchant CLI (`npm run card -- authorize … --3ds`) and approves the
 * 3-D Secure confirmation in the browser, locks the card and sees the next payment declined with
 * its reason; then a physical card application shows and charges the 10 USDT fee. en-US at
 * 1280 px, zh-HK at 390 px.
 */
const CARDS_CUSTODY_SECRET = 'e2e-cards-custody-secret-0123456789abcdef';

/**
 * Each test on its own server: a compliance operator (its token) and the data directory (the card
 * CLI's secret). Within the resend wait of the last code of an event the server sends no new one
 * (and the used one does not work again): the second application waits, as a person would wait for
 * "resend" — a few seconds on the e2e servers (server-template.ts `E2E_CODE_RESEND_AFTER_SECONDS`).
 */
const test = ownServerTest('cards', CARDS_CUSTODY_SECRET, async (dataDir) => ({
  opsToken: await addComplianceOperator(dataDir),
  dataDir,
}));

/** `npm run card -- authorize …` as a merchant, without waiting for a confirmation; its JSON answer. */
async function authorizeWithCli(
  baseUrl: string,
  dataDir: string,
  cardId: number,
  extra: string[] = [],
): Promise<{ decision: string; declineReason: string | null }> {
  const args = ['run', '--silent', 'card', '--', 'authorize', '--card', String(cardId), '--amount', '12.50'];
  args.push('--currency', 'EUR', '--merchant', 'Example Books', '--mcc', '5734', '--no-wait', '--url', baseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)('npm', [...args, ...extra], { cwd: ROOT, env });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
}

/** Enter the emailed code of `event` in the open security check and send it. */
async function passSecurityCheck(page: Page, email: string, event: string): Promise<void> {
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  await page.getByTestId('email-code').fill(await readCode(page.request, email, event));
  await page.getByTestId('security-check-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeHidden();
}

/** The wallet's available USDT, from the API. */
async function walletUsdt(request: APIRequestContext): Promise<string> {
  const balance = await (await request.get('/api/wallet/balance')).json();
  const usdt = balance.content.wallet.accounts[0].assets.find(
    (asset: { coinCode: string; type: string }) => asset.coinCode === 'USDT' && asset.type === 'available',
  );
  return usdt.amount;
}

const TEXT: Record<Locale, { physical: string; locked: string; authorised: string; declined: string }> = {
  'en-US': { physical: 'Physical card', locked: 'The card is locked', authorised: 'Authorised', declined: 'Declined' },
  'zh-HK': { physical: '實體卡', locked: '卡片已鎖定', authorised: '已授權', declined: '已拒絕' },
};

for (const locale of ['en-US', 'zh-HK'] as const) {
  test.describe(`cards (${locale})`, () => {
    runOnLocaleProject(test, locale);
    test(`a level-1 user opens a virtual EUR card, tops it up, confirms a 3-D Secure payment, locks the card and sees a decline; a physical card costs 10 USDT (${locale})`, async ({
      page,
      ownServer,
      prepared,
    }, testInfo) => {
      test.setTimeout(240_000);
      const { opsToken, dataDir } = prepared!;
      const email = `cards-${locale.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
      const userId = await registerAndLogIn(page, email, locale);

      // Below level 1 the page asks for verification and offers no application.
      await page.goto('/my/account/fiscard');
      await expect(page.getByTestId('card-kyc-required')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('card-apply')).toHaveCount(0);

      await reachLevelOne(page.request, ownServer, opsToken, userId);
      await depositWithCli(ownServer, CARDS_CUSTODY_SECRET, email, '150');

      // Apply for a virtual EUR card.
      await page.goto('/my/account/fiscard');
      await expect(page.getByTestId('card-empty')).toBeVisible();
      await page.getByTestId('card-apply').click();
      const applyForm = page.getByTestId('card-apply-form');
      await applyForm.getByTestId('card-apply-currency').click();
      await page.locator('.ant-select-item-option[title="EUR"]').click();
      await expect(applyForm.getByTestId('card-apply-name')).toHaveValue('Tai Man Chan');
      if (await applyForm.getByTestId('card-apply-fee-accept').isVisible())
        await applyForm.getByTestId('card-apply-fee-accept').check();
      await snap(page, testInfo, `${locale}-apply-virtual`, 'cards-');
      const firstCodeAtMs = Date.now();
      await applyForm.getByTestId('card-apply-submit').click();
      await passSecurityCheck(page, email, 'CARD_APPLY');
      await expect(page.getByTestId('card-apply-result')).toBeVisible();
      await page.getByTestId('card-apply-done').click();
      const face = page.getByTestId('card-face').first();
      await expect(face.getByTestId('card-masked-number')).toHaveText(/^\d{4} •••• •••• \d{4}$/);
      await expect(face.getByTestId('card-face-balance')).toHaveText('€0.00');
      const cards = (await (await page.request.get('/api/card/list')).json()).content as { id: number }[];
      const cardId = cards[0]!.id;

      // Top up 100 USDT: the quote with its countdown, then the security check.
      await page.getByTestId('card-topup').click();
      const topUp = page.getByTestId('card-topup-form');
      await topUp.getByTestId('card-topup-amount').fill('100');
      await topUp.getByTestId('card-topup-quote-button').click();
      await expect(topUp.getByTestId('card-topup-countdown')).toBeVisible();
      const credit = (await topUp.getByTestId('card-topup-credit').textContent())!;
      expect(credit).toMatch(/^€\d[\d,]*\.\d{2}$/);
      await snap(page, testInfo, `${locale}-topup-quote`, 'cards-');
      await topUp.getByTestId('card-topup-confirm').click();
      await passSecurityCheck(page, email, 'CARD_TOPUP');
      await expect(page.getByTestId('card-topup-result')).toBeVisible();
      await page.getByTestId('card-topup-done').click();
      await expect(page.getByTestId('card-balance')).toHaveText(credit);
      expect(await walletUsdt(page.request)).toMatch(/^50(\.0+)?$/);

      // The full number and CVV after the security check, hidden again (at 60 s, or at once on request).
      const masked = (await face.getByTestId('card-masked-number').textContent())!;
      await page.getByTestId('card-reveal').click();
      await passSecurityCheck(page, email, 'CARD_REVEAL');
      const revealed = (await face.getByTestId('card-revealed-number').textContent())!;
      expect(revealed.replace(/ /g, '')).toMatch(/^\d{16}$/);
      expect(revealed.slice(0, 4)).toBe(masked.slice(0, 4));
      expect(revealed.slice(-4)).toBe(masked.slice(-4));
      await expect(face.getByTestId('card-revealed-cvv')).toHaveText(/^\d{3}$/);
      await expect(page.getByTestId('card-reveal-countdown')).toBeVisible();
      await page.getByTestId('card-reveal-hide').click();
      await expect(face.getByTestId('card-masked-number')).toHaveText(masked);

      // An online payment with 3-D Secure waits for the holder: approved in the browser.
      const pending = await authorizeWithCli(ownServer, dataDir, cardId, ['--3ds']);
      expect(pending.decision).toBe('PENDING_CONFIRMATION');
      const confirmation = page.getByTestId('card-confirmation');
      await expect(confirmation.getByTestId('card-confirmation-text')).toContainText('€12.50');
      await expect(confirmation.getByTestId('card-confirmation-text')).toContainText('Example Books');
      await snap(page, testInfo, `${locale}-3ds`, 'cards-');
      await confirmation.getByTestId('card-confirmation-approve').click();
      await expect(confirmation).toHaveCount(0);
      const firstRow = page.getByTestId('card-tx-row').first();
      await expect(firstRow).toContainText('Example Books');
      await expect(firstRow.getByTestId('card-tx-status')).toHaveText(TEXT[locale].authorised);
      await expect(page.getByTestId('card-held')).toHaveText('€12.50');

      // Locked: the next payment is declined with its reason.
      await page.getByTestId('card-lock').click();
      await expect(page.getByTestId('card-lock')).toHaveAttribute('aria-checked', 'true');
      const declined = await authorizeWithCli(ownServer, dataDir, cardId);
      expect(declined).toMatchObject({ decision: 'DECLINED', declineReason: 'CARD_LOCKED' });
      await expect(page.getByTestId('card-tx-row').first().getByTestId('card-tx-status')).toHaveText(
        TEXT[locale].declined,
      );
      await expect(page.getByTestId('card-tx-row').first().getByTestId('card-tx-reason')).toHaveText(
        TEXT[locale].locked,
      );
      // A declined payment moved no money: its amount carries no minus sign.
      await expect(page.getByTestId('card-tx-row').first().getByTestId('card-tx-amount')).toHaveText('€12.50');
      await snap(page, testInfo, `${locale}-declined`, 'cards-');

      // A physical card: the 10 USDT production fee is shown, accepted and charged.
      await page.getByTestId('card-apply').click();
      await page.getByTestId('card-apply-kind').getByText(TEXT[locale].physical).click();
      await expect(page.getByTestId('card-apply-fee')).toContainText('10.00 USDT');
      await page.getByTestId('card-address-recipient').fill('Tai Man Chan');
      await page.getByTestId('card-address-line1').fill('Flat 1, 2 Queen’s Road Central');
      await page.getByTestId('card-address-city').fill('Hong Kong');
      await page.getByTestId('card-address-phone').fill('+852 2123 4567');
      await page.getByTestId('card-apply-fee-accept').check();
      await snap(page, testInfo, `${locale}-apply-physical`, 'cards-');
      await page.waitForTimeout(Math.max(0, firstCodeAtMs + CODE_RESEND_WAIT_MS - Date.now()));
      await page.getByTestId('card-apply-submit').click();
      await passSecurityCheck(page, email, 'CARD_APPLY');
      await expect(page.getByTestId('card-apply-result')).toBeVisible();
      await page.getByTestId('card-apply-done').click();
      await expect(page.getByTestId('card-face')).toHaveCount(2);
      expect(await walletUsdt(page.request)).toMatch(/^40(\.0+)?$/);
    });
  });
}
