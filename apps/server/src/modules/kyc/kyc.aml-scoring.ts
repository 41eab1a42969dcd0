/**
 * AML questionnaire scoring: the answers are scored by the written
 * rules of `AML_RULES` — each with its points — and the total maps to a risk level by
 * `AML_THRESHOLDS`. A high level sends the questionnaire to enhanced review instead of
 * auto-acceptance (FATF Recommendation 10 risk-based customer due diligence; Recommendation 12
 * enhanced measures for politically exposed persons; Recommendation 19 higher-risk countries).
 */
import type { AML_INDUSTRIES, AmlAnswersInput } from '@meridian/contracts/kyc';

/** An industry of `AML_INDUSTRIES` (the contract's list). */
export type Industry = (typeof AML_INDUSTRIES)[number];

/** The cash-intensive or money-handling trades FATF names as higher risk (the last four of `AML_INDUSTRIES`). */
export const HIGH_RISK_INDUSTRIES: ReadonlySet<Industry> = new Set<Industry>([
  'moneyServices',
  'gambling',
  'preciousMetalsAndStones',
  'armsAndDefence',
]);

/**
 * One set of answers to the AML questionnaire (`investor/aml`), as `amlAnswersSchema` of the
 * contracts parses it: the choice lists are the contract's (`AML_INDUSTRIES`, `AML_FUND_SOURCES`, …).
 * Every version is kept by the caller.
 */
export type AmlAnswers = AmlAnswersInput;

export type AmlRiskLevel = 'low' | 'medium' | 'high';

/** One written scoring rule. */
export interface AmlRule {
  id: string;
  description: string;
  points: number;
  applies: (answers: AmlAnswers) => boolean;
}

/**
 * Countries under comprehensive US/UN sanctions or on the FATF "call for action" list (North Korea,
 * Iran, Myanmar as of the FATF statement of June 2024; Cuba and Syria under comprehensive OFAC
 * programmes). A declared link to any country counts; this list adds points on top for these.
 */
export const COMPREHENSIVELY_SANCTIONED_COUNTRIES: ReadonlySet<string> = new Set(['KP', 'IR', 'MM', 'CU', 'SY']);

const isHighVolume = (answers: AmlAnswers) =>
  answers.expectedMonthlyVolumeUsdBand === 'from250kTo1m' || answers.expectedMonthlyVolumeUsdBand === 'atLeast1m';
const hasNoEarnedIncome = (answers: AmlAnswers) =>
  ['student', 'unemployed', 'homemaker'].includes(answers.occupation.status);

/** The rule table. Points add up; the thresholds below turn the total into a level. */
export const AML_RULES: readonly AmlRule[] = [
  {
    id: 'pep',
    description:
      'Politically exposed person, family member or close associate: enhanced due diligence is required (FATF R.12)',
    points: 40,
    applies: (answers) => answers.isPoliticallyExposed,
  },
  {
    id: 'sanctions-country-link',
    description: 'Declares links with a country under sanctions',
    points: 40,
    applies: (answers) => answers.sanctionsCountryLinks.length > 0,
  },
  {
    id: 'comprehensive-sanctions-link',
    description: 'One of those countries is under comprehensive sanctions or on the FATF call-for-action list',
    points: 20,
    applies: (answers) =>
      answers.sanctionsCountryLinks.some((code) => COMPREHENSIVELY_SANCTIONED_COUNTRIES.has(code.toUpperCase())),
  },
  {
    id: 'volume-at-least-1m',
    description: 'Expects to move at least USD 1,000,000 a month',
    points: 25,
    applies: (answers) => answers.expectedMonthlyVolumeUsdBand === 'atLeast1m',
  },
  {
    id: 'volume-250k-to-1m',
    description: 'Expects to move USD 250,000 to 1,000,000 a month',
    points: 15,
    applies: (answers) => answers.expectedMonthlyVolumeUsdBand === 'from250kTo1m',
  },
  {
    id: 'volume-50k-to-250k',
    description: 'Expects to move USD 50,000 to 250,000 a month',
    points: 5,
    applies: (answers) => answers.expectedMonthlyVolumeUsdBand === 'from50kTo250k',
  },
  {
    id: 'high-risk-industry',
    description:
      'Works in a cash-intensive or money-handling trade (money services, gambling, precious metals and stones, arms)',
    points: 20,
    applies: (answers) => HIGH_RISK_INDUSTRIES.has(answers.occupation.industry),
  },
  {
    id: 'volume-without-earned-income',
    description:
      'Student, unemployed or homemaker expecting at least USD 50,000 a month: volume does not match the profile',
    points: 15,
    applies: (answers) =>
      hasNoEarnedIncome(answers) &&
      answers.expectedMonthlyVolumeUsdBand !== 'under10k' &&
      answers.expectedMonthlyVolumeUsdBand !== 'from10kTo50k',
  },
  {
    id: 'employed-without-employer',
    description: 'Employed but names no employer',
    points: 10,
    applies: (answers) => answers.occupation.status === 'employed' && answers.employer.trim() === '',
  },
  {
    id: 'third-party-funds',
    description: 'Funds come from a gift, a loan or an unnamed source',
    points: 10,
    applies: (answers) =>
      answers.sourcesOfFunds.some((source) => source === 'gift' || source === 'loan' || source === 'other'),
  },
  {
    id: 'unexplained-wealth',
    description: 'Wealth comes only from unnamed sources',
    points: 10,
    applies: (answers) =>
      answers.sourcesOfWealth.length === 0 || answers.sourcesOfWealth.every((source) => source === 'other'),
  },
  {
    id: 'crypto-origin-at-volume',
    description: 'Funds or wealth from crypto mining or crypto assets, with a high expected volume',
    points: 10,
    applies: (answers) =>
      isHighVolume(answers) &&
      (answers.sourcesOfFunds.includes('cryptoMining') || answers.sourcesOfWealth.includes('cryptoAssets')),
  },
  {
    id: 'remittance-purpose',
    description: 'Uses the account for payments or remittances to others',
    points: 10,
    applies: (answers) => answers.purposes.some((purpose) => purpose === 'payments' || purpose === 'remittance'),
  },
];

/**
 * Score → level: below 20 low (auto-accepted), 20 to 39 medium (accepted, reviewed again at the
 * next periodic review), 40 and above high (enhanced review before acceptance). A politically
 * exposed person or a sanctions-country link alone reaches high.
 */
export const AML_THRESHOLDS = { mediumPointsMin: 20, highPointsMin: 40 } as const;

export interface AmlScore {
  points: number;
  level: AmlRiskLevel;
  /** Whether the answers go to enhanced review (level high) instead of auto-acceptance. */
  needsEnhancedReview: boolean;
  /** The rules that applied, in table order, with their points: the reviewer's explanation. */
  matchedRules: { id: string; points: number }[];
}

/** The level of a total score by `AML_THRESHOLDS`. */
export function amlLevel(points: number): AmlRiskLevel {
  if (points >= AML_THRESHOLDS.highPointsMin) return 'high';
  return points >= AML_THRESHOLDS.mediumPointsMin ? 'medium' : 'low';
}

/** Score one set of answers by the rule table (`rules` replaceable for tests). */
export function scoreAmlAnswers(answers: AmlAnswers, rules: readonly AmlRule[] = AML_RULES): AmlScore {
  const matchedRules = rules
    .filter((rule) => rule.applies(answers))
    .map((rule) => ({ id: rule.id, points: rule.points }));
  const points = matchedRules.reduce((sum, rule) => sum + rule.points, 0);
  const level = amlLevel(points);
  return { points, level, needsEnhancedReview: level === 'high', matchedRules };
}
