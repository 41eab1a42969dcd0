import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSession } from '../../../test/helpers.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import {
  balanceOf,
  createFundsKit,
  expectFundsConsistent,
  type FundsKit,
  fundSharesOf,
  minor,
} from './funds.test-kit.ts';
import type { FundsService } from './funds.service.ts';

/**
 * USD by wire: a USD subscription waits for its wire with a
 * unique reference; finance records received wires (a known reference credits once, an unknown one
 * goes to suspense); a redemption to USD waits for finance to send it (or fail it: shares back).
 * Bank accounts belong to the payments module: here a fake `BankAccountLookup` knows one account.
 */

let kit: FundsKit;
let ivy: TestSession;
let funds: FundsService;
const BANK = { id: 41, holder: 'Ivy Chan', bankName: 'HSBC', swift: 'HSBCHKHHHKH', currency: 'USD' };

beforeAll(async () => {
  kit = await createFundsKit('2026-04-07T10:00:00+08:00');
  funds = kit.serviceWith({
    bankAccounts: {
      findBankAccount: async (userId, bankAccountId) =>
        userId === ivy.userId && bankAccountId === BANK.id ? BANK : null,
    },
  });
});
afterAll(async () => {
  await expectFundsConsistent(kit.t.database.db);
  await kit.close();
});

describe('USD subscription by wire', () => {
  let reference: string;

  it('creates a Pending order with a unique reference and Meridian’s receiving account', async () => {
    ivy = await kit.investor();
    const order = await funds.subscribe(
      ivy.userId,
      {
        productId: CURRENT_PRODUCT_ID,
        amountMinor: minor(200_000n),
        actionType: 'USD',
        bankAccountId: String(BANK.id),
      },
      undefined,
    );
    expect(order).toMatchObject({ action: 'SUBSCRIBE', actionType: 'USD', amount: '2000.00', status: 'PENDING' });
    expect(order.wire?.reference).toMatch(/^MW[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(order.wire?.receivingAccount).toMatchObject({ currency: 'USD', swift: 'DEMOHKHHXXX' });
    reference = order.wire!.reference;
    expect(await fundSharesOf(kit, ivy.userId)).toBe(0n);
    const history = (await kit.get(ivy, '/api/fund/v2/order')).json().content;
    expect(history.list[0]).toMatchObject({ status: 'PENDING', wire: { reference } });
  });

  it('refuses a bank account the user has not bound (169), through the app’s own lookup too', async () => {
    const other = funds.subscribe(
      ivy.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(100n), actionType: 'USD', bankAccountId: '99' },
      undefined,
    );
    await expect(other).rejects.toMatchObject({ code: 'FUND_BANK_ACCOUNT_NOT_FOUND' });
    const answer = (
      await kit.subscribe(ivy, {
        productId: CURRENT_PRODUCT_ID,
        amount: '10',
        actionType: 'USD',
        bankAccountId: String(BANK.id),
      })
    ).json();
    expect(answer.statusCode).toBe(169);
  });

  it('credits the order once when finance records the wire, even recorded twice', async () => {
    const wire = { reference, amount: '2000.00', sender: 'IVY CHAN', bankTransactionId: 'BTX-001' };
    const first = (await kit.ops(kit.financeToken, 'POST', '/wires', wire)).json();
    expect(first).toMatchObject({
      statusCode: 200,
      content: { status: 'CREDITED', isDuplicate: false, amount: '2000.00' },
    });
    const again = (await kit.ops(kit.financeToken, 'POST', '/wires', wire)).json();
    expect(again.content).toMatchObject({ id: first.content.id, status: 'CREDITED', isDuplicate: true });
    expect(await fundSharesOf(kit, ivy.userId)).toBe(200_000n);
    expect(await balanceOf(kit, platformAccount('PLATFORM_BANK', 'USD'))).toBe(-200_000n);
    const asset = (await kit.get(ivy, '/api/fund/v2/asset')).json().content;
    expect(asset.currentProduct).toMatchObject({ usableShares: '2000.00', unInterestShares: '2000.00' });
  });

  it('puts a wire with an unknown reference, a second wire for a credited order and a wrong amount into suspense', async () => {
    const unknown = (
      await kit.ops(kit.financeToken, 'POST', '/wires', {
        reference: 'MWNOSUCHREF0',
        amount: '150.00',
        sender: 'X',
        bankTransactionId: 'BTX-002',
      })
    ).json();
    expect(unknown.content).toMatchObject({ status: 'SUSPENSE', suspenseReason: 'unknown_reference' });
    const late = (
      await kit.ops(kit.financeToken, 'POST', '/wires', {
        reference,
        amount: '2000.00',
        sender: 'IVY CHAN',
        bankTransactionId: 'BTX-003',
      })
    ).json();
    expect(late.content).toMatchObject({ status: 'SUSPENSE', suspenseReason: 'order_not_pending' });
    const pending = await funds.subscribe(
      ivy.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(50_000n), actionType: 'USD', bankAccountId: String(BANK.id) },
      undefined,
    );
    const wrong = (
      await kit.ops(kit.financeToken, 'POST', '/wires', {
        reference: pending.wire!.reference,
        amount: '499.99',
        sender: 'IVY',
        bankTransactionId: 'BTX-004',
      })
    ).json();
    expect(wrong.content).toMatchObject({ status: 'SUSPENSE', suspenseReason: 'amount_mismatch' });
    expect(await balanceOf(kit, platformAccount('SUSPENSE', 'USD'))).toBe(15_000n + 200_000n + 49_999n);
    expect(await fundSharesOf(kit, ivy.userId)).toBe(200_000n);
    const list = (await kit.ops(kit.financeToken, 'GET', '/wires?status=SUSPENSE')).json().content;
    expect(list.totalCount).toBe(3);
  });

  it('refuses other roles (102) and bad input (120 naming the field), recording nothing', async () => {
    const support = (
      await kit.ops(kit.supportToken, 'POST', '/wires', {
        reference: 'R',
        amount: '1.00',
        sender: 'S',
        bankTransactionId: 'BTX-9',
      })
    ).json();
    expect(support.statusCode).toBe(102);
    const bad = (
      await kit.ops(kit.financeToken, 'POST', '/wires', {
        reference: 'R',
        amount: '1.001',
        sender: 'S',
        bankTransactionId: 'BTX-9',
      })
    ).json();
    expect(bad.statusCode).toBe(120);
    expect(bad.content.fields[0].field).toBe('amount');
    const list = (await kit.ops(kit.financeToken, 'GET', '/wires')).json().content;
    expect(list.totalCount).toBe(4);
  });
});

