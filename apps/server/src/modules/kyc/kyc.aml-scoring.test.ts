import { describe, expect, it } from 'vitest';
import { AML_RULES, amlLevel, type AmlAnswers, scoreAmlAnswers } from './kyc.aml-scoring.ts';

/** A salaried engineer saving a modest amount: no rule applies. */
const ordinary: AmlAnswers = {
  occupation: { status: 'employed', industry: 'technology' },
  employer: 'Acme Ltd',
  sourcesOfFunds: ['salary'],
  sourcesOfWealth: ['employment'],
  expectedMonthlyVolumeUsdBand: 'under10k',
  purposes: ['investment', 'savings'],
  isPoliticallyExposed: false,
  sanctionsCountryLinks: [],
};

describe('AML scoring', () => {
  it('scores an ordinary salaried saver 0 points, low, auto-accepted', () => {
    expect(scoreAmlAnswers(ordinary)).toEqual({
      points: 0,
      level: 'low',
      needsEnhancedReview: false,
      matchedRules: [],
    });
  });

  it('sends a politically exposed person to enhanced review on that answer alone', () => {
    const score = scoreAmlAnswers({ ...ordinary, isPoliticallyExposed: true });
    expect(score).toMatchObject({
      points: 40,
      level: 'high',
      needsEnhancedReview: true,
      matchedRules: [{ id: 'pep', points: 40 }],
    });
  });

  it('adds points for a comprehensively sanctioned country on top of any sanctions link', () => {
    expect(scoreAmlAnswers({ ...ordinary, sanctionsCountryLinks: ['ru'] }).points).toBe(40);
    expect(scoreAmlAnswers({ ...ordinary, sanctionsCountryLinks: ['ir'] }).matchedRules.map((rule) => rule.id)).toEqual(
      ['sanctions-country-link', 'comprehensive-sanctions-link'],
    );
  });

  it('scores a student expecting USD 250k–1m a month from gifts as high (15 + 15 + 10 = 40)', () => {
    const score = scoreAmlAnswers({
      ...ordinary,
      occupation: { status: 'student', industry: 'education' },
      employer: '',
      expectedMonthlyVolumeUsdBand: 'from250kTo1m',
      sourcesOfFunds: ['gift'],
    });
    expect(score.matchedRules).toEqual([
      { id: 'volume-250k-to-1m', points: 15 },
      { id: 'volume-without-earned-income', points: 15 },
      { id: 'third-party-funds', points: 10 },
    ]);
    expect(score).toMatchObject({ points: 40, level: 'high' });
  });

  it('scores a casino employee remitting USD 50k–250k as medium', () => {
    const score = scoreAmlAnswers({
      ...ordinary,
      occupation: { status: 'employed', industry: 'gambling' },
      expectedMonthlyVolumeUsdBand: 'from50kTo250k',
      purposes: ['remittance'],
    });
    expect(score).toMatchObject({ points: 35, level: 'medium', needsEnhancedReview: false });
  });

  it('maps the threshold edges exactly', () => {
    expect([0, 19, 20, 39, 40, 200].map(amlLevel)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
  });

  it('has unique rule ids, positive points and a description for each rule', () => {
    expect(new Set(AML_RULES.map((rule) => rule.id)).size).toBe(AML_RULES.length);
    for (const rule of AML_RULES) {
      expect(rule.points).toBeGreaterThan(0);
      expect(rule.description.length).toBeGreaterThan(10);
    }
  });
});
