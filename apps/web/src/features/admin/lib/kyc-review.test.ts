import type { OpsKycSubmission } from '@meridian/contracts/kyc';
import { describe, expect, it } from 'vitest';
import { reviewLinesOf, stepOf, submittedDataOf } from './kyc-review.ts';

const submission = {
  submitted: { firstName: 'Chan', documents: { idFront: 'doc-1' } },
  investor: { submitted: { experience: 'none' } },
  aml: { sourceOfFunds: 'salary' },
  qualified: { submitted: { assets: '8000000' } },
} as unknown as OpsKycSubmission;

describe('stepOf', () => {
  it('reads a known step and falls back to basic', () => {
    expect(stepOf('aml')).toBe('aml');
    expect(stepOf('residence')).toBe('residence');
    expect(stepOf(null)).toBe('basic');
    expect(stepOf('other')).toBe('basic');
  });
});

describe('submittedDataOf', () => {
  it('picks the data of each step', () => {
    expect(submittedDataOf(submission, 'investor')).toEqual({ experience: 'none' });
    expect(submittedDataOf(submission, 'aml')).toEqual({ sourceOfFunds: 'salary' });
    expect(submittedDataOf(submission, 'qualified')).toEqual({ assets: '8000000' });
    expect(submittedDataOf(submission, 'basic')).toBe(submission.submitted);
    expect(submittedDataOf(submission, 'residence')).toBe(submission.submitted);
  });

  it('is undefined for a step not submitted', () => {
    const basicOnly = { submitted: {} } as unknown as OpsKycSubmission;
    expect(submittedDataOf(basicOnly, 'investor')).toBeUndefined();
  });
});

describe('reviewLinesOf', () => {
  it('leaves the document ids out', () => {
    expect(reviewLinesOf(submission, 'basic')).toEqual([{ path: 'firstName', text: 'Chan' }]);
  });
});