describe('USD redemption by wire', () => {
  it('freezes the shares until finance fails the wire (shares back) or sends it (once)', async () => {
    const order = await funds.redeem(
      ivy.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(50_000n), actionType: 'USD', bankAccountId: String(BANK.id) },
      undefined,
    );
    expect(order).toMatchObject({ action: 'REDEEM', status: 'PENDING', amount: '500.00' });
    expect(await fundSharesOf(kit, ivy.userId)).toBe(150_000n);
    expect(await balanceOf(kit, userAccount(ivy.userId, 'USER_FUND_FROZEN', 'USD'))).toBe(50_000n);
    expect((await kit.get(ivy, '/api/fund/v2/asset')).json().content.currentProduct).toMatchObject({
      usableShares: '1500.00',
      unusableShares: '500.00',
    });
    const outgoing = (await kit.ops(kit.financeToken, 'GET', '/wires/outgoing?status=PENDING')).json().content;
    expect(outgoing.list[0]).toMatchObject({
      amount: '500.00',
      bankAccountId: '41',
      bankAccount: { swift: 'HSBCHKHHHKH' },
    });
    const failed = (
      await kit.ops(kit.financeToken, 'POST', `/wires/outgoing/${outgoing.list[0].id}/failed`, {
        note: 'Beneficiary bank rejected',
      })
    ).json();
    expect(failed.content.status).toBe('FAILED');
    expect(await fundSharesOf(kit, ivy.userId)).toBe(200_000n);
    const twice = (await kit.ops(kit.financeToken, 'POST', `/wires/outgoing/${outgoing.list[0].id}/sent`, {})).json();
    expect(twice.statusCode).toBe(170);

    const second = await funds.redeem(
      ivy.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(20_000n), actionType: 'USD', bankAccountId: String(BANK.id) },
      undefined,
    );
    const [wire] = (await kit.ops(kit.financeToken, 'GET', '/wires/outgoing?status=PENDING')).json().content.list;
    expect(wire.orderId).toBe(second.id);
    const sent = (await kit.ops(kit.financeToken, 'POST', `/wires/outgoing/${wire.id}/sent`, {})).json();
    expect(sent.content).toMatchObject({ status: 'SENT', decidedBy: 'finance@example.com' });
    expect(await balanceOf(kit, userAccount(ivy.userId, 'USER_FUND_FROZEN', 'USD'))).toBe(0n);
    expect(await fundSharesOf(kit, ivy.userId)).toBe(180_000n);
    const history = (await kit.get(ivy, '/api/fund/v2/order?action=REDEEM')).json().content;
    expect(history.list.map((line: { status: string }) => line.status)).toEqual(['SUCCESS', 'FAILED']);
  });

  it('refuses a stablecoin outside its band (168), changing nothing', async () => {
    const depegged = kit.serviceWith({ par: { isAtPar: async (coin) => coin !== 'USDT' } });
    const refusal = await depegged
      .redeem(
        ivy.userId,
        { productId: CURRENT_PRODUCT_ID, amountMinor: minor(100n), actionType: 'WALLET', coin: 'USDT' },
        undefined,
      )
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe('FUND_COIN_OFF_PEG');
    expect(await fundSharesOf(kit, ivy.userId)).toBe(180_000n);
  });
});

