import { describe, expect, it } from 'vitest';
import { maskIdNumber } from '../../../lib/kyc-identity.ts';
import { reviewedStepState, safeReturnTo } from './kyc-view.ts';

describe('maskIdNumber', () => {
  it('keeps the first 2 and last 2 characters', () => {
    expect(maskIdNumber('A1234563')).toBe('A1****63');
    expect(maskIdNumber('AB12')).toBe('****');
  });
});

describe('reviewedStepState', () => {
  it('maps the review status and a started draft', () => {
    expect(reviewedStepState({ status: 0, draft: {} })).toBe('todo');
    expect(reviewedStepState({ status: 0, draft: { firstName: 'A' } })).toBe('draft');
    expect(reviewedStepState({ status: 1, draft: {} })).toBe('done');
    expect(reviewedStepState({ status: 2, draft: {} })).toBe('review');
    expect(reviewedStepState({ status: 3, draft: {} })).toBe('failed');
  });
});

describe('safeReturnTo', () => {
  it('accepts only paths of this site', () => {
    expect(safeReturnTo('/account/wallet/withdraw/USDT?x=1')).toBe('/account/wallet/withdraw/USDT?x=1');
    expect(safeReturnTo('//evil.example')).toBeNull();
    expect(safeReturnTo('https://evil.example')).toBeNull();
    expect(safeReturnTo(null)).toBeNull();
  });
});
