import { describe, expect, it } from 'vitest';
import { taxFormBody, taxFormKind } from './tax-form.ts';

describe('taxFormKind', () => {
  it('asks a US citizen, resident or US-born person for a W-9 with the first reason', () => {
    expect(taxFormKind({ isUsCitizen: true, isUsResident: true, isUsBorn: true })).toEqual({
      form: 'W9',
      usPersonBasis: 'citizen',
    });
    expect(taxFormKind({ isUsCitizen: false, isUsResident: true })).toEqual({ form: 'W9', usPersonBasis: 'resident' });
    expect(taxFormKind({ isUsCitizen: false, isUsResident: false, isUsBorn: true })).toEqual({
      form: 'W9',
      usPersonBasis: 'birthplace',
    });
  });

  it('gives the W-8BEN only once every answer is no, and nothing before', () => {
    expect(taxFormKind({ isUsCitizen: false, isUsResident: false, isUsBorn: false })).toEqual({ form: 'W8BEN' });
    expect(taxFormKind({ isUsCitizen: false, isUsResident: false })).toBeNull();
    expect(taxFormKind({})).toBeNull();
  });
});

describe('taxFormBody', () => {
  it('builds the W-9 with its TIN', () => {
    expect(taxFormBody({ isUsCitizen: true, tin: ' 123-45-6789 ' })).toEqual({
      form: 'W9',
      usPersonBasis: 'citizen',
      tin: '123-45-6789',
    });
  });

  it('builds the W-8BEN with a TIN or, without one, the reason code', () => {
    expect(
      taxFormBody({
        isUsCitizen: false,
        isUsResident: false,
        isUsBorn: false,
        residences: [
          { country: 'HK', tin: 'A1234563', noTinReason: 'B' },
          { country: 'SG', tin: '', noTinReason: 'A' },
          { country: 'GB' },
        ],
      }),
    ).toEqual({
      form: 'W8BEN',
      isUsBorn: false,
      residences: [{ country: 'HK', tin: 'A1234563' }, { country: 'SG', noTinReason: 'A' }, { country: 'GB' }],
    });
  });
});
