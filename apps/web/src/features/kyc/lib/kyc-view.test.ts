import { describe, expect, it } from 'vitest';
import { maskIdNumber } from '../../../lib/kyc-identity.ts';
import { levelOf, reviewedStepState, safeReturnTo, taxLevelState } from './kyc-view.ts';

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

describe('levelOf', () => {
  it('needs basic for 1 and all of investor, AML and tax for 2', () => {
    expect(levelOf('review', 'todo', 'todo', 'todo')).toBe(0);
    expect(levelOf('done', 'done', 'done', 'todo')).toBe(1);
    expect(levelOf('done', 'done', 'done', 'done')).toBe(2);
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

describe('taxLevelState', () => {
  const base = { current: null, supersededCount: 1, changeReportDays: 30, isNewFormRequired: true };
  const nowMs = Date.parse('2026-11-25T00:00:00Z');

  it('counts a form on file, and a superseded one while the 30 days for the new form run', () => {
    expect(
      taxLevelState(
        {
          ...base,
          isNewFormRequired: false,
          newFormDueAt: null,
          current: { id: 1, form: 'W8BEN', summary: {}, createdAt: '2026-11-01T00:00:00Z' },
        },
        nowMs,
      ),
    ).toBe('done');
    expect(taxLevelState({ ...base, newFormDueAt: '2026-12-20T00:00:00Z' }, nowMs)).toBe('done');
  });

  it('does not count once the due time has passed, or when no form was ever filed', () => {
    expect(taxLevelState({ ...base, newFormDueAt: '2026-11-20T00:00:00Z' }, nowMs)).toBe('todo');
    expect(taxLevelState({ ...base, isNewFormRequired: false, newFormDueAt: null, supersededCount: 0 }, nowMs)).toBe(
      'todo',
    );
    expect(taxLevelState(undefined, nowMs)).toBe('todo');
  });
});
