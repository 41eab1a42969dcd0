import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { pickOption } from './antd-select.ts';
import {
  DEMO,
  depositUsdtThroughCustody,
  depositWithCli,
  humanCheckToken,
  MUTATION,
  openAsUser,
  readCode,
  ROOT,
  signedCustodyPost,
} from './helpers.ts';

/**
 * The wallet end to end on the production build: a deposit arrives through
 * `npm run deposit` (the signed custody webhook), the balance shows, a withdrawal to another
 * Meridian user's address passes the security check and settles at once (INTERNAL), and the
 * histories list it; on mobile the history filters open in a modal.
 */
const SECRET = process.env.E2E_CUSTODY_SECRET ?? '';
const PASSWORD = 'Sturdy-Passphrase-2026';
async function post(request: APIRequestContext, url: string, data: object) {
  const body = await (await request.post(url, { headers: MUTATION, data })).json();
  expect(body.statusCode, `${url}: ${body.message}`).toBe(200);
  return body.content;
}

/** Register through the API (human check, email code) and return the email. */
async function register(request: APIRequestContext): Promise<string> {
  const email = `wallet-${randomBytes(4).toString('hex')}@example.com`;
  const { ticket } = await post(request, '/api/user/register', { email, token: await humanCheckToken(request) });
  await post(request, '/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
  const emailCaptcha = await readCode(request, email, 'EMAIL_REGISTER');
  await post(request, '/api/user/register', { email, ticket, emailCaptcha, password: PASSWORD, confirm: PASSWORD });
  return email;
}

/** The demo account's available USDT in cents, read through `GET account/balance`. */
async function availableUsdtCents(request: APIRequestContext): Promise<bigint> {
  const body = await (await request.get('/api/account/balance')).json();
  expect(body.statusCode).toBe(200);
  const main = body.content.wallet.accounts.find((a: { accountType: string }) => a.accountType === 'MainAccount');
  const line = main.assets.find(
    (a: { coinCode: string; type: string }) => a.coinCode === 'USDT' && a.type === 'available',
  );
  const [whole = '0', fraction = ''] = String(line?.amount ?? '0').split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** Cents as the main account shows them: `10,250.00`. */
function displayUsdt(cents: bigint): string {
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Log the page's browser context in through the API (its cookies) and tell the web app who it is. */
async function logIn(page: Page, email: string, password: string): Promise<void> {
  const content = await post(page.request, '/api/user/login', {
    email,
    password,
    token: await humanCheckToken(page.request),
  });
  await openAsUser(page, String(content.accountId));
}

test('a deposit through npm run deposit, the balance, an internal withdrawal through the security check, the histories', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the demo account is shared: one viewport moves its money');
  test.setTimeout(120_000);
  await logIn(page, DEMO.email, DEMO.password);
  // The demo account lives on the shared server: the seed's 10,000 USDT plus
  // whatever an earlier attempt of this test left. Amounts are checked against what it holds now.
  const startCents = await availableUsdtCents(page.request);
  await depositWithCli(baseURL!, SECRET, DEMO.email, '250');
  const recipient = await register(request);
  const lookup = await signedCustodyPost(request, SECRET, '/api/custody/address-lookup', {
    email: recipient,
    coin: 'USDT',
    network: 'TRC20',
  });
  expect(lookup.statusCode).toBe(200);

  await page.goto('/my/account/main');
  await expect(page.getByTestId('available-USDT')).toHaveText(displayUsdt(startCents + 25_000n));

  await page.goto('/account/wallet/withdraw/USDT');
  await pickOption(page, page.getByTestId('network-select'), 'TRC20');
  await page.getByTestId('withdraw-address').fill(lookup.content.address);
  await page.getByTestId('withdraw-amount').fill('40');
  await expect(page.getByTestId('withdraw-fee')).toHaveText('1.00 USDT');
  await page.getByTestId('withdraw-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeVisible();
  await page.getByTestId('email-code').fill(await readCode(request, DEMO.email, 'WITHDRAW'));
  await page.getByTestId('security-check-submit').click();
  await expect(page.getByTestId('security-check-form')).toBeHidden();
  // The result card: internal, settled at once, no fee.
  const result = page.getByTestId('withdraw-result');
  await expect(result.getByTestId('withdraw-result-amount')).toHaveText('40.00 USDT');
  await expect(result.getByTestId('withdraw-result-fee')).toHaveText('0.00 USDT');
  await expect(result.getByTestId('status-tag')).toHaveText('Successful');

  await page.goto('/my/account/main');
  await expect(page.getByTestId('available-USDT')).toHaveText(displayUsdt(startCents + 21_000n));
  await page.goto('/my/order/wallet/withdraw');
  const table = page.getByTestId('record-table');
  await expect(table.getByTestId('record-amount').first()).toHaveText('40.00');
  await expect(table.getByTestId('status-tag').first()).toHaveText('Successful');
  await page.goto('/my/order/wallet/deposit');
  await expect(page.getByTestId('record-table').getByTestId('record-amount').first()).toHaveText('250.00');
});

test('the deposit history on mobile: list mode and the filter modal with reset and submit', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'the filter modal is the mobile layout');
  test.setTimeout(90_000);
  const email = await register(request);
  await depositUsdtThroughCustody(request, SECRET, email, '12.5');
  await logIn(page, email, PASSWORD);
  await page.goto('/my/order/wallet/deposit');
  await expect(page.getByTestId('record-list').getByTestId('record-amount').first()).toHaveText('12.50 USDT');
  await page.getByTestId('filter-open').click();
  await expect(page.getByTestId('filter-reset')).toBeVisible();
  await page.getByTestId('filter-submit').click();
  await expect(page.getByTestId('record-list').getByTestId('record-amount')).toHaveCount(1);
  // The main account's table scrolls inside its card; the page itself never scrolls sideways.
  await page.goto('/my/account/main');
  await expect(page.getByTestId('available-USDT')).toHaveText('12.50');
  expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
});

test('a new user holds nothing: the main account shows how to deposit, and the withdraw form says so', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  const email = await register(request);
  await logIn(page, email, PASSWORD);
  await page.goto('/my/account/main');
  const empty = page.getByTestId('wallet-empty');
  await expect(empty).toBeVisible({ timeout: 20_000 }); // the account pages' chunk, on a busy machine
  await expect(page.getByTestId('available-USDT')).toHaveText('0.00');
  await page.screenshot({
    path: join(ROOT, 'e2e', 'artifacts', 'screenshots', `${testInfo.project.name}-wallet-empty.png`),
    fullPage: true,
    animations: 'disabled',
  });
  await empty.getByTestId('wallet-empty-deposit').click();
  await expect(page).toHaveURL(/\/account\/wallet\/deposit\/USDE$/);
  await expect(page.getByTestId('deposit-panel')).toBeVisible();
  await page.goto('/account/wallet/withdraw/USDT');
  await expect(page.getByTestId('withdraw-empty')).toBeVisible({ timeout: 20_000 }); // the wallet pages' chunk
});
