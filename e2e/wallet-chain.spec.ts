import { expect, type Page, type TestInfo } from '@playwright/test';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import {
  type AnvilNode,
  anvilClients,
  deployTestToken,
  sendTestEther,
  startAnvil,
} from '../apps/server/src/modules/chain/chain.anvil.ts';
import { addFirstAdmin, firstSignIn, openPage, ROOT_ADMIN_EMAIL, withPagesClosed } from './back-office-session.ts';
import { DEMO, logInThroughApi, MUTATION, postApi, readCode, sidewaysOverflowPx, snap } from './helpers.ts';
import { ownServerTest } from './own-server.ts';

/**
 * A deposit found by the chain watcher, end to end: a server of its own (the production build)
 * follows an Anvil node this file starts on a free port (EVM_RPC_URL, 3 confirmations, polled every
 * 500 ms); ETH sent to the demo account's deposit address shows on the deposit page as
 * "Pending · 1 of 3 confirmations", then 2 of 3 as a block is mined, then completed with the balance
 * credited — live, without a reload — and the deposit history says the same. Then the back office's
 * `/admin/chain` (a server with a first admin): the demo account's ETH withdrawal, processed by the
 * admin, is sent by the hot wallet and shown with its nonce and hash. Screenshots at 1280 and 390 px
 * in both languages. Desktop project only (the narrow screenshots resize its page).
 */
const CONFIRMATIONS = 3;
/** The chain settings of this file's servers; EVM_RPC_URL is filled in once Anvil runs (beforeAll). */
const chainEnv: NodeJS.ProcessEnv = {
  EVM_CONFIRMATIONS: `ETH=${CONFIRMATIONS},USDT=${CONFIRMATIONS},USDC=${CONFIRMATIONS}`,
  EVM_POLL_INTERVAL_MS: '500',
  JOBS_ENABLED: 'true',
};
const test = ownServerTest('wallet-chain', process.env.E2E_CUSTODY_SECRET ?? '', undefined, chainEnv);
/** A server of its own with a first admin (`prepared`: its temporary password), following the same node. */
const officeTest = withPagesClosed(
  ownServerTest('wallet-chain-office', process.env.E2E_CUSTODY_SECRET ?? '', addFirstAdmin, chainEnv),
);
test.describe.configure({ mode: 'serial' });

let anvil: AnvilNode | undefined;
test.beforeAll(async ({ browserName: _browser }, testInfo) => {
  if (testInfo.project.name !== 'desktop') return;
  anvil = await startAnvil();
  chainEnv.EVM_RPC_URL = anvil.rpcUrl;
  // The watched token contracts must exist on the node (the default ones are mainnet's): the watcher
  // reads each token's decimals before it reads a block, and fails the poll rather than skip a coin.
  const usdt = await deployTestToken(anvil.rpcUrl, 'USDT', 6);
  const usdc = await deployTestToken(anvil.rpcUrl, 'USDC', 6);
  chainEnv.EVM_TOKENS = `USDT=${usdt},USDC=${usdc}`;
});
test.afterAll(async () => {
  await anvil?.stop();
});

const TEXTS = {
  'en-US': { pending: (k: number) => `Pending · ${k} of 3 confirmations`, done: 'Completed' },
  'zh-HK': { pending: (k: number) => `待確認 · ${k}/3 個確認`, done: '已完成' },
} as const;

/** Screenshots of the page as it is at 1280 px, then at 390 px (back to 1280 after). */
async function snapBoth(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`shows a chain deposit pending k of 3, then credited (${locale})`, async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'one Anvil per file, in the desktop project');
    const texts = TEXTS[locale];
    const node = anvil!;
    await logInThroughApi(page, DEMO, locale);
    await page.goto('/my/account/main');
    const balance = page.getByTestId('available-ETH');
    const before = (await balance.textContent())!.trim();
    await page.goto('/account/wallet/deposit/ETH');
    const address = (await page.getByTestId('deposit-address').textContent())!.trim() as Address;
    await sendTestEther(node.rpcUrl, address, '0.5');
    const latest = page.getByTestId('recent-deposit').first().getByTestId('status-tag');
    await expect(latest).toHaveText(texts.pending(1));
    await snapBoth(page, testInfo, `chain-deposit-pending-${locale}`);
    await anvilClients(node.rpcUrl).test.mine({ blocks: 1 });
    await expect(latest).toHaveText(texts.pending(2));
    await page.goto('/my/order/wallet/deposit');
    await expect(page.getByTestId('record-table').getByTestId('status-tag').first()).toHaveText(texts.pending(2));
    await snapBoth(page, testInfo, `chain-deposit-history-${locale}`);
    await page.goto('/account/wallet/deposit/ETH');
    await anvilClients(node.rpcUrl).test.mine({ blocks: 1 });
    await expect(latest).toHaveText(texts.done);
    await snapBoth(page, testInfo, `chain-deposit-credited-${locale}`);
    await page.goto('/my/account/main');
    await expect(balance).not.toHaveText(before);
    const toNumber = (text: string) => Number(text.replace(/,/g, ''));
    expect(toNumber((await balance.textContent())!) - toNumber(before)).toBeCloseTo(0.5, 8);
  });
}

