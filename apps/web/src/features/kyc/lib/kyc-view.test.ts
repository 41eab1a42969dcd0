import { describe, expect, it } from 'vitest';
import { maskIdNumber } from '../../../lib/kyc-identity.ts';
import { isStepOpen, overviewStepState, reviewedStepState, safeReturnTo } from './kyc-view.ts';

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

describe('isStepOpen and overviewStepState', () => {
  const cases: [Parameters<typeof isStepOpen>[0], boolean[]][] = [
    ['basic', [true, true, true, true]],
    ['investor', [false, true, true, true]],
    ['aml', [false, true, true, true]],
    ['tax', [false, true, true, true]],
    ['qualified', [false, false, true, true]],
  ];
  it.each(cases)('%s opens at levels 0-3: %j', (step, openAt) => {
    expect(([0, 1, 2, 3] as const).map((level) => isStepOpen(step, level))).toEqual(openAt);
  });

  it('reads an unknown level (still loading) as 0', () => {
    expect(isStepOpen('basic', undefined)).toBe(true);
    expect(isStepOpen('investor', undefined)).toBe(false);
  });

  it('locks a step that is not open, whatever its own state', () => {
    expect(overviewStepState('qualified', 1, 'done')).toBe('locked');
    expect(overviewStepState('qualified', 2, 'failed')).toBe('failed');
    expect(overviewStepState('tax', 0, 'todo')).toBe('locked');
    expect(overviewStepState('tax', 1, 'todo')).toBe('todo');
  });
});
