import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSession } from '../../../test/helpers.ts';
import { eventMessages, messageCount } from '../notices/notices.test-kit.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { balanceOf, createFundsKit, expectFundsConsistent, type FundsKit, minor } from './funds.test-kit.ts';

/**
 * Every fund money event writes exactly one message in its transaction (docs/notices.md "Money
 * events"): read back in en-US and zh-HK with the amount formatted; none for a refused request,
 * none again for a replay under the same Idempotency-Key.
 */
const FIXED = 'FIXED_7D_MESSAGES';
let kit: FundsKit;
let ivy: TestSession;
const db = () => kit.t.database.db;
const messagesOf = (key: string) => eventMessages(kit.t.app, db(), ivy, key);

beforeAll(async () => {
  kit = await createFundsKit('2026-03-02T09:00:00+08:00');
  await kit.t.app.funds.createProduct({
    id: FIXED,
    type: 'FIXED',
    nameEn: 'Fixed 7-day Notes',
    nameZhHk: '7 日定期票據',
    periodDays: 7,
    raiseStartDate: '2026-03-01',
    raiseEndDate: '2026-03-04',
    interestDate: '2026-03-05',
    minMinor: 10_000n,
    maxMinor: 1_000_000n,
    limitMinor: 1_000_000n,
    tiers: [{ upToMinor: null, annualRateBps: 365 }],
  });
  ivy = await kit.investor();
  await kit.fundWallet(ivy.userId, 'USDT', 3_000_000_000n);
});
afterAll(async () => {
  await expectFundsConsistent(db());
  await kit.close();
});

describe('fund money events', () => {
  it('a current-fund subscription from the wallet writes one message; its replay writes none', async () => {
    const request = { productId: CURRENT_PRODUCT_ID, amount: '1234.5', actionType: 'WALLET', coin: 'USDT' };
    const first = (await kit.subscribe(ivy, request, { 'idempotency-key': 'msg-sub-1' })).json();
    expect(first.statusCode).toBe(200);
    const replay = (await kit.subscribe(ivy, request, { 'idempotency-key': 'msg-sub-1' })).json();
    expect(replay.content.id).toBe(first.content.id);
    const messages = await messagesOf('fund.current.subscribed');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]).toMatchObject({
      category: 'FUND',
      title: 'Current fund subscribed',
      body: 'You subscribed $1,234.50 of Current Fund, paid with 1,234.50 USDT from your wallet.',
      link: '/my/order/fund',
    });
    expect(messages['zh-HK'][0]!.title).toBe('已認購活期基金');
    expect(messages['zh-HK'][0]!.body).toContain('US$1,234.50');
    expect(messages['zh-HK'][0]!.body).toContain('已從你的錢包支付 1,234.50 USDT');
  });

  it('a refused subscription (more than the wallet holds) writes no message', async () => {
    const before = await messageCount(db(), ivy.userId);
    const refused = (
      await kit.subscribe(ivy, { productId: CURRENT_PRODUCT_ID, amount: '999999', actionType: 'WALLET', coin: 'USDT' })
    ).json();
    expect(refused.statusCode).not.toBe(200);
    expect(await messageCount(db(), ivy.userId)).toBe(before);
  });

  it('a subscription whose transaction rolls back at its last step writes no message and moves nothing', async () => {
    const before = await messageCount(db(), ivy.userId);
    const wallet = await balanceOf(kit, userAccount(ivy.userId, 'USER_AVAILABLE', 'USDT'));
    // The security factors are used up as the transaction's last step, after the message is written.
    const failing = {
      check: async () => {},
      consume: async () => {
        throw new Error('factor store down');
      },
      answeredByReplay: () => {},
    };
    const body = {
      productId: CURRENT_PRODUCT_ID,
      amountMinor: minor(10_000n),
      actionType: 'WALLET',
      coin: 'USDT',
    } as const;
    await expect(kit.t.app.funds.subscribe(ivy.userId, body, 'rollback-1', failing)).rejects.toThrow(
      'factor store down',
    );
    expect(await messageCount(db(), ivy.userId)).toBe(before);
    expect(await balanceOf(kit, userAccount(ivy.userId, 'USER_AVAILABLE', 'USDT'))).toBe(wallet);
  });

  it('a fixed-fund subscription from current shares writes one message naming the product in each language', async () => {
    const response = (await kit.subscribe(ivy, { productId: FIXED, amount: '1000', actionType: 'FUND' })).json();
    expect(response.statusCode).toBe(200);
    const messages = await messagesOf('fund.fixed.subscribed');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]!.body).toBe('$1,000.00 moved from your current fund into Fixed 7-day Notes.');
    expect(messages['zh-HK'][0]!.body).toBe('US$1,000.00 已由你的活期基金轉入7 日定期票據。');
  });

  it('a redemption to the wallet writes one message; its replay writes none', async () => {
    const request = { productId: CURRENT_PRODUCT_ID, amount: '34.5', actionType: 'WALLET', coin: 'USDT' };
    expect((await kit.redeem(ivy, request, { 'idempotency-key': 'msg-red-1' })).json().statusCode).toBe(200);
    expect((await kit.redeem(ivy, request, { 'idempotency-key': 'msg-red-1' })).json().statusCode).toBe(200);
    const messages = await messagesOf('fund.current.redeemed');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]!.body).toBe(
      'You redeemed $34.50 of Current Fund: 34.50 USDT was credited to your wallet.',
    );
    expect(messages['zh-HK'][0]!.title).toBe('活期基金已贖回');
    expect(messages['zh-HK'][0]!.body).toContain('34.50 USDT 已存入你的錢包');
  });

  it('a redemption above the shares held writes no message', async () => {
    const before = await messageCount(db(), ivy.userId);
    const refused = (
      await kit.redeem(ivy, { productId: CURRENT_PRODUCT_ID, amount: '500000', actionType: 'WALLET', coin: 'USDT' })
    ).json();
    expect(refused.statusCode).toBe(164);
    expect(await messageCount(db(), ivy.userId)).toBe(before);
  });

  it('the fixed order maturing into the current fund writes one message, once', async () => {
    await kit.runDailyAt('2026-03-12T00:00:05+08:00');
    await kit.runDailyAt('2026-03-12T01:00:05+08:00');
    const messages = await messagesOf('fund.fixed.matured');
    expect(messages.count).toBe(1);
    expect(messages['en-US'][0]).toMatchObject({ category: 'FUND', title: 'Fixed fund matured' });
    expect(messages['en-US'][0]!.body).toMatch(
      /^Fixed 7-day Notes matured: \$1,000\.00 principal and \$\d+\.\d\d interest/,
    );
    expect(messages['zh-HK'][0]!.body).toMatch(/^7 日定期票據已到期：本金 US\$1,000\.00 及利息 US\$\d+\.\d\d/);
  });
});
