import { fundRedeemBodySchema, fundSubscribeBodySchema } from '@meridian/contracts/funds';
import { describe, expect, it } from 'vitest';
import { contractErrors } from './contract-errors.ts';

describe('contractErrors', () => {
  it('passes a valid subscription from the wallet', () => {
    const body = { productId: 'EXW_CURRENT_PRODUCT', amount: '1000', actionType: 'WALLET', coin: 'USDT' };
    expect(contractErrors(fundSubscribeBodySchema, body, 'en-US')).toEqual([]);
  });

  it('names the field at fault: an amount with more than 2 decimals, a missing coin', () => {
    const base = { productId: 'EXW_CURRENT_PRODUCT', actionType: 'WALLET' };
    const names = (body: object) => contractErrors(fundSubscribeBodySchema, body, 'en-US').map((field) => field.name);
    expect(names({ ...base, coin: 'USDT', amount: '1.001' })).toEqual(['amount']);
    expect(names({ ...base, coin: 'USDT', amount: '0' })).toEqual(['amount']);
    expect(names({ ...base, amount: '10' })).toEqual(['coin']);
  });

  it('asks for a bank account when redeeming by wire, in the user language', () => {
    const body = { productId: 'EXW_CURRENT_PRODUCT', amount: '10', actionType: 'USD' };
    const [field] = contractErrors(fundRedeemBodySchema, body, 'zh-HK');
    expect(field?.name).toBe('bankAccountId');
    expect(field?.errors[0]).not.toMatch(/^validation\./);
  });
});