describe('wires in suspense, resolved by finance', () => {
  async function suspenseWire(bankTransactionId: string): Promise<{ id: string; amount: string }> {
    const list = (await kit.ops(kit.financeToken, 'GET', '/wires?status=SUSPENSE&pageSize=50')).json().content;
    const wire = list.list.find((row: { bankTransactionId: string }) => row.bankTransactionId === bankTransactionId);
    expect(wire, bankTransactionId).toBeDefined();
    return wire;
  }

  it('applies a wire whose reference was wrong to the pending subscription finance names, once', async () => {
    const unknown = await suspenseWire('BTX-002'); // 150.00 with a reference no order has
    const order = await funds.subscribe(
      ivy.userId,
      { productId: CURRENT_PRODUCT_ID, amountMinor: minor(15_000n), actionType: 'USD', bankAccountId: String(BANK.id) },
      undefined,
    );
    const sharesBefore = await fundSharesOf(kit, ivy.userId);
    const suspenseBefore = await balanceOf(kit, platformAccount('SUSPENSE', 'USD'));

    // A reference no pending subscription has is refused, naming the reference; nothing moves.
    const mismatch = (
      await kit.ops(kit.financeToken, 'POST', `/wires/${unknown.id}/apply`, {
        reference: 'MWNOSUCHREF0',
        note: 'sender forgot the reference',
      })
    ).json();
    expect(mismatch).toMatchObject({ statusCode: 171 });
    expect(mismatch.message).toContain('MWNOSUCHREF0');

    const applied = (
      await kit.ops(kit.financeToken, 'POST', `/wires/${unknown.id}/apply`, {
        reference: order.wire!.reference,
        note: 'sender wrote the reference with a typo; matched by name and amount',
      })
    ).json();
    expect(applied).toMatchObject({
      statusCode: 200,
      content: { status: 'CREDITED', orderId: order.id, resolutionNote: expect.stringContaining('typo') },
    });
    expect(applied.content.resolvedBy).toMatch(/@/);
    expect(await fundSharesOf(kit, ivy.userId)).toBe(sharesBefore + 15_000n);
    expect(await balanceOf(kit, platformAccount('SUSPENSE', 'USD'))).toBe(suspenseBefore - 15_000n);
    const history = (await kit.get(ivy, '/api/fund/v2/order')).json().content;
    expect(history.list.find((row: { id: string }) => row.id === order.id)).toMatchObject({ status: 'SUCCESS' });

    const again = (
      await kit.ops(kit.financeToken, 'POST', `/wires/${unknown.id}/apply`, {
        reference: order.wire!.reference,
        note: 'x',
      })
    ).json();
    expect(again.statusCode).toBe(170);
    expect(await fundSharesOf(kit, ivy.userId)).toBe(sharesBefore + 15_000n);
  });

  it('returns a wire to its sender (suspense → bank) once; other roles and a missing reason change nothing', async () => {
    const wrong = await suspenseWire('BTX-004'); // 499.99 for a 500.00 order
    const bankBefore = await balanceOf(kit, platformAccount('PLATFORM_BANK', 'USD'));
    const support = (await kit.ops(kit.supportToken, 'POST', `/wires/${wrong.id}/return`, { note: 'n' })).json();
    expect(support.statusCode).toBe(102);
    const noReason = (await kit.ops(kit.financeToken, 'POST', `/wires/${wrong.id}/return`, {})).json();
    expect(noReason.statusCode).toBe(120);
    expect(noReason.content.fields[0].field).toBe('note');
    expect(await balanceOf(kit, platformAccount('PLATFORM_BANK', 'USD'))).toBe(bankBefore);

    const returned = (
      await kit.ops(kit.financeToken, 'POST', `/wires/${wrong.id}/return`, { note: 'amount short by 0.01; sent back' })
    ).json();
    expect(returned.content).toMatchObject({ status: 'RETURNED', orderId: null });
    expect(await balanceOf(kit, platformAccount('PLATFORM_BANK', 'USD'))).toBe(bankBefore + 49_999n);
    const twice = (await kit.ops(kit.financeToken, 'POST', `/wires/${wrong.id}/return`, { note: 'again' })).json();
    expect(twice.statusCode).toBe(170);
    expect(await balanceOf(kit, platformAccount('PLATFORM_BANK', 'USD'))).toBe(bankBefore + 49_999n);
    const missing = (await kit.ops(kit.financeToken, 'POST', '/wires/999999/return', { note: 'n' })).json();
    expect(missing.statusCode).toBe(104);
  });
});
