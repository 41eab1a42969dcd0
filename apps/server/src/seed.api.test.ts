import { parseAmountMinor } from '@meridian/contracts/money';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  mutationHeaders,
  randomTestIp,
  registerAndLogin,
  solveHumanCheck,
  type TestApp,
} from '../test/helpers.ts';
import { DEMO_USER } from './modules/identity/identity.seed.ts';
import { checkLedgerInvariants } from './modules/ledger/ledger.invariants.ts';
import { liabilitiesAndHoldings, platformBalance } from './modules/ledger/ledger.service.ts';
import { ledgerEntries } from './modules/ledger/ledger.tables.ts';
import { DEMO_FUNDING } from './modules/wallet/wallet.seed.ts';
import { seedDemo } from './seed.ts';

/**
 * The demo seed funds the demo account: through the ledger, from the
 * PLATFORM_DEMO_FUNDING accounts, once however often the seed runs; nobody else gets anything.
 * Custody (the hot wallet) holds what the demo balances owe, so no asset shows a shortfall.
 */
describe('the demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const availableOf = async (cookie: string) => {
    const body = (await t.app.inject({ method: 'GET', url: '/api/wallet/balance', headers: { cookie } })).json();
    expect(body.statusCode).toBe(200);
    const assets: { coinCode: string; type: string; amount: string }[] = body.content.wallet.accounts[0].assets;
    return Object.fromEntries(assets.filter((a) => a.type === 'available').map((a) => [a.coinCode, a.amount]));
  };

  it('credits the demo account once through one balanced ledger entry, however often it runs', async () => {
    await seedDemo(t.database.db);
    await seedDemo(t.database.db);

    const entries = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'DEMO_FUNDING'));
    // The funding of the demo user, and custody's holdings of the same coins.
    expect(entries.map((entry) => entry.reference).sort()).toEqual([
      expect.stringMatching(/^demo-custody:/),
      expect.stringMatching(/^demo-funding:/),
    ]);
    for (const [coin, amount] of Object.entries(DEMO_FUNDING)) {
      const asset = coin as keyof typeof DEMO_FUNDING;
      expect(await platformBalance(t.database.db, 'PLATFORM_DEMO_FUNDING', asset)).toBe(0n);
      expect(await platformBalance(t.database.db, 'PLATFORM_HOT_WALLET', asset)).toBe(-parseAmountMinor(amount, asset));
    }
    // Custody covers every asset the users are owed (the back office's "liabilities against holdings").
    for (const line of await liabilitiesAndHoldings(t.database.db))
      expect(line.holdingsMinor, line.asset).toBeGreaterThanOrEqual(line.liabilitiesMinor);
    const report = await checkLedgerInvariants(t.database.db);
    expect(report.isHeld).toBe(true);

    // The demo user sees the balances, as a newcomer would after `npm start`.
    const remoteAddress = randomTestIp();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders(),
      payload: { ...DEMO_USER, token: await solveHumanCheck(t.app, remoteAddress) },
      remoteAddress,
    });
    expect(login.json().statusCode).toBe(200);
    const cookie = login.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    const available = await availableOf(cookie);
    for (const [coin, amount] of Object.entries(DEMO_FUNDING))
      expect(parseAmountMinor(available[coin]!, coin as keyof typeof DEMO_FUNDING)).toBe(
        parseAmountMinor(amount, coin as keyof typeof DEMO_FUNDING),
      );
  });

  it('gives a new account nothing', async () => {
    const session = await registerAndLogin(t.app);
    const available = await availableOf(session.cookie);
    expect(Object.values(available).filter((amount) => !/^0(\.0+)?$/.test(amount))).toEqual([]);
  });
});
