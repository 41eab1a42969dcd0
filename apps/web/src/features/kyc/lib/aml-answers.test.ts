import { describe, expect, it } from 'vitest';
import { amlAnswersOf, amlStepOf, initialAmlValues } from './aml-answers.ts';

describe('AML answers', () => {
  it('sends no sanctioned country unless links were declared, and trims the employer', () => {
    const answers = amlAnswersOf({ employer: '  Acme  ', hasSanctionsLinks: false, sanctionsCountryLinks: ['IR'] });
    expect(answers.employer).toBe('Acme');
    expect(answers.sanctionsCountryLinks).toEqual([]);
    expect(answers.sourcesOfFunds).toEqual([]);
    expect(amlAnswersOf({ hasSanctionsLinks: true, sanctionsCountryLinks: ['IR'] }).sanctionsCountryLinks).toEqual([
      'IR',
    ]);
  });

  it('finds the step of a refused field', () => {
    expect(amlStepOf('occupation')).toBe(0);
    expect(amlStepOf('employer')).toBe(0);
    expect(amlStepOf('purposes')).toBe(1);
    expect(amlStepOf('sanctionsCountryLinks')).toBe(2);
    expect(amlStepOf('nothing')).toBe(-1);
  });

  it('starts from the current answers, with the links answer derived from the countries', () => {
    expect(initialAmlValues({ current: null } as never)).toEqual({});
    const state = { current: { status: 'rejected', answers: { employer: 'Acme', sanctionsCountryLinks: ['IR'] } } };
    expect(initialAmlValues(state as never)).toEqual({
      employer: 'Acme',
      sanctionsCountryLinks: ['IR'],
      hasSanctionsLinks: true,
    });
  });
});
