import type { LoanCalc, LoanCalcQuery, LoanCoin } from '@meridian/contracts/loans';
import Decimal from 'decimal.js';
import { type AmountInput, readAmountInput } from './amount-input.ts';

/** The calculator's two amounts: BTC pledged and the principal borrowed. */
export type CalcField = 'collateral' | 'principal';

/** What the user typed in each field, and which fields they typed (the others show the calculator's figure). */
export interface CalcInputs {
  loanCoin: LoanCoin;
  termDays: number;
  texts: Record<CalcField, string>;
  typed: Record<CalcField, boolean>;
}

/** Each field read as an amount (BTC, the loan coin); a field the user did not type is empty. */
export function readCalcInputs(inputs: CalcInputs): Record<CalcField, AmountInput> {
  return {
    collateral: inputs.typed.collateral ? readAmountInput(inputs.texts.collateral, 'BTC') : { kind: 'empty' },
    principal: inputs.typed.principal ? readAmountInput(inputs.texts.principal, inputs.loanCoin) : { kind: 'empty' },
  };
}

/**
 * The `loan/calc` query of the inputs (collateral ↔ amount): the typed amounts — the
 * collateral alone asks for the largest loan, the principal alone for the collateral it needs, both
 * for the LTV of the pair. Null while nothing valid is typed or a typed amount is refused.
 */
export function calcQueryOf(inputs: CalcInputs): LoanCalcQuery | null {
  const read = readCalcInputs(inputs);
  if (read.collateral.kind === 'invalid' || read.principal.kind === 'invalid') return null;
  if (read.collateral.kind !== 'ok' && read.principal.kind !== 'ok') return null;
  return {
    loanCoin: inputs.loanCoin,
    termDays: inputs.termDays,
    ...(read.collateral.kind === 'ok' && { collateralAmount: read.collateral.text }),
    ...(read.principal.kind === 'ok' && { principal: read.principal.text }),
  };
}

/** What a field shows: the typed text, or the calculator's figure (the collateral needed, the largest loan). */
export function shownAmount(field: CalcField, inputs: CalcInputs, answer: LoanCalc | null): string {
  if (inputs.typed[field]) return inputs.texts[field];
  if (!answer) return '';
  return field === 'collateral' ? answer.collateralAmount : (answer.maxPrincipal ?? answer.principal);
}

/** Whether the answer's LTV is above the initial LTV (percent texts, compared exactly). */
export function isLtvAboveInitial(answer: LoanCalc | null, initialLtvPct: string): boolean {
  return answer !== null && new Decimal(answer.ltvPct).gt(initialLtvPct);
}