const OFFICE_TEXTS = {
  'en-US': { nonce: 'Nonce 0', confirmed: 'Confirmed' },
  'zh-HK': { nonce: '交易序號 0', confirmed: '已確認' },
} as const;

for (const locale of ['en-US', 'zh-HK'] as const) {
  officeTest(
    `the back office shows the hot wallet and a sent withdrawal's nonce and hash (${locale})`,
    async ({ browser, ownServer, prepared }, testInfo) => {
      officeTest.skip(testInfo.project.name !== 'desktop', 'one Anvil per file, in the desktop project');
      officeTest.setTimeout(240_000);
      const node = anvil!;
      const admin = await openPage(browser, ownServer, locale);
      await firstSignIn(admin, locale, ROOT_ADMIN_EMAIL, String(prepared));
      // The hot wallet is made at the sender's first pass (JOBS_ENABLED): fund it then.
      let hotWallet: Address | null = null;
      await expect
        .poll(
          async () => {
            const answer = await (await admin.request.get('/api/admin/chain/hot-wallet')).json();
            hotWallet = answer.content?.address ?? null;
            return hotWallet;
          },
          { timeout: 60_000 },
        )
        .toBeTruthy();
      await sendTestEther(node.rpcUrl, hotWallet!, '10');
      // The demo account withdraws 0.1 ETH to an outside address; the admin processes it.
      const user = await openPage(browser, ownServer, locale);
      await logInThroughApi(user, DEMO, locale);
      expect((await postApi(user.request, 'user/captcha', { event: 'WITHDRAW' })).statusCode).toBe(200);
      const asked = await (
        await user.request.post('/api/wallet/withdraw', {
          headers: { ...MUTATION, 'api-version': '2.0' },
          data: {
            coin: 'ETH',
            network: 'Ethereum',
            address: privateKeyToAddress(generatePrivateKey()),
            amount: '0.1',
            emailCaptcha: await readCode(user.request, DEMO.email, 'WITHDRAW'),
          },
        })
      ).json();
      expect(asked.statusCode, asked.message).toBe(200);
      const processed = await postApi(admin.request, `admin/withdrawals/${asked.content.id}/process`, {});
      expect(processed.statusCode, processed.message).toBe(200);
      // The sender gives it nonce 0 and sends it; the page shows the nonce and the hash, linked.
      let sent: { txHash: string | null; explorerUrl: string | null } | undefined;
      await expect
        .poll(
          async () => {
            const page = await (await admin.request.get('/api/admin/chain/withdrawals')).json();
            sent = page.content?.list?.[0];
            return sent?.txHash ?? null;
          },
          { timeout: 60_000 },
        )
        .toBeTruthy();
      await admin.goto('/admin/chain');
      const table = admin.getByTestId('chain-withdrawals');
      await expect(table.getByTestId('chain-withdrawal-nonce').first()).toHaveText(OFFICE_TEXTS[locale].nonce, {
        timeout: 30_000,
      });
      const hash = sent!.txHash!;
      const link = table.getByTestId('chain-withdrawal-hash').first().getByRole('link');
      await expect(link).toHaveText(`${hash.slice(0, 8)}…${hash.slice(-4)}`);
      await expect(link).toHaveAttribute('href', sent!.explorerUrl!);
      await expect(admin.getByTestId('chain-hot-wallet')).toContainText(hotWallet!);
      // Mined at once (Anvil automines): confirmed at 3 once two more blocks come.
      await anvilClients(node.rpcUrl).test.mine({ blocks: 2 });
      await expect(table.getByText(OFFICE_TEXTS[locale].confirmed).first()).toBeVisible({ timeout: 30_000 });
      await snap(admin, testInfo, `chain-back-office-${locale}-1280`);
      // 390 px: the tables stack (docs/decisions/0012), the page never scrolls sideways.
      await admin.setViewportSize({ width: 390, height: 844 });
      const list = admin.getByTestId('chain-withdrawals-list');
      await expect(list.getByTestId('chain-withdrawal-nonce').first()).toHaveText(OFFICE_TEXTS[locale].nonce);
      await expect(list.getByTestId('chain-withdrawal-hash').first()).toBeVisible();
      expect(await sidewaysOverflowPx(admin)).toBeLessThanOrEqual(0);
      await snap(admin, testInfo, `chain-back-office-${locale}-390`);
    },
  );
}
