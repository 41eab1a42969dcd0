import { KYC_STATUS, type AmlAnswersInput, type InvestorDraft, type TaxFormInput } from '@meridian/contracts/kyc';
import dayjs from 'dayjs';
import sharp from 'sharp';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import { validateUpload } from '../../platform/uploads/upload-rules.ts';
import type { KycService } from './kyc.service.ts';

/**
 * The demo account's identity as its basic KYC submission (never in production): an HKID holder
 * living in Hong Kong. The names are the ones the e2e accessibility check knows as demo data.
 */
const DEMO_IDENTITY = {
  firstName: 'Tai Man',
  lastName: 'Chan',
  nameChinese: '陳大文',
  dateOfBirth: '1990-05-01',
  nationality: 'HK',
  residence: 'HK',
  idType: 'hkid',
  idNumber: 'A123456(3)',
  address: '香港中環皇后大道中 2 號 1 樓',
} as const;

/** The demo account's investor profile: an individual. */
const DEMO_INVESTOR_PROFILE: InvestorDraft = {
  type: 'individual',
  individual: {
    netWorthUsdBand: 'from100kTo1m',
    annualIncomeUsdBand: 'from50kTo200k',
    investmentExperience: 'oneToFiveYears',
  },
};

/** AML answers no scoring rule applies to (low risk, accepted at once by the rule table). */
const DEMO_AML_ANSWERS: AmlAnswersInput = {
  occupation: { status: 'employed', industry: 'technology' },
  employer: 'Meridian Demo Ltd',
  sourcesOfFunds: ['salary'],
  sourcesOfWealth: ['employment'],
  expectedMonthlyVolumeUsdBand: 'under10k',
  purposes: ['investment'],
  isPoliticallyExposed: false,
  sanctionsCountryLinks: [],
};

/** A W-8BEN-style self-certification: tax resident of Hong Kong, the HKID as its TIN. */
const DEMO_TAX_FORM: TaxFormInput = {
  form: 'W8BEN',
  isUsBorn: false,
  residences: [{ country: 'HK', tin: 'A1234563' }],
};

/** Days before the seed's date that the demo proof of address is dated (within the 90-day rule). */
const PROOF_OF_ADDRESS_AGE_DAYS = 10;

/** The demo documents: a small generated picture for each kind basic KYC needs of an HKID holder. */
async function demoDocuments() {
  const picture = await sharp({
    create: { width: 64, height: 40, channels: 3, background: { r: 217, g: 217, b: 217 } },
  })
    .png()
    .toBuffer();
  const kinds = ['idFront', 'idBack', 'selfie', 'proofOfAddress'] as const;
  return Promise.all(
    kinds.map((kind) => validateUpload({ fieldName: kind, fileName: `demo-${kind}.png`, bytes: picture })),
  );
}

/**
 * Take the demo account to level 2 (investor) the way a real customer gets there
 * (docs/decisions/0011-verification-level.md): basic KYC draft, documents and submission approved by
 * the demo operator, the investor profile submitted and approved, low-risk AML answers (accepted by
 * the rules) and a tax form — all through `KycService`, so the rows, the decisions, the messages and
 * the level are the ones a real approval leaves. Idempotent: each step is taken only while it is not
 * done (a step left Under Review by an interrupted run is approved), so running it again, or on a
 * database seeded before, changes nothing more. Never in production (`config.seedDemo`).
 * @param operatorEmail the reviewer recorded on the decisions (the demo admin operator).
 * @param now the app's clock reading: the proof of address is dated 10 Hong Kong days before it.
 */
export async function seedDemoVerification(
  kyc: KycService,
  userId: string,
  operatorEmail: string,
  now: Date,
): Promise<void> {
  const basic = await kyc.state(userId);
  if (basic.status === KYC_STATUS.NONE || basic.status === KYC_STATUS.FAILED) {
    const proofDate = dayjs(hongKongDay(now)).subtract(PROOF_OF_ADDRESS_AGE_DAYS, 'day').format('YYYY-MM-DD');
    await kyc.saveDraft(userId, { ...DEMO_IDENTITY, proofOfAddressDate: proofDate });
    await kyc.addDocuments(userId, await demoDocuments());
    await kyc.commit(userId);
  }
  if ((await kyc.state(userId)).status === KYC_STATUS.UNDER_REVIEW) await kyc.approve(operatorEmail, userId);

  const investor = await kyc.investorState(userId);
  if (investor.status === KYC_STATUS.NONE || investor.status === KYC_STATUS.FAILED) {
    await kyc.saveInvestorDraft(userId, DEMO_INVESTOR_PROFILE);
    await kyc.commitInvestor(userId);
  }
  if ((await kyc.investorState(userId)).status === KYC_STATUS.UNDER_REVIEW)
    await kyc.decideStep(operatorEmail, userId, 'investor', 'approve', null);

  const aml = (await kyc.amlState(userId)).current;
  if (!aml || aml.status === 'rejected') await kyc.answerAml(userId, DEMO_AML_ANSWERS);
  else if (aml.status === 'enhancedReview') await kyc.decideStep(operatorEmail, userId, 'aml', 'approve', null);

  if (!(await kyc.taxState(userId)).current) await kyc.fileTax(userId, DEMO_TAX_FORM);
  // Every step above recomputes the level; a database seeded before with its steps done gets it here.
  await kyc.refreshLevel(userId);
}
