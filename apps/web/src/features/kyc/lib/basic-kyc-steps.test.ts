import { describe, expect, it } from 'vitest';
import { BASIC_FIELDS, BASIC_STEPS, draftOf, firstFailingStep } from './basic-kyc-steps.ts';

describe('basic KYC steps', () => {
  it('lists every field once, in the order of the steps', () => {
    expect(BASIC_FIELDS).toEqual(BASIC_STEPS.flatMap((step) => [...step.fields]));
    expect(new Set(BASIC_FIELDS).size).toBe(BASIC_FIELDS.length);
  });

  it('keeps only the fields holding a string in the draft', () => {
    expect(draftOf({ firstName: 'Ada', lastName: undefined, idType: 'passport', address: '' })).toEqual({
      firstName: 'Ada',
      idType: 'passport',
      address: '',
    });
  });

  it('finds the first step holding a failing field', () => {
    expect(firstFailingStep(['address', 'idNumber'])).toBe(1);
    expect(firstFailingStep(['residence'])).toBe(0);
    expect(firstFailingStep(['proofOfAddressDate'])).toBe(2);
    expect(firstFailingStep(['unknown'])).toBe(-1);
    expect(firstFailingStep([])).toBe(-1);
  });
});
