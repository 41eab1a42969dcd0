import { NO_TIN_REASONS, type TaxFormInput } from '@meridian/contracts/kyc';

/** The US-person questions of the tax page (IRS: citizen, resident or born in the US). */
export interface UsPersonAnswers {
  isUsCitizen?: boolean;
  isUsResident?: boolean;
  isUsBorn?: boolean;
}

/** The form the answers call for: a W-9 with the first reason that makes a US person, or the W-8BEN self-certification. */
export type TaxFormKind = { form: 'W9'; usPersonBasis: 'citizen' | 'resident' | 'birthplace' } | { form: 'W8BEN' };

/**
 * Which form to file: a US citizen, US resident or a person born in the US files a W-9 (the server
 * refuses a US person's W-8BEN); anyone else the W-8BEN-style self-certification. Null until all
 * three questions are answered.
 */
export function taxFormKind(answers: UsPersonAnswers): TaxFormKind | null {
  const { isUsCitizen, isUsResident, isUsBorn } = answers;
  if (isUsCitizen === true) return { form: 'W9', usPersonBasis: 'citizen' };
  if (isUsResident === true) return { form: 'W9', usPersonBasis: 'resident' };
  if (isUsBorn === true) return { form: 'W9', usPersonBasis: 'birthplace' };
  if (isUsCitizen === undefined || isUsResident === undefined || isUsBorn === undefined) return null;
  return { form: 'W8BEN' };
}

/** One tax residence as the form holds it: a TIN, or a CRS reason code for having none. */
export interface ResidenceValues {
  country?: string;
  tin?: string;
  noTinReason?: string;
}

/** The tax page's values. */
export interface TaxPageValues extends UsPersonAnswers {
  tin?: string;
  residences?: ResidenceValues[];
}

/**
 * The body of `POST investor/tax` for the page's values: the W-9 with its SSN/ITIN, or the W-8BEN
 * with each residence's TIN, or its reason code when no TIN is given. Null until the form is decided.
 */
export function taxFormBody(values: TaxPageValues): TaxFormInput | null {
  const kind = taxFormKind(values);
  if (!kind) return null;
  if (kind.form === 'W9') return { form: 'W9', usPersonBasis: kind.usPersonBasis, tin: (values.tin ?? '').trim() };
  return {
    form: 'W8BEN',
    isUsBorn: false,
    residences: (values.residences ?? []).map((residence) => {
      const tin = (residence.tin ?? '').trim();
      const reason = (NO_TIN_REASONS as readonly string[]).includes(residence.noTinReason ?? '')
        ? (residence.noTinReason as (typeof NO_TIN_REASONS)[number])
        : undefined;
      return { country: residence.country ?? '', ...(tin ? { tin } : reason ? { noTinReason: reason } : {}) };
    }),
  };
}

/** The tax form's steps: the US-person questions, the form they decide, the review. */
export const TAX_STEPS = ['usPerson', 'form', 'review'] as const;
/** The form's top-level fields a server refusal may name. */
export const TAX_FORM_ROOTS = ['tin', 'residences', 'usPersonBasis', 'isUsBorn'];
