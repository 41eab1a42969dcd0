// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { describedByOf, LoanField } from './loan-field.tsx';

afterEach(cleanup);

describe('LoanField', () => {
  it('names its input by the label and describes it by the refusal and the note', () => {
    render(
      <LoanField label="Collateral (BTC)" htmlFor="collateral" error="Enter a valid amount" extra="Available: 0.5">
        <input
          id="collateral"
          aria-describedby={describedByOf('collateral', 'Enter a valid amount', 'Available: 0.5')}
        />
      </LoanField>,
    );
    const input = screen.getByLabelText('Collateral (BTC)');
    expect(input.getAttribute('aria-describedby')).toBe('collateral-error collateral-extra');
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid amount');
    expect(document.getElementById('collateral-extra')?.textContent).toBe('Available: 0.5');
    expect(input.closest('.loan-field')?.classList.contains('loan-field--error')).toBe(true);
  });

  it('shows neither refusal nor note when there is none, and describes the input by nothing', () => {
    render(
      <LoanField label="Loan amount" htmlFor="principal">
        <input id="principal" aria-describedby={describedByOf('principal', undefined, undefined)} />
      </LoanField>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Loan amount').hasAttribute('aria-describedby')).toBe(false);
    expect(screen.getByLabelText('Loan amount').closest('.loan-field')?.className).toBe('loan-field');
  });

  it('names a group by its label through labelId', () => {
    render(
      <LoanField label="Term" labelId="term-label">
        <div role="radiogroup" aria-labelledby="term-label" />
      </LoanField>,
    );
    expect(screen.getByRole('radiogroup', { name: 'Term' })).toBeTruthy();
  });
});
